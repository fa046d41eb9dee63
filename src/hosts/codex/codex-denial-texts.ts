import type { HostDenialTable } from "../../detect/denial-text-rule.js";

/**
 * Codex CLI texts (0.169.0, checked again on 0.171.0). Rejections arrive as Rust debug output
 * (`exec_command failed: CreateProcess { message: "Rejected(\"...\")" }`); `normalizeDenialText` unwraps them first.
 *
 * Beside these texts, a Codex command refused by its sandbox fails with the OS's own words: the OS-denial keyword
 * lists (`src/detect/os-denial-patterns.ts`) cover Codex's `is_likely_sandbox_denied`, and Codex's Linux sandbox
 * uses seccomp for the network, so a SIGSYS kill inside it reads as `sandbox-network` (`classify-os-denial.ts`).
 */
export const CODEX_DENIAL_TEXTS: HostDenialTable = {
  host: "codex",
  rules: [
    {
      source: "user",
      pattern: /^(?:exec command |patch )?rejected by user$/,
      note: "the user declined the approval prompt (a shell command's or, as `patch ...`, an apply_patch's; 0.40 on)",
    },
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
      // `guardian_rejection_message`: the rationale, then instructions. 0.169.0 always appends the built-in ones ("The
      // agent must not attempt to achieve the same outcome via workaround, ..."); 0.171.0 appends the model's own
      // `auto_review.rejection_instructions` where its catalog entry has them, reworded ("Do not bypass this
      // rejection through a workaround or indirect execution. Continue with any materially safer alternative ...").
      // In a tool result it is Rust debug output, where the line breaks stay escaped (`\n`) after unwrapping.
      source: "classifier",
      pattern:
        /^This action was rejected due to unacceptable risk\.(?:\n|\\n)Reason: (?<reason>[\s\S]*?)(?:(?:\n|\\n)(?:The agent must not attempt|Do not bypass this rejection)[\s\S]*)?$/,
      note: "auto-review (Guardian) rejected the approval request",
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
