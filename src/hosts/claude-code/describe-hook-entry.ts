import { defaultHookCommand } from "./install-claude-code.js";
import { HOOK_TIMEOUT_SECONDS, TOOLGATE_HOOK_EVENTS } from "./settings-hooks.js";

/** The hook entry `toolgate install claude-code` writes, for this toolgate and this node (`toolgate hook --help`). */
export function describeHookEntry(): string {
  const entry = { type: "command", command: defaultHookCommand(), timeout: HOOK_TIMEOUT_SECONDS };
  const events = TOOLGATE_HOOK_EVENTS.map(({ event }) => event).join(", ");
  return `You do not run this yourself: \`toolgate install claude-code\` adds it to .claude/settings.json for
${events}.
For this toolgate and this node, each hook entry it writes is (tool events also get "matcher": "*"):
  ${JSON.stringify(entry)}`;
}
