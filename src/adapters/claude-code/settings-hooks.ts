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
  { event: "UserPromptSubmit", toolMatcher: false },
  { event: "Stop", toolMatcher: false },
  { event: "SubagentStart", toolMatcher: false },
  { event: "SubagentStop", toolMatcher: false },
  { event: "SessionEnd", toolMatcher: false },
];

/** Seconds Claude Code waits for the hook; a hook that times out never allows a call. */
export const HOOK_TIMEOUT_SECONDS = 30;

interface HookEntry {
  type?: string;
  command?: string;
  timeout?: number;
  [key: string]: unknown;
}

interface MatcherGroup {
  matcher?: string;
  hooks?: HookEntry[];
  [key: string]: unknown;
}

type Settings = Record<string, unknown>;

/** A command is toolgate's Claude Code hook when it ends in `hook claude-code` (whatever path runs toolgate). */
export function isToolgateHookCommand(command: unknown): boolean {
  return typeof command === "string" && /(^|[\s"'/])hook\s+claude-code\s*$/.test(command.trim());
}

function groupsOf(hooks: Record<string, unknown>, event: string): MatcherGroup[] {
  const groups = hooks[event];
  return Array.isArray(groups) ? (groups as MatcherGroup[]) : [];
}

function withoutToolgate(groups: MatcherGroup[]): MatcherGroup[] {
  const kept: MatcherGroup[] = [];
  for (const group of groups) {
    if (!Array.isArray(group.hooks)) {
      kept.push(group);
      continue;
    }
    const hooks = group.hooks.filter((entry) => !isToolgateHookCommand(entry.command));
    if (hooks.length === group.hooks.length) kept.push(group);
    else if (hooks.length > 0) kept.push({ ...group, hooks });
  }
  return kept;
}

/** Removes every toolgate Claude Code hook, and containers that only held toolgate's entries. */
export function removeToolgateHooks(settings: Settings): Settings {
  if (typeof settings.hooks !== "object" || settings.hooks === null) return settings;
  const hooks: Record<string, unknown> = { ...(settings.hooks as Record<string, unknown>) };
  let changed = false;
  for (const event of Object.keys(hooks)) {
    if (!Array.isArray(hooks[event])) continue;
    const groups = groupsOf(hooks, event);
    const kept = withoutToolgate(groups);
    if (JSON.stringify(kept) === JSON.stringify(groups)) continue;
    changed = true;
    if (kept.length === 0) delete hooks[event];
    else hooks[event] = kept;
  }
  if (!changed) return settings;
  const next: Settings = { ...settings };
  if (Object.keys(hooks).length === 0) delete next.hooks;
  else next.hooks = hooks;
  return next;
}

/**
 * Adds one toolgate entry per event (replacing an older toolgate entry, e.g. with another path), keeping every
 * other hook as it was. Installing twice gives the same settings.
 */
export function addToolgateHooks(settings: Settings, command: string): Settings {
  const cleaned = removeToolgateHooks(settings);
  const hooks: Record<string, unknown> = { ...((cleaned.hooks as Record<string, unknown> | undefined) ?? {}) };
  for (const { event, toolMatcher } of TOOLGATE_HOOK_EVENTS) {
    const entry: MatcherGroup = {
      ...(toolMatcher ? { matcher: "*" } : {}),
      hooks: [{ type: "command", command, timeout: HOOK_TIMEOUT_SECONDS }],
    };
    hooks[event] = [...groupsOf(hooks, event), entry];
  }
  return { ...cleaned, hooks };
}

/** The distinct toolgate hook commands in the settings, whatever event they are under. */
export function toolgateHookCommands(settings: Settings): string[] {
  const hooks = (settings.hooks as Record<string, unknown> | undefined) ?? {};
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
  const hooks = (settings.hooks as Record<string, unknown> | undefined) ?? {};
  return TOOLGATE_HOOK_EVENTS.every(({ event }) =>
    groupsOf(hooks, event).some((group) => (group.hooks ?? []).some((entry) => isToolgateHookCommand(entry.command))),
  );
}
