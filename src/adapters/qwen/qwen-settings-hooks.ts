/**
 * Adds toolgate's command hooks to a Qwen Code settings object (`hooks`, Claude-style matcher groups), and removes
 * exactly those again. Pure: the installer reads and writes the file.
 */

/** The events toolgate listens to on Qwen Code 0.24.4, and whether the entry takes a tool matcher. */
export const QWEN_TOOLGATE_HOOK_EVENTS: readonly { event: string; toolMatcher: boolean }[] = [
  { event: "PreToolUse", toolMatcher: true },
  { event: "PostToolUse", toolMatcher: true },
  { event: "PostToolUseFailure", toolMatcher: true },
  { event: "PostToolBatch", toolMatcher: false },
  { event: "UserPromptSubmit", toolMatcher: false },
  { event: "Stop", toolMatcher: false },
  { event: "SessionEnd", toolMatcher: false },
];

/**
 * Seconds Qwen Code waits for the hook (0.24.4 reads `timeout` in seconds; 1000 or more as legacy milliseconds,
 * with a warning). A PreToolUse hook that times out denies nothing and allows nothing of its own.
 */
export const QWEN_HOOK_TIMEOUT_SECONDS = 30;

interface HookEntry {
  type?: string;
  command?: string;
  [key: string]: unknown;
}

interface MatcherGroup {
  matcher?: string;
  hooks?: HookEntry[];
  [key: string]: unknown;
}

type Settings = Record<string, unknown>;

/** A command is toolgate's Qwen Code hook when it ends in `hook qwen` (whatever path runs toolgate). */
export function isToolgateQwenCommand(command: unknown): boolean {
  return typeof command === "string" && /(^|[\s"'/])hook\s+qwen\s*$/.test(command.trim());
}

function groupsOf(hooks: Record<string, unknown>, event: string): MatcherGroup[] {
  const groups = hooks[event];
  return Array.isArray(groups) ? (groups as MatcherGroup[]) : [];
}

/** Removes every toolgate Qwen hook, and containers that only held toolgate's entries. */
export function removeQwenToolgateHooks(settings: Settings): Settings {
  if (typeof settings["hooks"] !== "object" || settings["hooks"] === null) return settings;
  const hooks: Record<string, unknown> = { ...(settings["hooks"] as Record<string, unknown>) };
  let changed = false;
  for (const event of Object.keys(hooks)) {
    if (!Array.isArray(hooks[event])) continue;
    const groups = groupsOf(hooks, event);
    const kept: MatcherGroup[] = [];
    for (const group of groups) {
      if (!Array.isArray(group.hooks)) {
        kept.push(group);
        continue;
      }
      const entries = group.hooks.filter((entry) => !isToolgateQwenCommand(entry.command));
      if (entries.length === group.hooks.length) kept.push(group);
      else if (entries.length > 0) kept.push({ ...group, hooks: entries });
    }
    if (kept.length === groups.length && kept.every((group, index) => group === groups[index])) continue;
    changed = true;
    if (kept.length === 0) delete hooks[event];
    else hooks[event] = kept;
  }
  if (!changed) return settings;
  const next: Settings = { ...settings };
  if (Object.keys(hooks).length === 0) delete next["hooks"];
  else next["hooks"] = hooks;
  return next;
}

/**
 * Adds one toolgate entry per event (replacing an older toolgate entry, e.g. with another path), keeping every
 * other hook as it was. Installing twice gives the same settings.
 */
export function addQwenToolgateHooks(settings: Settings, command: string): Settings {
  const cleaned = removeQwenToolgateHooks(settings);
  const hooks: Record<string, unknown> = { ...((cleaned["hooks"] as Record<string, unknown> | undefined) ?? {}) };
  for (const { event, toolMatcher } of QWEN_TOOLGATE_HOOK_EVENTS) {
    const entry: MatcherGroup = {
      ...(toolMatcher ? { matcher: "*" } : {}),
      hooks: [{ type: "command", command, timeout: QWEN_HOOK_TIMEOUT_SECONDS }],
    };
    hooks[event] = [...groupsOf(hooks, event), entry];
  }
  return { ...cleaned, hooks };
}

/** The `permissions.ask` rules of a Qwen settings object: Qwen's yolo mode runs these calls without asking. */
export function qwenAskRules(settings: Settings): string[] {
  const permissions = settings["permissions"];
  if (typeof permissions !== "object" || permissions === null) return [];
  const ask = (permissions as Record<string, unknown>)["ask"];
  return Array.isArray(ask) ? ask.filter((rule): rule is string => typeof rule === "string") : [];
}
