/**
 * An outside decider for AI SDK tool calls, in the shape of an OPA decision document (as `@ai-sdk/policy-opa`
 * normalises them for ai 7's `toolApproval`): `allow`, `deny`, `requires-approval` or `not-applicable`, with an
 * optional reason. toolgate does not replace it: it counts its denials, escalates on them, and turns its
 * `requires-approval` into the SDK's approval request.
 */
export type DeciderDecision =
  | { decision: "allow"; reason?: string }
  | { decision: "deny"; reason?: string }
  | { decision: "requires-approval"; reason?: string }
  | { decision: "not-applicable" };

export interface DeciderRequest {
  toolName: string;
  input: unknown;
  toolCallId: string;
  /** the model messages the SDK handed the tool (history before this call) */
  messages: readonly unknown[];
  /** aborted when toolgate stops waiting (`deciderTimeoutMs`): pass it on to `fetch` and the like */
  signal: AbortSignal;
}

export type Decider = (request: DeciderRequest) => DeciderDecision | Promise<DeciderDecision>;

const VERDICTS: ReadonlySet<unknown> = new Set(["allow", "deny", "requires-approval", "not-applicable"]);

/**
 * The decider's answer as a verdict toolgate knows, or an error that says what came back: an unknown verdict
 * (`{ decision: "DENY" }`, `undefined`, a string) is an error, and the caller turns an error into a deny.
 */
export function readDeciderDecision(answer: unknown): DeciderDecision {
  const decision =
    typeof answer === "object" && answer !== null ? (answer as { decision?: unknown }).decision : undefined;
  if (!VERDICTS.has(decision)) {
    throw new Error(
      `the decider answered ${shown(answer)}, which is not a verdict toolgate knows (expected { decision: "allow" | "deny" | "requires-approval" | "not-applicable" }), so the call is denied`,
    );
  }
  const reason = (answer as { reason?: unknown }).reason;
  if (decision === "not-applicable") return { decision };
  return typeof reason === "string"
    ? { decision: decision as "allow" | "deny" | "requires-approval", reason }
    : { decision: decision as "allow" | "deny" | "requires-approval" };
}

function shown(answer: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(answer);
  } catch {
    text = undefined;
  }
  text ??= String(typeof answer === "symbol" ? answer.description : answer);
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}
