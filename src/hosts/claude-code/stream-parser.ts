import { basename } from "node:path";
import type { StreamDenial } from "../common/host-stream.js";

/**
 * Reads Claude Code's `--output-format stream-json` and keeps every denied call once, keyed by tool_use_id, from
 * the three places 2.1.330 reports them: `system/permission_denied` events (live, incomplete),
 * `tool_result_meta[].permission_decision.decision === "reject"` on tool results (every path), and
 * `result.permission_denials` (authoritative, but without calls to a tool a bare deny removed, which are caught
 * from the tool_result text).
 */
type Json = Record<string, unknown>;

export interface ClaudeCodeStreamSummary {
  host: string;
  sessionId?: string;
  denials: StreamDenial[];
  ended?: { isError: boolean; reason?: string; stoppedByPermissionLayer: boolean };
}

export interface ClaudeCodeStreamParser {
  push(line: string): void;
  summary(): ClaudeCodeStreamSummary;
}

const STOPPED_BY_PERMISSION_LAYER = new Set(["hook_stopped", "aborted_tools", "stop_hook_prevented"]);
const NO_SUCH_TOOL = /No such tool available: ([\w.-]+)/;

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((block: Json) => (typeof block.text === "string" ? block.text : "")).join("");
}

export function createClaudeCodeStreamParser(): ClaudeCodeStreamParser {
  const uses = new Map<string, { tool: string; input: unknown; agentId?: string }>();
  const denials = new Map<string, StreamDenial>();
  let sessionId: string | undefined;
  let ended: ClaudeCodeStreamSummary["ended"];

  function add(denial: StreamDenial): void {
    const known = denials.get(denial.toolUseId);
    if (known === undefined) {
      denials.set(denial.toolUseId, denial);
      return;
    }
    if (known.reason === undefined && denial.reason !== undefined) known.reason = denial.reason;
    if (known.tool === "unknown") known.tool = denial.tool;
  }

  function fromUse(toolUseId: string, fallbackTool: string): Pick<StreamDenial, "tool" | "input" | "agentId"> {
    const use = uses.get(toolUseId);
    const base = { tool: use?.tool ?? fallbackTool, input: use?.input ?? {} };
    return use?.agentId === undefined ? base : { ...base, agentId: use.agentId };
  }

  function onMessage(message: Json): void {
    const type = message.type;
    if (typeof message.session_id === "string" && sessionId === undefined) sessionId = message.session_id;
    const inner = (message.message ?? {}) as Json;
    const content = Array.isArray(inner.content) ? (inner.content as Json[]) : [];
    if (type === "assistant") {
      for (const block of content) {
        if (block.type !== "tool_use" || typeof block.id !== "string") continue;
        const parent = message.parent_tool_use_id;
        uses.set(block.id, {
          tool: String(block.name),
          input: block.input,
          ...(typeof parent === "string" ? { agentId: `task:${parent}` } : {}),
        });
      }
    } else if (type === "system" && message.subtype === "permission_denied") {
      const toolUseId = String(message.tool_use_id);
      const denial: StreamDenial = { toolUseId, ...fromUse(toolUseId, String(message.tool_name)) };
      if (typeof message.message === "string") denial.reason = message.message;
      if (typeof message.agent_id === "string") denial.agentId = message.agent_id;
      add(denial);
    } else if (type === "user") {
      const rejected = new Set<string>();
      for (const meta of Array.isArray(message.tool_result_meta) ? (message.tool_result_meta as Json[]) : []) {
        const decision = (meta.permission_decision ?? {}) as Json;
        if (decision.decision === "reject" && typeof meta.id === "string") rejected.add(meta.id);
      }
      for (const block of content) {
        if (block.type !== "tool_result" || typeof block.tool_use_id !== "string") continue;
        const text = textOf(block.content);
        const removed = NO_SUCH_TOOL.exec(text)?.[1];
        if (!rejected.has(block.tool_use_id) && removed === undefined) continue;
        add({ toolUseId: block.tool_use_id, ...fromUse(block.tool_use_id, removed ?? "unknown"), reason: text });
      }
    } else if (type === "result") {
      for (const entry of Array.isArray(message.permission_denials) ? (message.permission_denials as Json[]) : []) {
        const toolUseId = String(entry.tool_use_id);
        add({ toolUseId, ...fromUse(toolUseId, String(entry.tool_name)), input: entry.tool_input ?? {} });
      }
      const reason = typeof message.terminal_reason === "string" ? message.terminal_reason : undefined;
      ended = {
        isError: message.is_error === true || message.subtype !== "success",
        ...(reason === undefined ? {} : { reason }),
        stoppedByPermissionLayer: reason !== undefined && STOPPED_BY_PERMISSION_LAYER.has(reason),
      };
    }
  }

  return {
    push(line) {
      const trimmed = line.trim();
      if (!trimmed.startsWith("{")) return;
      try {
        onMessage(JSON.parse(trimmed) as Json);
      } catch {
        // not a stream-json line
      }
    },
    summary() {
      return {
        host: "claude-code",
        ...(sessionId === undefined ? {} : { sessionId }),
        denials: [...denials.values()],
        ...(ended === undefined ? {} : { ended }),
      };
    },
  };
}

/** `claude ... --output-format stream-json` (any path to the binary, or the SDK's platform binary). */
export const claudeCodeStreamDetector = {
  host: "claude-code",
  detect(command: readonly string[]): boolean {
    const program = basename(command[0] ?? "");
    const isClaude = program === "claude" || program === "claude.exe";
    const format = command.indexOf("--output-format");
    const streams =
      (format >= 0 && command[format + 1] === "stream-json") || command.includes("--output-format=stream-json");
    return isClaude && streams;
  },
  create: createClaudeCodeStreamParser,
};
