import { statSync } from "node:fs";
import { basename, resolve } from "node:path";
import type { CompiledConfig } from "../core/config.js";
import { byteOrder } from "../core/figures.js";
import { hash53 } from "../core/hash.js";
import type { DenialRecord } from "../core/records.js";
import type { SessionInfo } from "../core/session-info.js";
import { readLines } from "../hosts/common/read-lines.js";
import type { AnalyzeHost, ReaderSource } from "../hosts/common/reader-event.js";
import type { RuleLanguage } from "../policy/grants/allow-rule-suggestion.js";
import type { SessionAnalysis, SkippedFile } from "./analysis-types.js";
import { denialTexts, detectFormat, ruleLanguages, skipReason } from "./formats.js";
import { memoizePorts } from "./memoize-ports.js";
import { SessionReplay } from "./session-replay.js";

export interface AnalyzeTranscriptsOptions {
  files: readonly string[];
  /** `--host`: read every file as this host's format */
  host?: AnalyzeHost;
  /** epoch ms: files last changed before it and sessions that ended before it are left out */
  since?: number;
  /** only sessions whose id starts with this */
  sessionId?: string;
  config: CompiledConfig;
  canGrant: (call: { tool: string; input: unknown }) => boolean;
  /** keep the core's denial records per session (for `--save`) */
  keepRecords?: boolean;
  /** bytes read so far and in total, called now and then */
  onProgress?: (done: number, total: number) => void;
  /**
   * replay with the config as given: no cached ports, no interned inputs, the core's full record buffer, the core's
   * copying `step` (not `stepOwned`). The
   * reference the fast path is tested against (same result on every recorded transcript); slower.
   */
  reference?: boolean;
}

export interface AnalyzedSession {
  analysis: SessionAnalysis;
  records: DenialRecord[];
  /** the project and first prompt line the transcript shows (core/session-info.ts), for `--save` */
  info?: SessionInfo;
}

export interface AnalyzeTranscriptsResult {
  sessions: AnalyzedSession[];
  skippedLines: number;
  unrecognizedFiles: string[];
  /** files of the `--host` host that hold nothing to analyse, with the reason */
  skippedFiles: SkippedFile[];
  filesRead: number;
}

const PROGRESS_EVERY = 4096;

/**
 * Reads each file with the reader its first lines select, groups the facts into sessions (the same session id
 * across a main transcript and its subagent files is one session) and replays each through the core.
 */
