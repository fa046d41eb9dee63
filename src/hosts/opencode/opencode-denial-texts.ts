import type { HostDenialTable } from "../../detect/denial-text-rule.js";

/**
 * opencode 1.18.x (`permission/next.ts` errors, `opencode run` stderr). `opencode run` auto-rejects asks with the
 * same Rejected text a person produces; pass `metadata.interactive: false` (or recognise the stderr line) to get
 * `headless`.
 * The plugin reads the same texts in more detail (the deny rule, a person's feedback) in `opencode-denial-text.ts`.
 */
export const OPENCODE_DENIAL_TEXTS: HostDenialTable = {
  host: "opencode",
  // Kilo CLI (7.7.7) is a fork of opencode and shows these same texts, word for word (read from its binary)
  aliases: ["kilo"],
  rules: [
    {
      source: "user",
      pattern:
        /^The user rejected permission to use this specific tool call with the following feedback: (?<reason>[\s\S]*)$/,
      note: "CorrectedError: rejected with feedback",
    },
    {
      source: "user",
      pattern: /^The user rejected permission to use this specific tool call\.$/,
      note: "RejectedError: rejected at the prompt (or auto-rejected by `opencode run`)",
    },
    {
      source: "rule",
      pattern: /^The user has specified a rule which prevents you from using this specific tool call\./,
      note: "DeniedError: a deny rule in the permission config",
    },
    {
      source: "headless",
      pattern: /^! permission requested: (?<reason>[^\n]*?); auto-rejecting$/m,
      note: "`opencode run` stderr line for an ask nobody can answer",
    },
    {
      source: "rule",
      pattern: /^The arguments provided to the tool are invalid: Model tried to call unavailable tool '[^']+'/,
      note: "a tool denied as a whole is removed from the tool list",
    },
  ],
};
