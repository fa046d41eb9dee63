import { asRecord, asString, parseObject, timeOf, typedRecord } from "../common/read-lines.js";
import type { ReaderFact, ReaderSource, TranscriptFormat } from "../common/reader-event.js";

/**
 * `codex exec --json` output. Only calls that ran appear (`item.completed` of a `command_execution`,
 * `file_change` or `mcp_tool_call`): Codex 0.169 writes no item for a denied call, so this format can show wasted
 * work but never a denial; the rollout file of the same run has them.
 */
export const codexExecJson: TranscriptFormat = {
  id: "codex-exec-json",
  host: "codex",
  headless: true,
  sniffOrder: 20,
  sniff(head) {
    return head.some((line) => {
      const record = parseObject(line);
      return record?.["type"] === "thread.started" && typeof record["thread_id"] === "string";
    });
  },
  read: readCodexExec,
};

/** `/bin/bash -lc 'rm -rf x'` -> `rm -rf x` (the rollout records the bare command). */
export function unwrapShell(command: string): string {
  const match = /^\/(?:usr\/)?bin\/(?:ba|z)?sh -l?c (.*)$/s.exec(command);
  if (match === null) return command;
  const rest = (match[1] as string).trim();
  if (rest.startsWith("'") && rest.endsWith("'")) return rest.slice(1, -1).replaceAll("'\\''", "'");
  if (rest.startsWith('"') && rest.endsWith('"')) return rest.slice(1, -1);
  return rest;
}

function* readCodexExec(source: ReaderSource): Generator<ReaderFact> {
  let sessionId = source.fallbackSessionId;
  let announced = false;
  for (const line of source.lines()) {
    if (line.length === 0) continue;
    const typed = typedRecord(line, source);
    if (typed === undefined) continue;
    const { record, type } = typed;
    const at = timeOf(record["timestamp"], source.fallbackAt);
    if (type === "thread.started") sessionId = asString(record["thread_id"]) ?? sessionId;
    if (!announced) {
      announced = true;
      yield { type: "session", sessionId, at, interactive: false };
    }
    if (type === "turn.started") {
      yield { type: "turn", sessionId, at };
      continue;
    }
    if (type !== "item.completed") continue;
    const item = asRecord(record["item"]) ?? {};
    const id = String(item["id"]);
    const itemType = asString(item["type"]);
    let tool: string;
    let input: unknown;
    if (itemType === "command_execution") {
      tool = "exec_command";
      input = { cmd: unwrapShell(asString(item["command"]) ?? "") };
    } else if (itemType === "file_change") {
      tool = "apply_patch";
      input = { changes: item["changes"] };
    } else if (itemType === "mcp_tool_call") {
      tool = `mcp__${asString(item["server"]) ?? "server"}__${asString(item["tool"]) ?? "tool"}`;
      input = item["arguments"];
    } else continue;
    yield { type: "call", sessionId, at, id, tool, input };
    const exitCode = typeof item["exit_code"] === "number" ? item["exit_code"] : undefined;
    const failed = item["status"] === "failed" || (exitCode !== undefined && exitCode !== 0);
    const text = asString(item["aggregated_output"]) ?? asString(asRecord(item["error"])?.["message"]) ?? "";
    yield {
      type: "result",
      sessionId,
      at,
      id,
      outcome: failed ? "error" : "success",
      text,
      ...(exitCode === undefined ? {} : { exitCode }),
    };
  }
}
