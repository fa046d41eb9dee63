import type { HostDenialTable } from "../../detect/denial-text-rule.js";

/**
 * Codex CLI 0.169 texts. Rejections arrive as Rust debug output
 * (`exec_command failed: CreateProcess { message: "Rejected(\"...\")" }`); `normalizeDenialText` unwraps them first.
 *
 * Beside these texts, a Codex command refused by its sandbox fails with the OS's own words: the OS-denial keyword
 * lists (`src/detect/os-denial-patterns.ts`) cover Codex's `is_likely_sandbox_denied`, and Codex's Linux sandbox
 * uses seccomp for the network, so a SIGSYS kill inside it reads as `sandbox-network` (`classify-os-denial.ts`).
 */
export const CODEX_DENIAL_TEXTS: HostDenialTable = {
  host: "codex",
  rules: [
    { source: "user", pattern: /^rejected by user$/, note: "the user declined the approval prompt" },
    {
      source: "headless",
      pattern: /^approval required by policy, but AskForApproval is set to Never$/,
      note: "a `prompt` rule under approval policy never (codex exec)",
    },
    {
      source: "rule",
      pattern: /^`[^`\n]{1,4000}` rejected: (?<reason>[\s\S]+)$/,
      note: "a `forbidden` exec-policy rule (its justification) or a built-in refusal",
    },
    {
      source: "sandbox",
      pattern: /^command failed; retry without sandbox\?$/,
      note: "sandbox denial escalation reason",
    },
    {
      source: "sandbox",
      pattern: /^Network access to "[^"\n]+" is blocked by policy\.$/,
      note: "managed network policy",
    },
    {
      source: "hook",
      pattern: /^Command blocked by PreToolUse hook: (?<reason>[\s\S]*?)(?:\. Command: [\s\S]*)?$/,
      note: "PreToolUse hook deny",
    },
  ],
};
