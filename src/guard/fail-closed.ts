import type { Decision } from "../core/decision.js";
import { errorText } from "./error-text.js";

/**
 * The one place an internal error becomes a decision: always a deny (house invariant 2), recorded with the denial
 * source `internal` (never as a rule), with one sentence that says what happened and where to look. Adapters render
 * `failClosedText` in their host's shape; callers also report the error through the guard's `onError`.
 */
export function failClosed(error: unknown, where: string): Decision & { denialSource: "internal" } {
  return { behavior: "deny", source: "toolgate", reason: failClosedText(error, where), denialSource: "internal" };
}

/**
 * The sentence the model and the person read when toolgate refused a call because it could not check it. The error's
 * message is redacted: it may quote a token (a decider's `OPA unreachable (token ...)`, a store's connection string).
 */
export function failClosedText(error: unknown, where?: string): string {
  const message = errorText(error);
  const detail = where === undefined ? message : `${where}: ${message}`;
  return `toolgate could not check this call and blocked it to be safe (${detail}). Fix the cause named here, or see toolgate's log on stderr.`;
}
