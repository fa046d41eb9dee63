import { redactText } from "../detect/redact.js";

/**
 * An error's message as toolgate may show, log or store it: redacted (house invariant 3), so a token in a failing
 * store's, decider's or tool's message never reaches stderr, a record or the model. Never throws.
 */
export function errorText(error: unknown): string {
  let message: string;
  try {
    message = error instanceof Error ? error.message : String(error);
  } catch {
    message = "an error that cannot be shown as text";
  }
  return redactText(message);
}
