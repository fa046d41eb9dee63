import { readHead } from "./read-lines.js";
import type { AnalyzeHost, TranscriptFormat } from "./reader-event.js";
import { claudeCodeSession } from "./readers/claude-code-session.js";
import { codexExecJson } from "./readers/codex-exec-json.js";
import { codexRollout } from "./readers/codex-rollout.js";
import { codexText } from "./readers/codex-text.js";
import { geminiOutputLog } from "./readers/gemini-output-log.js";
import { geminiSession } from "./readers/gemini-session.js";
import { geminiStreamJson } from "./readers/gemini-stream-json.js";
import { isSqliteFile, opencodeDb } from "./readers/opencode-db.js";
import { opencodeRunJson } from "./readers/opencode-run-json.js";
import { opencodeRunText } from "./readers/opencode-run-text.js";
import { qwenChat } from "./readers/qwen-chat.js";
import { qwenText } from "./readers/qwen-text.js";
import { claudeStreamJson, qwenStreamJson } from "./readers/stream-json.js";

/** Every format, in sniffing order (the more specific first: Qwen's records look like Claude's). */
export const TRANSCRIPT_FORMATS: readonly TranscriptFormat[] = [
  geminiSession,
  qwenChat,
  claudeCodeSession,
  codexRollout,
  codexExecJson,
  qwenStreamJson,
  claudeStreamJson,
  geminiStreamJson,
  opencodeRunJson,
  geminiOutputLog,
  opencodeRunText,
  codexText,
  qwenText,
];

/**
 * Hosts whose plain text output shows no tool call at all (recorded: docs/analyze.md). Such a file cannot be told
 * from any other text without `--host`; with it, the file is skipped with this reason.
 */
export const TEXT_OUTPUT_WITHOUT_CALLS: Partial<Record<AnalyzeHost, string>> = {
  "claude-code":
    "Claude Code's `claude -p` text output holds only the final answer, no tool call: keep `--output-format stream-json --verbose` or the session files instead",
};

/** Why a file of `host` that no format reads is skipped, when its text output is known to show no call. */
export async function skipReason(file: string, host: AnalyzeHost | undefined): Promise<string | undefined> {
  const reason = host === undefined ? undefined : TEXT_OUTPUT_WITHOUT_CALLS[host];
  if (reason === undefined || isSqliteFile(file)) return undefined;
  const head = await readHead(file, { count: HEAD_LINES, maxLength: HEAD_MAX_LINE });
  return head.some((line) => line.trimStart().startsWith("{")) ? undefined : reason;
}

const HEAD_LINES = 8;
const HEAD_MAX_LINE = 1024 * 1024;

/**
 * The format of one file from its first lines (or the SQLite header), restricted to `host` when given
 * (`--host`: with one format for that host left, that format is used even if nothing matched).
 */
export async function detectFormat(file: string, host?: AnalyzeHost): Promise<TranscriptFormat | undefined> {
  if (isSqliteFile(file)) return host === undefined || host === "opencode" ? opencodeDb : undefined;
  const candidates = TRANSCRIPT_FORMATS.filter((format) => host === undefined || format.host === host);
  const head = await readHead(file, { count: HEAD_LINES, maxLength: HEAD_MAX_LINE });
  if (head.length === 0) return undefined;
  const found = candidates.find((format) => format.sniff(head));
  if (found !== undefined || host === undefined) return found;
  // forced: the same kind of file from another host (Qwen's stream-json without its init line reads as Claude's)
  const other = TRANSCRIPT_FORMATS.find((format) => format.sniff(head));
  const kind = other?.id.slice(other.host.length + 1);
  const text = !head.some((line) => line.trimStart().startsWith("{"));
  return (
    candidates.find((format) => format.id === `${host}-${kind}`) ??
    (candidates.length === 1 ? candidates[0] : undefined) ??
    (text ? candidates.find((format) => format.plainText === true) : undefined)
  );
}
