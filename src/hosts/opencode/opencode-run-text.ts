import type { ReaderFact, ReaderSource, TranscriptFormat } from "../common/reader-event.js";

/**
 * `opencode run` default text output as a CI log keeps it (stderr and stdout, 1.18): `> agent · model` starts a
 * turn, `$ <command>` is a shell call that ran, `→ <Tool> <target>` another tool that ran, `✗ <title> failed`
 * then `Error: <text>` a call that failed (the text says whether it was denied), and
 * `! permission requested: <permission> (<pattern>); auto-rejecting` an `ask` nobody could answer. The lines carry
 * no ids and no times: calls are numbered, and timed by the file.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes
const ANSI = /\u001b\[[0-9;]*m/g;
const TURN = /^> \S+ · \S/;
const SHELL = /^\$ (.*)$/;
const OTHER = /^→ (\S+) ?(.*)$/;
const FAILED = /^✗ (.*?) failed(?: \[[^\]]*\])?$/;
const ERROR = /^Error: (.*)$/;
const ASK = /^! permission requested: (.*); auto-rejecting$/;
const TOOLS = new Set([
  "Read",
  "Write",
  "Edit",
  "Glob",
  "Grep",
  "List",
  "WebFetch",
  "Task",
  "Patch",
  "Todowrite",
  "Skill",
]);

export const opencodeRunText: TranscriptFormat = {
  id: "opencode-run-text",
  host: "opencode",
  headless: true,
  sniffOrder: 40,
  plainText: true,
  sniff(head) {
    return head.some((line) => {
      const plain = line.replace(ANSI, "");
      return TURN.test(plain) || ASK.test(plain);
    });
  },
  read: readOpencodeText,
};

/** A `✗`/`→` title: `Read /path` is the read tool on that path; anything else is a shell command. */
function callOf(title: string): { tool: string; input: Record<string, unknown> } {
  const [first = "", ...rest] = title.split(" ");
  if (TOOLS.has(first)) return { tool: first.toLowerCase(), input: { filePath: rest.join(" ") } };
  return { tool: "bash", input: { command: title } };
}

function* readOpencodeText(source: ReaderSource): Generator<ReaderFact> {
  const sessionId = source.fallbackSessionId;
  const at = source.fallbackAt;
  let sequence = 0;
  let failed: { id: string } | undefined;
  let asked = false;
  yield { type: "session", sessionId, at, interactive: false };
  const call = function* (title: { tool: string; input: Record<string, unknown> }): Generator<ReaderFact, string> {
    sequence += 1;
    const id = `${sessionId}-${sequence}`;
    yield { type: "call", sessionId, at, id, tool: title.tool, input: title.input };
    return id;
  };
  for (const raw of source.lines()) {
    const line = raw.replace(ANSI, "").trimEnd();
    const error = ERROR.exec(line);
    if (failed !== undefined && error !== null) {
      const denial = asked ? { denial: { source: "headless" as const } } : {};
      yield { type: "result", sessionId, at, id: failed.id, outcome: "error", text: error[1] as string, ...denial };
      failed = undefined;
      asked = false;
      continue;
    }
    if (TURN.test(line)) {
      yield { type: "turn", sessionId, at };
      continue;
    }
    if (ASK.test(line)) {
      asked = true;
      continue;
    }
    const shell = SHELL.exec(line);
    const other = shell === null ? OTHER.exec(line) : null;
    const failure = shell === null && other === null ? FAILED.exec(line) : null;
    if (shell === null && other === null && failure === null) continue;
    if (failed !== undefined) {
      // a failure with no `Error:` line after it
      yield { type: "result", sessionId, at, id: failed.id, outcome: "error", text: "" };
      failed = undefined;
    }
    if (failure !== null) {
      failed = { id: yield* call(callOf(failure[1] as string)) };
      continue;
    }
    const title =
      shell !== null
        ? { tool: "bash", input: { command: shell[1] as string } }
        : callOf(`${other?.[1]} ${other?.[2]}`.trim());
    const id = yield* call(title);
    yield { type: "result", sessionId, at, id, outcome: "success", text: "" };
  }
  if (failed !== undefined) yield { type: "result", sessionId, at, id: failed.id, outcome: "error", text: "" };
}
