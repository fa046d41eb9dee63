import { GEMINI_INSTALLED_EVENTS } from "./gemini-hook-input.js";

/**
 * Adds toolgate's command hooks to a Gemini CLI settings object (`hooks.<Event>[] = { matcher?, hooks: [...] }`),
 * and removes exactly those again. Pure: the installer reads and writes the file.
 */

/** Milliseconds Gemini CLI waits for the hook (its default is 60000); a hook that times out never allows a call. */
export const GEMINI_HOOK_TIMEOUT_MS = 30_000;

const TOOL_EVENTS = new Set<string>(["BeforeTool", "AfterTool"]);

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

/** A command is toolgate's Gemini hook when it ends in `hook gemini` (whatever path runs toolgate). */
export function isToolgateGeminiCommand(command: unknown): boolean {
  return typeof command === "string" && /(^|[\s"'/])hook\s+gemini\s*$/.test(command.trim());
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
    const hooks = group.hooks.filter((entry) => !isToolgateGeminiCommand(entry.command));
    if (hooks.length === group.hooks.length) kept.push(group);
    else if (hooks.length > 0) kept.push({ ...group, hooks });
  }
  return kept;
}

/** Removes every toolgate Gemini hook, and containers that only held toolgate's entries. */
export function removeGeminiHooks(settings: Settings): Settings {
  if (typeof settings["hooks"] !== "object" || settings["hooks"] === null) return settings;
  const hooks: Record<string, unknown> = { ...(settings["hooks"] as Record<string, unknown>) };
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
  if (Object.keys(hooks).length === 0) delete next["hooks"];
  else next["hooks"] = hooks;
  return next;
}

/**
 * Adds one toolgate entry per event (replacing an older toolgate entry, e.g. with another path), keeping every
 * other hook as it was. Installing twice gives the same settings.
 */
export function addGeminiHooks(settings: Settings, command: string): Settings {
  const cleaned = removeGeminiHooks(settings);
  const hooks: Record<string, unknown> = { ...((cleaned["hooks"] as Record<string, unknown> | undefined) ?? {}) };
  for (const event of GEMINI_INSTALLED_EVENTS) {
    const entry: MatcherGroup = {
      ...(TOOL_EVENTS.has(event) ? { matcher: "*" } : {}),
      hooks: [{ type: "command", name: "toolgate", command, timeout: GEMINI_HOOK_TIMEOUT_MS }],
    };
    hooks[event] = [...groupsOf(hooks, event), entry];
  }
  return { ...cleaned, hooks };
}
