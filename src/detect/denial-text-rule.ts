import type { DenialSource } from "../core/events.js";

/**
 * One row of a host's denial-text table: a pattern on the tool-result text (after `normalizeDenialText`) and the
 * denial source it means. The reason is the `reason` capture group when the pattern has one, else the whole text.
 */
export interface DenialTextRule {
  source: DenialSource;
  pattern: RegExp;
  /** only used when the caller names this host (the text is too generic to attribute otherwise) */
  requiresHost?: boolean;
  /** a human note on where the text comes from (kept in the table for maintainers) */
  note: string;
}

export type HostName = "claude-code" | "opencode" | "gemini" | "qwen" | "codex" | "agent-code";

export interface HostDenialTable {
  host: HostName;
  rules: readonly DenialTextRule[];
}
