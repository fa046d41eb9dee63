import type { ReaderFact, ReaderSource, TranscriptFormat } from "../common/reader-event.js";

/**
 * `qwen -p` plain text output as a CI log keeps it (stderr then stdout, 0.24): only the final answer on stdout, and
 * on stderr one `Warning: Tool "<tool>" was not run: <reason>` line per refused call (the reason names the
 * matching rule). Calls that ran leave no line, and the input of a refused one is not written, so the refused
 * calls are opaque (counted, never compared for loops) and a log with no refusal holds no call at all.
 */
const NOT_RUN = /^Warning: Tool "([\w.-]+)" was not run: (.*)$/;

export const qwenText: TranscriptFormat = {
  id: "qwen-text",
  host: "qwen",
  headless: true,
  sniffOrder: 42,
  plainText: true,
  sniff(head) {
    return head.some((line) => NOT_RUN.test(line));
  },
  read: readQwenText,
};

function* readQwenText(source: ReaderSource): Generator<ReaderFact> {
  const sessionId = source.fallbackSessionId;
  const at = source.fallbackAt;
  let sequence = 0;
  yield { type: "session", sessionId, at, interactive: false };
  for (const line of source.lines()) {
    const refused = NOT_RUN.exec(line);
    if (refused === null) continue;
    sequence += 1;
    const id = `${sessionId}-${sequence}`;
    const text = (refused[2] as string).slice(0, 4000);
    yield { type: "call", sessionId, at, id, tool: refused[1] as string, input: {}, opaque: true };
    yield { type: "result", sessionId, at, id, outcome: "error", text };
  }
}
