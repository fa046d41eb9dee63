/**
 * Adds toolgate's command hooks to a Codex `hooks.json` object (`{ "hooks": { "<Event>": [matcher groups] } }`,
 * the same shape as Claude Code's), and removes exactly those again. Pure: the installer reads and writes the file.
 */

/** The events toolgate listens to on Codex 0.169.0, and whether the entry takes a tool matcher. */
export const CODEX_TOOLGATE_EVENTS: readonly { event: string; toolMatcher: boolean }[] = [
  { event: "PreToolUse", toolMatcher: true },
  { event: "PostToolUse", toolMatcher: true },
  { event: "UserPromptSubmit", toolMatcher: false },
  { event: "Stop", toolMatcher: false },
  { event: "SessionEnd", toolMatcher: false },
];

/** Seconds Codex waits for the hook (Codex clamps SessionEnd hooks to 3 s itself); a timeout never allows a call. */
export const CODEX_HOOK_TIMEOUT_SECONDS = 30;

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

type HooksFile = Record<string, unknown>;

/** A command is toolgate's Codex hook when it ends in `hook codex` (whatever path runs toolgate). */
export function isToolgateCodexCommand(command: unknown): boolean {
  return typeof command === "string" && /(^|[\s"'/])hook\s+codex\s*$/.test(command.trim());
}

function hooksOf(file: HooksFile): Record<string, unknown> {
  const hooks = file["hooks"];
  return typeof hooks === "object" && hooks !== null && !Array.isArray(hooks) ? (hooks as Record<string, unknown>) : {};
}

function withoutToolgate(groups: MatcherGroup[]): MatcherGroup[] {
  const kept: MatcherGroup[] = [];
  for (const group of groups) {
    if (!Array.isArray(group.hooks)) {
      kept.push(group);
      continue;
    }
    const hooks = group.hooks.filter((entry) => !isToolgateCodexCommand(entry.command));
    if (hooks.length === group.hooks.length) kept.push(group);
    else if (hooks.length > 0) kept.push({ ...group, hooks });
  }
  return kept;
}

function groupsOf(hooks: Record<string, unknown>, event: string): MatcherGroup[] {
  const groups = hooks[event];
  return Array.isArray(groups) ? (groups as MatcherGroup[]) : [];
}

/** toolgate's entries for `command`, replacing an older toolgate entry (another path) and keeping every other. */
export function addToolgateCodexHooks(file: HooksFile, command: string): HooksFile {
  const hooks = { ...hooksOf(file) };
  for (const { event, toolMatcher } of CODEX_TOOLGATE_EVENTS) {
    const groups = withoutToolgate(groupsOf(hooks, event));
    const entry: HookEntry = { type: "command", command, timeout: CODEX_HOOK_TIMEOUT_SECONDS };
    groups.push(toolMatcher ? { matcher: ".*", hooks: [entry] } : { hooks: [entry] });
    hooks[event] = groups;
  }
  // an unchanged file stays byte-identical: same entries in the same place
  const before = hooksOf(file);
  const same = CODEX_TOOLGATE_EVENTS.every(
    ({ event }) => JSON.stringify(before[event]) === JSON.stringify(hooks[event]),
  );
  if (same) return file;
  return { ...file, hooks };
}

/** The file without toolgate's entries (and without events or a `hooks` key left empty by that). */
export function removeToolgateCodexHooks(file: HooksFile): HooksFile {
  const before = hooksOf(file);
  const hooks: Record<string, unknown> = {};
  let changed = false;
  for (const [event, value] of Object.entries(before)) {
    if (!Array.isArray(value)) {
      hooks[event] = value;
      continue;
    }
    const kept = withoutToolgate(value as MatcherGroup[]);
    if (kept.length !== value.length || JSON.stringify(kept) !== JSON.stringify(value)) changed = true;
    if (kept.length > 0) hooks[event] = kept;
  }
  if (!changed) return file;
  const { hooks: _removed, ...rest } = file;
  return Object.keys(hooks).length === 0 ? rest : { ...rest, hooks };
}
