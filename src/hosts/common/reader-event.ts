import type { DenialSource } from "../../core/events.js";

/**
 * What a transcript reader emits: the facts a host's log holds about tool calls, before they are paired and
 * classified into the core's events (`to-core-events.ts`). Readers translate; they never decide a denial from
 * text themselves, except from a host's structured fields (`denial`).
 */

/** The name of a host whose transcripts `toolgate analyze` reads (a registered host with `transcriptFormats`). */
export type AnalyzeHost = string;

interface Base {
  sessionId: string;
  /** epoch ms; readers use the file's mtime when a line has no time */
  at: number;
  /** the subagent that acted; absent for the main agent */
  agentId?: string;
}

export interface SessionFact extends Base {
  type: "session";
  parentSessionId?: string;
  /** whether a person could answer prompts; undefined when the transcript does not say */
  interactive?: boolean;
  /** the session's working directory (its project), where the log names it; the first one counts */
  project?: string;
  /**
   * the person's first prompt, raw, where the log holds it (a reader may yield it in a later session fact): the
   * replay keeps only its redacted, bounded first line (core/session-info.ts); the first one counts
   */
  prompt?: string;
}

/** A real user message (not a tool result carried in a user message). */
export interface TurnFact extends Base {
  type: "turn";
}

export interface CallFact extends Base {
  type: "call";
  id: string;
  tool: string;
  input: unknown;
  /** tokens the model spent producing this call, where the transcript has usage */
  tokens?: number;
  /** the transcript does not hold the input (a headless summary): counted, never compared for loops */
  opaque?: true;
}

/** The host's structured verdict that a call was refused (a `toolDenialKind`, an `execution_denied` status, ...). */
export interface StructuredDenial {
  /** absent: the host flagged a refusal without saying whose; the text decides, else `rule` */
  source?: DenialSource;
  reason?: string;
  rule?: string;
  decisionReasonType?: string;
}

export interface ResultFact extends Base {
  type: "result";
  id: string;
  /** when the result line carries the call itself (a host that records call and result in one part or record) */
  tool?: string;
  input?: unknown;
  outcome: "success" | "error";
  /** the text the model saw (error or output) */
  text: string;
  exitCode?: number;
  denial?: StructuredDenial;
  /** host metadata for `recognizeDenial` (Claude `tool_result_meta` entry, `interactive`) */
  metadata?: Record<string, unknown>;
}

export type ReaderFact = SessionFact | TurnFact | CallFact | ResultFact;

/** A reader's handle on one file. */
export interface ReaderSource {
  file: string;
  /**
   * the file's lines, streamed (never the whole file in memory), for lines the reader would ignore, left unparsed:
   * `keep`, when given, sees each non-empty line's text first (hosts/common/skip-lines.ts), `keepBytes` its raw bytes
   * before it is decoded; a line either rejects is not yielded
   */
  lines(keep?: (line: string) => boolean, keepBytes?: (bytes: Buffer) => boolean): Iterable<string>;
  /** count a line that is corrupt, truncated or of an unknown shape */
  skip(): void;
  /** the file's mtime (epoch ms): the time of lines without one */
  fallbackAt: number;
  /** a session id for formats that carry none (a headless log): derived from the file name */
  fallbackSessionId: string;
}

export interface TranscriptFormat {
  /** stable id, shown in the report and accepted by nothing else (`--host` selects by host) */
  id: string;
  host: AnalyzeHost;
  /** whether the run was headless by construction (`-p`, `exec`, `run` outputs) */
  headless: boolean;
  /**
   * The files say whether a person watched (Claude Code's `entrypoint`), so a file that does
   * not say (a Claude Code 2.0 transcript) is of an unknown mode: a person's rejection there stays a person's, never
   * a `headless` denial. Absent: a file that does not say is read as headless (one file per run, no evidence kept).
   */
  recordsMode?: true;
  /**
   * Where this format is tried among every host's formats, lower first: session files (10s) before JSON streams
   * (20s), before JSON logs (30s), before plain text (40s). A more specific sniff goes first (a host's records that
   * copy another host's shape are tried before the original).
   */
  sniffOrder: number;
  /** a plain text log (not JSON lines): the reader `--host` falls back to for a text file nothing else matched */
  plainText?: true;
  /**
   * For a binary format: true when the file (its header) is this format. Such a format is never sniffed by lines,
   * and a file it claims is never read as text.
   */
  sniffFile?(file: string): boolean;
  /**
   * true when the first lines (raw text, at most a few) look like this format. Runs inside `sniffingHead`: a line's
   * `parseObject` is parsed once for every format's sniff, so a sniff reads the record it gets and never changes it.
   */
  sniff(head: readonly string[]): boolean;
  read(source: ReaderSource): Iterable<ReaderFact>;
}
