import { asRecord, asString, parseObject } from "../common/read-lines.js";
import type { ReaderFact, ReaderSource, TranscriptFormat } from "../common/reader-event.js";

/**
 * A `gemini -p ... -o json` log as CI keeps it (`2>&1`): `Error executing tool <tool>: <text>` lines on stderr,
 * then one JSON document (several lines) with `session_id` and `stats.tools.byName.<tool>.{count,success,fail}`.
 * Inputs are not in this output, so its calls are opaque: counted and classified, never compared for loops.
 * Policy denials count as `fail`, not as `decisions.reject`, so they are told apart by the stderr text.
 */
const ERROR_LINE = /^Error executing tool ([\w.-]+): (.*)$/;
const MAX_DOCUMENT = 8 * 1024 * 1024;
/**
 * A log captured through a terminal (a pseudo-terminal without a size is 80 columns wide) has its long lines cut at
 * the last column, the space at a cut dropped and a wide character carried to the next line whole.
 */
const TERMINAL_COLUMNS = 80;

/** The columns a line takes in a terminal: East Asian wide and fullwidth characters take two. */
function columns(line: string): number {
  let width = 0;
  for (const character of line) {
    const code = character.codePointAt(0) ?? 0;
    const wide =
      (code >= 0x1100 && code <= 0x115f) ||
      (code >= 0x2e80 && code <= 0xa4cf) ||
      (code >= 0xac00 && code <= 0xd7a3) ||
      (code >= 0xf900 && code <= 0xfaff) ||
      (code >= 0xfe30 && code <= 0xfe4f) ||
      (code >= 0xff00 && code <= 0xff60) ||
      (code >= 0xffe0 && code <= 0xffe6) ||
      (code >= 0x20000 && code <= 0x3fffd);
    width += wide ? 2 : 1;
  }
  return width;
}

/**
 * The document with the line breaks a terminal put inside its strings removed: JSON allows no raw line break in a
 * string, so each one there is a cut (the spaces dropped at a cut stay dropped).
 */
function unwrapStrings(text: string): string {
  let out = "";
  let inString = false;
  let escaped = false;
  for (const character of text) {
    if (inString) {
      // a cut can fall inside an escape (`\` at the end of a line, `"` at the start of the next)
      if (character === "\n") continue;
      if (escaped) escaped = false;
      else if (character === "\\") escaped = true;
      else if (character === '"') inString = false;
    } else if (character === '"') inString = true;
    out += character;
  }
  return out;
}

export const geminiOutputLog: TranscriptFormat = {
  id: "gemini-json-output",
  host: "gemini",
  headless: true,
  sniffOrder: 30,
  plainText: true,
  sniff(head) {
    return (
      head.some((line) => ERROR_LINE.test(line) || /^\s*"session_id": "/.test(line)) &&
      head.some((line) => line.trim() === "{" || ERROR_LINE.test(line))
    );
  },
  read: readGeminiOutput,
};

function* readGeminiOutput(source: ReaderSource): Generator<ReaderFact> {
  const sessionId = source.fallbackSessionId;
  const at = source.fallbackAt;
  const errors: { tool: string; text: string }[] = [];
  let document: string[] | undefined;
  let size = 0;
  // the width of the error line read last (or of its last piece), while the lines after it may continue it
  let cutAt: number | undefined;
  for (const line of source.lines()) {
    if (document !== undefined) {
      document.push(line);
      size += line.length;
      if (size > MAX_DOCUMENT) {
        source.skip();
        document = undefined;
      }
      continue;
    }
    const error = ERROR_LINE.exec(line);
    const last = errors[errors.length - 1];
    if (error !== null) {
      errors.push({ tool: error[1] as string, text: (error[2] as string).slice(0, 4000) });
      cutAt = columns(line);
      continue;
    }
    if (line === "{") document = [line];
    else if (last !== undefined && cutAt !== undefined && cutAt >= TERMINAL_COLUMNS - 1 && line.length > 0) {
      // an error line a terminal cut: a full line lost no space at the cut, one a column short lost a space
      last.text = `${last.text}${cutAt === TERMINAL_COLUMNS ? "" : " "}${line}`.slice(0, 4000);
      cutAt = columns(line);
      continue;
    }
    cutAt = undefined;
  }
  const text = document?.join("\n");
  const parsed = text === undefined ? undefined : (parseObject(text) ?? parseObject(unwrapStrings(text)));
  if (document !== undefined && parsed === undefined) source.skip();
  const id = asString(parsed?.["session_id"]) ?? sessionId;
  yield { type: "session", sessionId: id, at, interactive: false };
  const byName = asRecord(asRecord(asRecord(parsed?.["stats"])?.["tools"])?.["byName"]) ?? {};
  let sequence = 0;
  const emit = function* (tool: string, outcome: "success" | "error", text: string): Generator<ReaderFact> {
    sequence += 1;
    const callId = `${id}-${sequence}`;
    yield { type: "call", sessionId: id, at, id: callId, tool, input: {}, opaque: true };
    yield { type: "result", sessionId: id, at, id: callId, outcome, text };
  };
  const failsSeen = new Map<string, number>();
  for (const error of errors) {
    failsSeen.set(error.tool, (failsSeen.get(error.tool) ?? 0) + 1);
    yield* emit(error.tool, "error", error.text);
  }
  for (const [tool, value] of Object.entries(byName)) {
    const stats = asRecord(value) ?? {};
    const success = typeof stats["success"] === "number" ? stats["success"] : 0;
    const fail = typeof stats["fail"] === "number" ? stats["fail"] : 0;
    for (let index = 0; index < success; index++) yield* emit(tool, "success", "");
    for (let index = failsSeen.get(tool) ?? 0; index < fail; index++)
      yield* emit(tool, "error", "(failed; no text in this output)");
  }
}
