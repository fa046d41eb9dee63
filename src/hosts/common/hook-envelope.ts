import { ToolgateError } from "../../core/errors.js";

/** What a command-hook host's event must carry, by event name; each host lists its own. */
export interface HookEnvelopeRules {
  /** the events toolgate handles for this host */
  readonly events: readonly string[];
  /** events about one tool call: `tool_name` must be a string */
  readonly toolEvents?: ReadonlySet<string>;
  /** events whose `tool_use_id` must be a string */
  readonly toolUseIdEvents?: ReadonlySet<string>;
  /** events about a subagent: `agent_id` must be a string */
  readonly agentEvents?: ReadonlySet<string>;
  /** events with a list of calls: `tool_calls` must be an array */
  readonly batchEvents?: ReadonlySet<string>;
  /** keys that may be absent but are strings when present */
  readonly optionalStrings?: readonly string[];
  /** the sentence after every complaint: how this command is meant to run (`toolgate hook <host>` expects ...) */
  readonly usage: string;
}

/**
 * Reads one hook event's JSON envelope the way every command-hook host needs it read: an object, an event toolgate
 * handles, a non-empty `session_id`, and the fields that event must carry. Returns the payload, unchanged; throws
 * INPUT_INVALID with one sentence saying what is wrong (the hook answers it with the host's fail-closed answer).
 */
export function readHookEnvelope(text: string, rules: HookEnvelopeRules): Record<string, unknown> {
  const invalid = (message: string) =>
    new ToolgateError({ code: "INPUT_INVALID", message: `${message} ${rules.usage}` });
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
  const event = payload["hook_event_name"];
  if (typeof event !== "string" || !rules.events.includes(event)) {
    throw invalid(`The hook event ${JSON.stringify(event)} is not one toolgate handles.`);
  }
  const string = (key: string) => typeof payload[key] === "string";
  if (!string("session_id") || payload["session_id"] === "") throw invalid(`The ${event} event has no session_id.`);
  if (rules.toolEvents?.has(event) === true && !string("tool_name")) {
    throw invalid(`The ${event} event has no tool_name.`);
  }
  if (rules.toolUseIdEvents?.has(event) === true && !string("tool_use_id")) {
    throw invalid(`The ${event} event has no tool_use_id.`);
  }
  if (rules.agentEvents?.has(event) === true && !string("agent_id")) {
    throw invalid(`The ${event} event has no agent_id.`);
  }
  if (rules.batchEvents?.has(event) === true && !Array.isArray(payload["tool_calls"])) {
    throw invalid(`The ${event} event has no tool_calls list.`);
  }
  for (const key of rules.optionalStrings ?? []) {
    if (payload[key] !== undefined && !string(key)) throw invalid(`${key} must be a string.`);
  }
  return payload;
}
