import { basename } from "node:path";
import type { HostStreamParser, HostStreamSummary, StreamDenial } from "../common/host-stream.js";

/**
 * Reads what `gemini -p ... -o stream-json` (0.61.0) writes to stdout for `toolgate run`: `init` {session_id},
 * `tool_use` {tool_name, tool_id, parameters}, `tool_result` {tool_id, status, error: {type, message}}, `result`
 * {status}. A refusal by Gemini's own policy is a `policy_violation` error; one whose message starts with
 * `Tool execution blocked:` came from a hook (toolgate's, recorded in its store under its own id), so only the
 * others are reported from the stream. An error of type `stop_execution` means a hook ended the run. With
 * `-o json` (one JSON object at the end) only the session id is read.
 */
type Json = Record<string, unknown>;

const HOOK_BLOCKED = "Tool execution blocked:";
/** at most this much of a `-o json` document is kept to find its session id */
const JSON_DOCUMENT_LIMIT = 1 << 20;

export function createGeminiStreamParser(): HostStreamParser {
  const calls = new Map<string, { tool: string; input: unknown }>();
  const denials = new Map<string, StreamDenial>();
  let sessionId: string | undefined;
  let ended: HostStreamSummary["ended"];
  let stoppedByHook = false;
  let document = "";
  const read = (value: Json) => {
    if (value["type"] === "init" && typeof value["session_id"] === "string") sessionId = value["session_id"];
    if (value["type"] === "tool_use" && typeof value["tool_id"] === "string") {
      calls.set(value["tool_id"], { tool: String(value["tool_name"] ?? "unknown"), input: value["parameters"] ?? {} });
      if (calls.size > 10_000) calls.delete(calls.keys().next().value as string);
    }
    if (value["type"] === "tool_result" && value["status"] === "error" && typeof value["tool_id"] === "string") {
      const error = (value["error"] ?? {}) as Json;
      const message = typeof error["message"] === "string" ? error["message"] : "";
      if (error["type"] === "stop_execution") stoppedByHook = true;
      if (error["type"] === "policy_violation" && !message.startsWith(HOOK_BLOCKED)) {
        const call = calls.get(value["tool_id"]) ?? { tool: "unknown", input: {} };
        denials.set(value["tool_id"], { toolUseId: value["tool_id"], ...call, reason: message });
      }
    }
    if (value["type"] === "result") {
      const isError = value["status"] !== "success";
      ended = {
        isError,
        ...(stoppedByHook ? { reason: "hook_stopped" } : {}),
        stoppedByPermissionLayer: stoppedByHook,
      };
    }
  };
  return {
    push(line: string): void {
      if (line.startsWith("{") && line.endsWith("}")) {
        try {
          read(JSON.parse(line) as Json);
          return;
        } catch {
          // a line of a pretty-printed `-o json` document: kept below
        }
      }
      if (document.length + line.length < JSON_DOCUMENT_LIMIT) document += `${line}\n`;
    },
    summary(): HostStreamSummary {
      if (sessionId === undefined && document !== "") {
        const start = document.indexOf("{");
        try {
          const value = JSON.parse(document.slice(start)) as Json;
          if (typeof value["session_id"] === "string") sessionId = value["session_id"];
        } catch {
          // not a Gemini JSON document
        }
      }
      return {
        host: "gemini",
        ...(sessionId === undefined ? {} : { sessionId }),
        denials: [...denials.values()],
        ...(ended === undefined ? {} : { ended }),
      };
    },
  };
}

/** `gemini ... -o stream-json|json` (`--output-format`, `=` forms too; any path to the binary). */
export const geminiStreamDetector = {
  host: "gemini",
  detect(command: readonly string[]): boolean {
    const index = command.findIndex((argument) => /^gemini(\.js|\.cmd|\.exe)?$/.test(basename(argument)));
    if (index < 0) return false;
    const rest = command.slice(index + 1);
    return rest.some((argument, position) => {
      if (argument === "-o" || argument === "--output-format") return /^(stream-)?json$/.test(rest[position + 1] ?? "");
      return /^(--output-format|-o)=(stream-)?json$/.test(argument);
    });
  },
  create: createGeminiStreamParser,
};
