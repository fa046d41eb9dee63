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
}

export type Decider = (request: DeciderRequest) => DeciderDecision | Promise<DeciderDecision>;
