import type { HostDenialTable } from "../../detect/denial-text-rule.js";

/** Qwen Code 0.24 (`coreToolScheduler.ts`, `autoMode.ts`) texts. */
export const QWEN_DENIAL_TEXTS: HostDenialTable = {
  host: "qwen",
  aliases: ["qwen-code"],
  rules: [
    {
      source: "headless",
      pattern:
        /^Qwen Code requires permission to use [^\n]{1,200}, but that permission was declined \(non-interactive mode cannot prompt for confirmation\)\.?$/,
      note: "ask in a non-interactive run",
    },
    {
      source: "rule",
      pattern:
        /^Qwen Code requires permission to use [^\n]{1,200}, but that permission was declined\.(?: Matching deny rule: "(?<reason>[^"\n]*)"\.)?/,
      note: "tool disabled by permissions (exclude-tools, deny list)",
    },
    {
      source: "rule",
      pattern:
        /^This "[^"\n]+" invocation was denied by permission rules\.(?: Matching deny rule: "(?<reason>[^"\n]*)"\.)?/,
      note: "permissions.deny rule",
    },
    {
      source: "rule",
      pattern: /^Tool "[^"\n]+" is denied(?::| by permission rules)/,
      note: "L4 deny (command substitution, permission rules)",
    },
    { source: "hook", pattern: /^Permission denied by hook for "[^"\n]+"/, note: "PermissionRequest hook deny" },
    { source: "hook", pattern: /^Tool execution blocked by hook$/, note: "PreToolUse hook block without a reason" },
    {
      source: "classifier",
      pattern: /^Blocked by auto mode policy: (?<reason>[^\n]*)/,
      note: "auto-mode classifier verdict shouldBlock",
    },
    {
      source: "classifier",
      pattern:
        /^(?:Permission for this action has been denied\. Reason: (?<reason>[^\n]*)|Auto mode classifier unavailable)/,
      note: "auto-mode denial tracking texts",
    },
    { source: "user", pattern: /^User did not allow tool call$/, note: "cancelled at the interactive prompt" },
  ],
};
