import type { HostDenialTable } from "../../detect/denial-text-rule.js";

/**
 * Kilo CLI 7.7.7 (`@kilocode/cli`), a fork of opencode: its permission errors are opencode's, word for word (read
 * from the shipped binary), and `kilo run` prints the same stderr line for an ask nobody can answer.
 */
export const KILO_DENIAL_TEXTS: HostDenialTable = {
  host: "kilo",
  rules: [
    {
      source: "user",
      pattern:
        /^The user rejected permission to use this specific tool call with the following feedback: (?<reason>[\s\S]*)$/,
      requiresHost: true,
      note: "CorrectedError: rejected with feedback (opencode's text)",
    },
    {
      source: "user",
      pattern: /^The user rejected permission to use this specific tool call\.$/,
      requiresHost: true,
      note: "RejectedError: rejected at the prompt, or auto-rejected by `kilo run` (opencode's text)",
    },
    {
      source: "rule",
      pattern: /^The user has specified a rule which prevents you from using this specific tool call\./,
      requiresHost: true,
      note: "DeniedError: a deny rule in kilo.json `permission` (opencode's text)",
    },
    {
      source: "headless",
      pattern: /^! permission requested: (?<reason>[^\n]*?); auto-rejecting$/m,
      requiresHost: true,
      note: "`kilo run` stderr line for an ask nobody can answer (opencode's text)",
    },
  ],
};
