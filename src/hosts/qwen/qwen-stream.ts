import { basename } from "node:path";
import type { HostStreamDetector, HostStreamParser, HostStreamSummary, StreamDenial } from "../common/host-stream.js";
import { classifyQwenDenial } from "./qwen-transcript.js";

/**
 * Reads `qwen -p ... --output-format stream-json` (0.24.4) for `toolgate run`: `session_id` on every line; the
 * closing `result` line carries `permission_denials` (`tool_name`, `tool_use_id`, `tool_input`: every call Qwen's
 * rules, its headless decline or a hook refused) and `is_error`/`subtype`; `user` lines carry the `tool_result`
 * texts (the reason for each denial). A run killed before its `result` line still shows its denials through the
 * refusal texts Qwen writes (`is_error` results whose text is one of Qwen's denial texts).
 */
type Json = Record<string, unknown>;

function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((block: { text?: unknown }) => (typeof block.text === "string" ? block.text : "")).join("");
}

export function createQwenStreamParser(): HostStreamParser {
  const calls = new Map<string, { tool: string; input: unknown }>();
  const reasons = new Map<string, string>();
  const denials = new Map<string, StreamDenial>();
  let sessionId: string | undefined;
  let ended: HostStreamSummary["ended"];
  const blocksOf = (value: Json): Json[] => {
    const content = ((value["message"] ?? {}) as Json)["content"];
    return Array.isArray(content) ? (content as Json[]) : [];
  };
  return {
    push(line: string): void {
      if (!line.startsWith("{")) return;
      let value: Json;
      try {
        value = JSON.parse(line) as Json;
      } catch {
        return;
      }
      if (sessionId === undefined && typeof value["session_id"] === "string") sessionId = value["session_id"];
      if (value["type"] === "assistant") {
        for (const block of blocksOf(value)) {
          if (block["type"] === "tool_use" && typeof block["id"] === "string") {
            calls.set(block["id"], { tool: String(block["name"]), input: block["input"] ?? {} });
          }
        }
      } else if (value["type"] === "user") {
        for (const block of blocksOf(value)) {
          if (block["type"] !== "tool_result" || typeof block["tool_use_id"] !== "string") continue;
          const text = contentText(block["content"]);
          reasons.set(block["tool_use_id"], text);
          const call = calls.get(block["tool_use_id"]);
          // a refusal text Qwen writes itself (rule, headless decline, classifier); a hook's reason is toolgate's
          if (block["is_error"] === true && call !== undefined && classifyQwenDenial(text).source !== "hook") {
            denials.set(block["tool_use_id"], { toolUseId: block["tool_use_id"], ...call, reason: text });
          }
        }
      } else if (value["type"] === "result") {
        const listed = Array.isArray(value["permission_denials"]) ? (value["permission_denials"] as Json[]) : [];
        for (const denial of listed) {
          if (typeof denial["tool_use_id"] !== "string") continue;
          const id = denial["tool_use_id"];
          const reason = reasons.get(id);
          denials.set(id, {
            toolUseId: id,
            tool: typeof denial["tool_name"] === "string" ? denial["tool_name"] : "unknown",
            input: denial["tool_input"] ?? {},
            ...(reason === undefined ? {} : { reason }),
          });
        }
        const subtype = typeof value["subtype"] === "string" ? value["subtype"] : undefined;
        ended = {
          isError: value["is_error"] === true,
          ...(subtype === undefined ? {} : { reason: subtype }),
          stoppedByPermissionLayer: false,
        };
      }
    },
    summary(): HostStreamSummary {
      return {
        host: "qwen",
        ...(sessionId === undefined ? {} : { sessionId }),
        denials: [...denials.values()],
        ...(ended === undefined ? {} : { ended }),
      };
    },
  };
}

function outputFormat(args: readonly string[]): string | undefined {
  for (let index = 0; index < args.length; index += 1) {
    const argument = args[index] as string;
    if (argument === "--output-format" || argument === "-o") return args[index + 1];
    if (argument.startsWith("--output-format=")) return argument.slice("--output-format=".length);
  }
  return undefined;
}

/** `qwen ... --output-format stream-json` (any path to the binary, or `npx qwen`). */
export const qwenStreamDetector: HostStreamDetector = {
  host: "qwen",
  detect(command: readonly string[]): boolean {
    const index = command.findIndex((argument) => /^qwen(\.exe|\.cmd)?$/.test(basename(argument)));
    return index >= 0 && outputFormat(command.slice(index + 1)) === "stream-json";
  },
  create: createQwenStreamParser,
};
