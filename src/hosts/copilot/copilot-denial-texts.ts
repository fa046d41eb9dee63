import type { HostDenialTable } from "../../detect/denial-text-rule.js";

/**
 * What GitHub Copilot CLI 1.0.102 gives the model for a refused call (the tool result, and `error.message` of
 * `tool.execution_complete` in events.jsonl and the `--output-format json` stream), as measured offline.
 */
export const COPILOT_DENIAL_TEXTS: HostDenialTable = {
  host: "copilot",
  aliases: ["copilot-cli", "github-copilot"],
  rules: [
    {
      source: "rule",
      pattern: /^Permission to run this tool was denied due to the following rules: (?<reason>[^\n]{1,300})/,
      note: "--deny-tool rule (error.code denied)",
    },
    {
      source: "headless",
      pattern: /^Permission denied and could not request permission from user/,
      note: "a call that needs approval in -p (nobody to ask)",
    },
    {
      source: "headless",
      pattern: /^Denied by preToolUse hook \(unable to ask user for confirmation\)(?:: (?<reason>[^\n]*))?/,
      note: "a preToolUse ask in -p",
    },
    {
      source: "user",
      pattern: /^Denied by user via preToolUse hook prompt(?:: (?<reason>[^\n]*))?/,
      note: "a preToolUse ask the person refused at Copilot's prompt (interactive)",
    },
    {
      source: "hook",
      pattern: /^Denied by preToolUse hook(?: from "[^"\n]*")?(?:: (?<reason>[^\n]*)| \(hook errored\))/,
      note: "preToolUse deny, or a preToolUse hook that failed (Copilot refuses the call)",
    },
    {
      source: "hook",
      pattern: /^Permission denied by a PermissionRequest hook(?:: (?<reason>[^\n]*))?/,
      note: "permissionRequest behavior deny (error.code rejected)",
    },
  ],
};

/** The source and rule of a Copilot refusal text (`hook` when no row knows it: some hook or layer refused it). */
export function classifyCopilotDenial(text: string): { source: "rule" | "headless" | "hook" | "user"; rule?: string } {
  for (const row of COPILOT_DENIAL_TEXTS.rules) {
    const match = row.pattern.exec(text);
    if (match === null) continue;
    const source = row.source as "rule" | "headless" | "hook" | "user";
    const reason = match.groups?.["reason"];
    return source === "rule" && reason !== undefined ? { source, rule: reason.replace(/`/g, "").trim() } : { source };
  }
  return { source: "hook" };
}