export async function analyzeTranscripts(options: AnalyzeTranscriptsOptions): Promise<AnalyzeTranscriptsResult> {
  const sizes = options.files.map((file) => safeStat(file));
  const total = sizes.reduce((sum, stat) => sum + ("size" in stat ? stat.size : 0), 0);
  let done = 0;
  let skippedLines = 0;
  let filesRead = 0;
  const unrecognizedFiles: string[] = [];
  const skippedFiles: SkippedFile[] = [];
  const replays = new Map<string, SessionReplay>();
  const { config, describe } = options.reference === true ? { config: options.config } : replaySetup(options.config);
  const tables = await denialTexts();
  const languages = await ruleLanguages();
  for (const [index, file] of options.files.entries()) {
    const stat = sizes[index];
    if (stat === undefined) continue;
    // a file that cannot be read is listed with the reason, never dropped without a word
    if ("error" in stat) {
      skippedFiles.push({ file, reason: stat.error });
      continue;
    }
    if (options.since !== undefined && stat.mtimeMs < options.since) {
      done += stat.size;
      continue;
    }
    let format: Awaited<ReturnType<typeof detectFormat>>;
    try {
      format = await detectFormat(file, options.host);
    } catch (error) {
      skippedFiles.push({ file, reason: `cannot be read (${errorText(error)})` });
      done += stat.size;
      continue;
    }
    if (format === undefined) {
      const reason = await skipReason(file, options.host);
      if (reason === undefined) unrecognizedFiles.push(file);
      else skippedFiles.push({ file, reason });
      done += stat.size;
      continue;
    }
    let lineCount = 0;
    let facts = 0;
    let fileDone = 0;
    const onLine = (length: number) => {
      fileDone += length + 1;
      lineCount += 1;
      if (options.onProgress !== undefined && lineCount % PROGRESS_EVERY === 0)
        options.onProgress(done + fileDone, total);
    };
    const source: ReaderSource = {
      file,
      fallbackAt: stat.mtimeMs,
      // a log that names no session is one session per file: two `run.log` files in two folders are two sessions
      // (the store keys sessions by id alone), so the id carries a hash of the file's path
      fallbackSessionId: `${basename(file).replace(/\.[^.]+$/, "")}-${hash53(resolve(file)).slice(0, 8)}`,
      skip: () => {
        skippedLines += 1;
      },
      lines: (keep, keepBytes) => readLines(file, { onLine, keep, keepBytes }),
    };
    let lastSessionId: string | undefined;
    let lastReplay: SessionReplay | undefined;
    // the sessions this file added to that earlier files had started, with their call counts before it: a file that
    // adds no call to any of them (a copy, a backup) is listed as skipped, not silently merged
    const earlier = new Map<SessionReplay, number>();
    let newSessions = 0;
    let callFacts = 0;
    try {
      for (const fact of format.read(source)) {
        facts += 1;
        if (options.sessionId !== undefined && !fact.sessionId.startsWith(options.sessionId)) continue;
        // consecutive facts are mostly of one session: its replay is looked up again only when the session changes
        let replay = fact.sessionId === lastSessionId ? lastReplay : undefined;
        const key = replay === undefined ? `${format.id} ${fact.sessionId}` : "";
        replay ??= replays.get(key);
        if (replay === undefined) {
          replay = new SessionReplay({
            file,
            host: format.host,
            denialTexts: tables,
            format: format.id,
            sessionId: fact.sessionId,
            // a transcript that does not say is replayed as a headless run (where thresholds stop a run)
            interactive: false,
            unknownIsHeadless: format.headless || format.recordsMode !== true,
            config,
            ...(describe === undefined ? {} : { describe }),
            ...(options.reference === true ? { copyState: true } : {}),
            canGrant: options.canGrant,
            keepRecords: options.keepRecords === true,
            ...(languages.has(format.host) ? { ruleLanguage: languages.get(format.host) as RuleLanguage } : {}),
          });
          replays.set(key, replay);
          newSessions += 1;
        } else if (replay.firstFile !== file && !earlier.has(replay)) earlier.set(replay, replay.callsCounted);
        if (fact.type === "call" || fact.type === "result") callFacts += 1;
        lastSessionId = fact.sessionId;
        lastReplay = replay;
        replay.push(fact);
      }
    } catch (error) {
      // a file that fails while being read (a corrupt database, an I/O error) never stops the run: it is listed with
      // the reason, and what was read before the error is counted only if anything was
      skippedFiles.push({
        file,
        reason:
          facts === 0
            ? `cannot be read (${errorText(error)})`
            : `read only up to an error (${errorText(error)}): what came before it is counted`,
      });
      done += stat.size;
      if (facts > 0) filesRead += 1;
      continue;
    }
    done += stat.size;
    options.onProgress?.(done, total);
    const first = earlier.keys().next().value;
    if (newSessions === 0 && callFacts > 0 && first !== undefined && !addedCalls(earlier)) {
      skippedFiles.push({
        file,
        reason: `holds only calls already read from ${first.firstFile} (the same ${format.host} session), counted once`,
      });
      continue;
    }
    filesRead += 1;
  }
  // one session read from two formats (a chat file and its stream-json log) is one session: the fuller reading
  // (more tool calls, then more denials, then the first read) counts, the other file is listed as skipped. Keyed by
  // the session id alone, as the store keys sessions: a forked host's run log can read as its parent's (the same
  // lines) while its database reads as its own, and it is still one session
  const byId = new Map<string, AnalyzedSession>();
  for (const replay of replays.values()) {
    if (options.since !== undefined && replay.lastEventAt < options.since) continue;
    const analysis = replay.finish();
    const info = replay.info();
    const candidate: AnalyzedSession = { analysis, records: replay.records, ...(info === undefined ? {} : { info }) };
    const id = analysis.sessionId;
    const known = byId.get(id);
    if (known === undefined) {
      byId.set(id, candidate);
      continue;
    }
    const fuller = analysis.toolCalls - known.analysis.toolCalls || analysis.denialCount - known.analysis.denialCount;
    const [kept, dropped] = fuller > 0 ? [candidate, known] : [known, candidate];
    byId.set(id, kept);
    skippedFiles.push({
      file: dropped.analysis.file,
      reason: `the same ${kept.analysis.host} session ${analysis.sessionId} as ${kept.analysis.file} (${kept.analysis.format}), counted once`,
    });
  }
  const sessions = [...byId.values()];
  sessions.sort(
    (a, b) =>
      byteOrder(a.analysis.startedAt, b.analysis.startedAt) || byteOrder(a.analysis.sessionId, b.analysis.sessionId),
  );
  return { sessions, skippedLines, unrecognizedFiles, skippedFiles, filesRead };
}

function addedCalls(earlier: ReadonlyMap<SessionReplay, number>): boolean {
  for (const [replay, before] of earlier) if (replay.callsCounted > before) return true;
  return false;
}

/**
 * The config the replay steps with: the ports cached for the run (memoize-ports.ts), a record buffer of one and no
 * wasted calls waiting for tokens. The core's buffer (`state.records`) is read only to flush records at a turn's or
 * session's end, which the replay never asks for (it takes each record from its `record` effect), so a buffer of 100
 * would only be copied on every denial for nothing; the same for the waiting call ids (up to 256): the replay counts
 * wasted tokens from the transcript itself and never names them to the core; and for the ids of evicted records (a
 * buffer of one evicts at every denial): the replay never asks which calls are recorded.
 */
export function replaySetup(config: CompiledConfig): ReturnType<typeof memoizePorts> {
  const memoized = memoizePorts(config);
  return {
    ...memoized,
    config: { ...memoized.config, recordBufferSize: 1, pendingTokenCalls: 0, keepEvictedIds: false },
  };
}

function errorText(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
}

function safeStat(file: string): { size: number; mtimeMs: number } | { error: string } {
  try {
    const stat = statSync(file);
    return stat.isFile() ? { size: stat.size, mtimeMs: stat.mtimeMs } : { error: "not a regular file" };
  } catch (error) {
    return { error: `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
}
