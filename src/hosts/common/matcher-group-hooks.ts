/**
 * The hook settings shape the command-hook hosts share:
 * `{ "hooks": { "<Event>": [{ "matcher"?: "...", "hooks": [{ "type": "command", "command": "...", ... }] }] } }`.
 * Adds toolgate's entries and removes exactly those again, for any host; each host names its events, its entry and
 * how to recognise its toolgate command. Pure: the installers read and write the files.
 */

export interface HookEntry {
  type?: string;
  command?: string;
  timeout?: number;
  [key: string]: unknown;
}

export interface MatcherGroup {
  matcher?: string;
  hooks?: HookEntry[];
  [key: string]: unknown;
}

type Settings = Record<string, unknown>;

/** Whether a command runs `toolgate hook <host>` (whatever path runs toolgate). */
export function toolgateCommandMatcher(host: string): (command: unknown) => boolean {
  const pattern = new RegExp(`(^|[\\s"'/])hook\\s+${host.replace(/[^\w-]/g, "")}\\s*$`);
  return (command) => typeof command === "string" && pattern.test(command.trim());
}

/** The `hooks` object of a settings object, or `{}`. */
export function hooksOf(settings: Settings): Record<string, unknown> {
  const hooks = settings["hooks"];
  return typeof hooks === "object" && hooks !== null && !Array.isArray(hooks) ? (hooks as Record<string, unknown>) : {};
}

/** The matcher groups of one event, or `[]`. */
export function groupsOf(hooks: Record<string, unknown>, event: string): MatcherGroup[] {
  const groups = hooks[event];
  return Array.isArray(groups) ? (groups as MatcherGroup[]) : [];
}

/** The groups without toolgate's entries; a group that held only toolgate's goes, an untouched group is the same object. */
function withoutToolgate(groups: MatcherGroup[], isToolgate: (command: unknown) => boolean): MatcherGroup[] {
  const kept: MatcherGroup[] = [];
  for (const group of groups) {
    if (!Array.isArray(group.hooks)) {
      kept.push(group);
      continue;
    }
    const entries = group.hooks.filter((entry) => !isToolgate(entry.command));
    if (entries.length === group.hooks.length) kept.push(group);
    else if (entries.length > 0) kept.push({ ...group, hooks: entries });
  }
  return kept;
}

/** Removes every toolgate entry, and events or a `hooks` key left empty by that; unchanged settings come back as is. */
export function removeToolgateGroups(settings: Settings, isToolgate: (command: unknown) => boolean): Settings {
  if (typeof settings["hooks"] !== "object" || settings["hooks"] === null) return settings;
  const hooks: Record<string, unknown> = { ...hooksOf(settings) };
  let changed = false;
  for (const event of Object.keys(hooks)) {
    if (!Array.isArray(hooks[event])) continue;
    const groups = groupsOf(hooks, event);
    const kept = withoutToolgate(groups, isToolgate);
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
 * Adds one toolgate group per event after every other hook (replacing an older toolgate entry, e.g. with another
 * path). Installing twice gives the same settings (the same object when nothing changed).
 */
export function addToolgateGroups(
  settings: Settings,
  options: { isToolgate: (command: unknown) => boolean; groups: readonly { event: string; group: MatcherGroup }[] },
): Settings {
  const cleaned = removeToolgateGroups(settings, options.isToolgate);
  const hooks: Record<string, unknown> = { ...hooksOf(cleaned) };
  for (const { event, group } of options.groups) hooks[event] = [...groupsOf(hooks, event), group];
  const next = { ...cleaned, hooks };
  // installed already, in the same place: the same settings object, so the file stays byte-identical
  return JSON.stringify(next) === JSON.stringify(settings) ? settings : next;
}

/** One host's toolgate hooks in this shape: which command is toolgate's, and adding and removing its entries. */
export interface CommandHookSettings {
  /** whether a command runs `toolgate hook <host>` */
  isToolgate(command: unknown): boolean;
  /**
   * Adds one toolgate entry per event (replacing an older toolgate entry, e.g. with another path), keeping every
   * other hook as it was. Installing twice gives the same settings.
   */
  add(settings: Settings, command: string): Settings;
  /** Removes every toolgate entry of the host, and containers that only held toolgate's entries. */
  remove(settings: Settings): Settings;
}

/**
 * The toolgate hooks of a host that keeps command hooks in matcher groups: `events` lists the events toolgate
 * listens to (a tool event's group matches every tool, `matcher: "*"`), `entry` the hook entry for a command (its
 * timeout in the host's unit, any name the host shows).
 */
export function commandHookSettings(options: {
  host: string;
  events: readonly { event: string; toolMatcher: boolean }[];
  entry: (command: string) => HookEntry;
}): CommandHookSettings {
  const isToolgate = toolgateCommandMatcher(options.host);
  return {
    isToolgate,
    add: (settings, command) =>
      addToolgateGroups(settings, {
        isToolgate,
        groups: options.events.map(({ event, toolMatcher }) => ({
          event,
          group: { ...(toolMatcher ? { matcher: "*" } : {}), hooks: [options.entry(command)] },
        })),
      }),
    remove: (settings) => removeToolgateGroups(settings, isToolgate),
  };
}
