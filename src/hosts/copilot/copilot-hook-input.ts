import { ToolgateError } from "../../core/errors.js";

/**
 * The JSON GitHub Copilot CLI 1.0.102 writes to a command hook's stdin (recorded payloads: test/fixtures/copilot/).
 * Unlike the Claude-style hosts, the payload does not name its event (only `permissionRequest` carries `hookName`)
 * and carries no call id: toolgate's installer writes the event on the command line (`toolgate hook copilot
 * preToolUse`), and the call id is the one Copilot gives the call in its session's `events.jsonl`.
 */
export interface CopilotHookBase {
  sessionId: string;
  timestamp?: number;
  cwd?: string;
}

export interface CopilotToolEvent extends CopilotHookBase {
  toolName: string;
  /** the model's arguments (`permissionRequest` has `toolInput` instead, read into this field) */
  toolArgs: unknown;
}

export type CopilotHookInput =
  | (CopilotToolEvent & { event: "preToolUse" })
  | (CopilotToolEvent & { event: "permissionRequest"; permissionSuggestions?: unknown })
  | (CopilotToolEvent & {
      event: "postToolUse";
      /** `{ resultType: "success", textResultForLlm }` on 1.0.102 (a command that exits non-zero is a success) */
      toolResult?: { resultType?: unknown; textResultForLlm?: unknown };
    })
  | (CopilotToolEvent & { event: "postToolUseFailure"; error?: unknown })
  | (CopilotHookBase & { event: "userPromptSubmitted"; prompt?: unknown })
  | (CopilotHookBase & { event: "sessionStart"; source?: unknown })
  | (CopilotHookBase & { event: "agentStop"; transcriptPath?: unknown; stopReason?: unknown })
  | (CopilotHookBase & { event: "subagentStop"; transcriptPath?: unknown })
  | (CopilotHookBase & { event: "sessionEnd"; reason?: unknown })
  | (CopilotHookBase & { event: "notification" | "errorOccurred" });

export type CopilotHookEventName = CopilotHookInput["event"];

/** Every event toolgate's installer hooks (`copilot-hooks-file.ts`) and the handler answers. */
export const COPILOT_HOOK_EVENTS: readonly CopilotHookEventName[] = [
  "sessionStart",
  "userPromptSubmitted",
  "preToolUse",
  "permissionRequest",
  "postToolUse",
  "postToolUseFailure",
  "agentStop",
  "subagentStop",
  "errorOccurred",
  "sessionEnd",
];

/** The events that gate a call: a payload toolgate cannot read there is refused. */
export const COPILOT_GATING_EVENTS: readonly string[] = ["preToolUse", "permissionRequest"];

const TOOL_EVENTS = new Set(["preToolUse", "permissionRequest", "postToolUse", "postToolUseFailure"]);
const USAGE =
  "`toolgate hook copilot <event>` expects one GitHub Copilot CLI hook event as JSON on stdin, the event named on the command line (as `toolgate install copilot` writes it).";

/** Parses and checks one hook payload. Throws INPUT_INVALID with a sentence saying what is wrong. */
export function parseCopilotHookInput(text: string, options: { eventName?: string } = {}): CopilotHookInput {
  const invalid = (message: string) => new ToolgateError({ code: "INPUT_INVALID", message: `${message} ${USAGE}` });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid("The hook input on stdin is not JSON.");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw invalid("The hook input on stdin is not a JSON object.");
  }
  const payload = value as Record<string, unknown>;
  const event = options.eventName ?? payload["hookName"];
  if (typeof event !== "string" || !COPILOT_HOOK_EVENTS.includes(event as CopilotHookEventName)) {
    throw invalid(`The hook event ${JSON.stringify(event)} is not one toolgate handles.`);
  }
  if (typeof payload["sessionId"] !== "string" || payload["sessionId"] === "") {
    throw invalid(`The ${event} event has no sessionId.`);
  }
  if (TOOL_EVENTS.has(event)) {
    if (typeof payload["toolName"] !== "string" || payload["toolName"] === "") {
      throw invalid(`The ${event} event has no toolName.`);
    }
    const args = event === "permissionRequest" ? payload["toolInput"] : payload["toolArgs"];
    if (args !== undefined && (typeof args !== "object" || args === null || Array.isArray(args))) {
      throw invalid(`The ${event} event's tool arguments are not an object.`);
    }
    return { ...payload, event, toolArgs: args ?? {} } as unknown as CopilotHookInput;
  }
  return { ...payload, event } as unknown as CopilotHookInput;
}
