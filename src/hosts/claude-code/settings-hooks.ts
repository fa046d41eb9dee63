import { commandHookSettings, groupsOf, hooksOf } from "../common/matcher-group-hooks.js";

/**
 * Adds toolgate's command hooks to a Claude Code settings object, and removes exactly those again. Pure: the
 * install command reads and writes the file.
 */

/** The events toolgate listens to, and whether the entry takes a tool matcher. */
export const TOOLGATE_HOOK_EVENTS: readonly { event: string; toolMatcher: boolean }[] = [
  { event: "PreToolUse", toolMatcher: true },
  { event: "PermissionRequest", toolMatcher: true },
  { event: "PostToolUse", toolMatcher: true },
  { event: "PostToolUseFailure", toolMatcher: true },
  { event: "PermissionDenied", toolMatcher: true },
  // Claude Code 2.1.331+ (older versions ignore the key): a skill's inline shell command
  { event: "PreSkillShellCommand", toolMatcher: true },
  { event: "UserPromptSubmit", toolMatcher: false },
  { event: "Stop", toolMatcher: false },
  { event: "SubagentStart", toolMatcher: false },
  { event: "SubagentStop", toolMatcher: false },
  { event: "SessionEnd", toolMatcher: false },
];

/** Seconds Claude Code waits for the hook; a hook that times out never allows a call. */
export const HOOK_TIMEOUT_SECONDS = 30;

type Settings = Record<string, unknown>;

const hooks = commandHookSettings({
  host: "claude-code",
  events: TOOLGATE_HOOK_EVENTS,
  entry: (command) => ({ type: "command", command, timeout: HOOK_TIMEOUT_SECONDS }),
});

/** A command is toolgate's Claude Code hook when it ends in `hook claude-code` (whatever path runs toolgate). */
export const isToolgateHookCommand = hooks.isToolgate;

/** Removes every toolgate Claude Code hook, and containers that only held toolgate's entries. */
export const removeToolgateHooks = hooks.remove;

/** Adds one toolgate entry per event, keeping every other hook as it was (idempotent). */
export const addToolgateHooks = hooks.add;

/** The distinct toolgate hook commands in the settings, whatever event they are under. */
export function toolgateHookCommands(settings: Settings): string[] {
  const hooks = hooksOf(settings);
  const commands = new Set<string>();
  for (const event of Object.keys(hooks)) {
    for (const group of groupsOf(hooks, event)) {
      for (const entry of Array.isArray(group.hooks) ? group.hooks : []) {
        if (isToolgateHookCommand(entry.command)) commands.add(entry.command as string);
      }
    }
  }
  return [...commands];
}

/** Whether toolgate's hooks are installed for every event. */
export function hasToolgateHooks(settings: Settings): boolean {
  const hooks = hooksOf(settings);
  return TOOLGATE_HOOK_EVENTS.every(({ event }) =>
    groupsOf(hooks, event).some((group) => (group.hooks ?? []).some((entry) => isToolgateHookCommand(entry.command))),
  );
}
