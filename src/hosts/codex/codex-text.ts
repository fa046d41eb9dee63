import type { CallFact, ReaderFact, ReaderSource, TranscriptFormat } from "../common/reader-event.js";
import { unwrapShell } from "./codex-exec-json.js";

/**
 * `codex exec` human output as a CI log keeps it (stderr then stdout, 0.169): a banner (`OpenAI Codex v…`,
 * `session id: <uuid>`), `user` then the prompt (a turn), and for each command that ran `exec`, then
 * `<command> in <dir>`, then ` succeeded in 12ms:` or ` exited 1 in 12ms:` and its output up to a blank line. A call
 * the exec policy refused is one stderr line,
 * `… ERROR codex_core::tools::router: error=exec_command failed: CreateProcess { message: "Rejected(\"`<command>`
 * rejected: <reason>\")" }`. No times: every fact is timed by the file.
 */
const BANNER = /^OpenAI Codex v\d/;
const SESSION = /^session id: (\S+)$/;
const COMMAND = /^(.*) in (\/.*)$/;
const DONE = /^ (?:succeeded|exited (-?\d+)) in \S+:$/;
const REJECTED = /ERROR codex_core::tools::router: error=(\w+) failed: .*Rejected\(\\?"`(.*)` rejected: (.*?)\\?"\)/;

export const codexText: TranscriptFormat = {
  id: "codex-text",
  host: "codex",
  headless: true,
  sniffOrder: 41,
  plainText: true,
  sniff(head) {
    return head.some((line) => BANNER.test(line));
  },
  read: readCodexText,
};

function* readCodexText(source: ReaderSource): Generator<ReaderFact> {
  let sessionId = source.fallbackSessionId;
  const at = source.fallbackAt;
  let announced = false;
  let sequence = 0;
  /** `exec` seen: the next line is the command; then the status line; then output up to a blank line */
  let state: "idle" | "command" | "status" | "output" = "idle";
  let pending: { id: string; command: string } | undefined;
  let userNext = false;
  const call = (tool: string, command: string): CallFact => {
    sequence += 1;
    return { type: "call", sessionId, at, id: `${sessionId}-${sequence}`, tool, input: { cmd: command } };
  };
  for (const line of source.lines()) {
    const session = announced ? null : SESSION.exec(line);
    if (session !== null) {
      sessionId = session[1] as string;
      continue;
    }
    if (!announced && (line === "user" || line === "exec" || REJECTED.test(line))) {
      announced = true;
      yield { type: "session", sessionId, at, interactive: false };
    }
    if (state === "output") {
      if (line === "") state = "idle";
      continue;
    }
    if (state === "command") {
      const command = COMMAND.exec(line);
      const fact = call("exec_command", unwrapShell((command?.[1] ?? line).trim()));
      yield fact;
      pending = { id: fact.id, command: line };
      state = "status";
      continue;
    }
    if (state === "status" && pending !== undefined) {
      const done = DONE.exec(line);
      const exitCode = done?.[1] === undefined ? 0 : Number(done[1]);
      yield {
        type: "result",
        sessionId,
        at,
        id: pending.id,
        outcome: exitCode === 0 && done !== null ? "success" : "error",
        text: done === null ? line : "",
        ...(done === null ? {} : { exitCode }),
      };
      pending = undefined;
      state = done === null ? "idle" : "output";
      continue;
    }
    if (userNext) {
      userNext = false;
      continue;
    }
    if (line === "user") {
      yield { type: "turn", sessionId, at };
      userNext = true;
      continue;
    }
    if (line === "exec") {
      state = "command";
      continue;
    }
    const rejected = REJECTED.exec(line);
    if (rejected !== null) {
      const fact = call(rejected[1] as string, unwrapShell(rejected[2] as string));
      yield fact;
      const text = `\`${rejected[2]}\` rejected: ${rejected[3]}`;
      yield { type: "result", sessionId, at, id: fact.id, outcome: "error", text };
    }
  }
}
