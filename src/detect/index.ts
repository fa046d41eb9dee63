/**
 * `toolgate/detect`: pure recognisers. OS-denial classification, host denial-text recognition, secret redaction,
 * input summaries and tool families. No I/O, no clock, no zod; safe to use anywhere.
 */

export { TOOL_FAMILIES, type ToolFamily, toolFamily } from "../core/tool-families.js";
export { AGENT_CODE_DENIAL_TEXTS } from "./agent-code-denial-texts.js";
export { checkPatternSafety, type PatternSafety } from "./check-pattern-safety.js";
export { classifyOsDenial, type OsDenialClassification, type OsDenialInput } from "./classify-os-denial.js";
export {
  compileRedactionPatterns,
  REDACTION_KIND,
  type RedactionPatternOption,
} from "./compile-redaction-patterns.js";
export { isPlaceholderValue } from "./context-secret-detectors.js";
export type { DenialTextRule, HostDenialTable, HostName } from "./denial-text-rule.js";
export { normalizeDenialText } from "./normalize-denial-text.js";
export {
  type RecognizeDenialInput,
  type RecognizedDenial,
  recognizeDenial,
} from "./recognize-denial.js";
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
export { type DocumentFormat, detectDocumentFormat, type RedactedDocument, redactDocument } from "./redact-document.js";
export { secretKindForName } from "./secret-key-names.js";
export { SUMMARY_MAX_LENGTH, summarizeInput, truncateCodePoints } from "./summarize-input.js";
