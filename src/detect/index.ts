/**
 * `detect/`: pure recognisers. OS-denial classification, host denial-text recognition, secret redaction, input
 * summaries and tool families. No I/O, no clock, no zod.
 */
export { isPlaceholderValue } from "./context-secret-detectors.js";
export {
  createRedactor,
  type ExtraSecretPattern,
  type KeyedHash,
  type RedactionFindings,
  type RedactOptions,
  redactText,
  redactValue,
  redactWithFindings,
} from "./redact.js";
export { secretKindForName } from "./secret-key-names.js";
export { SUMMARY_MAX_LENGTH, summarizeInput, truncateCodePoints } from "./summarize-input.js";
export { TOOL_FAMILIES, type ToolFamily, toolFamily } from "./tool-families.js";
