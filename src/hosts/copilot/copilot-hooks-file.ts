import { COPILOT_HOOK_EVENTS } from "./copilot-hook-input.js";

/**
 * toolgate's entries in a Copilot CLI hooks file (`{ "version": 1, "hooks": { "<event>": [ { "type": "command",
 * "bash": "...", "timeoutSec": 30 } ] } }`, 1.0.102), added and removed exactly. Pure: the installer reads and
 * writes the file. Each entry names its event on the command line (`... hook copilot preToolUse`): Copilot's
 * payloads do not name it.
 */
type Settings = Record<string, unknown>;

/** Seconds Copilot waits for the hook (its default is 30 too); a preToolUse hook that times out refuses the call. */
export const COPILOT_HOOK_TIMEOUT_SECONDS = 30;

const TOOLGATE_COMMAND = /(^|[\s"'/])hook\s+copilot(\s+[A-Za-z]+)?\s*$/;

/** A command is toolgate's Copilot hook when it ends in `hook copilot [<event>]` (whatever path runs toolgate). */
export function isToolgateCopilotCommand(command: unknown): boolean {
  return typeof command === "string" && TOOLGATE_COMMAND.test(command.trim());
}

function hooksOf(settings: Settings): Record<string, unknown> {
  const hooks = settings["hooks"];
  return typeof hooks === "object" && hooks !== null && !Array.isArray(hooks) ? (hooks as Record<string, unknown>) : {};
}

function entriesOf(hooks: Record<string, unknown>, event: string): Record<string, unknown>[] {
  const entries = hooks[event];
  return Array.isArray(entries) ? (entries as Record<string, unknown>[]) : [];
}

function isToolgateEntry(entry: unknown): boolean {
  return typeof entry === "object" && entry !== null && isToolgateCopilotCommand((entry as { bash?: unknown }).bash);
}

/** Removes every toolgate entry, the events and `hooks` left empty, and `version` when nothing else is left. */
export function removeCopilotToolgateHooks(settings: Settings): Settings {
  const hooks = hooksOf(settings);
  const nextHooks: Record<string, unknown> = {};
  let changed = false;
  for (const [event, value] of Object.entries(hooks)) {
    if (!Array.isArray(value)) {
      nextHooks[event] = value;
      continue;
    }
    const kept = value.filter((entry) => !isToolgateEntry(entry));
    if (kept.length !== value.length) changed = true;
    if (kept.length > 0) nextHooks[event] = kept.length === value.length ? value : kept;
  }
  if (!changed) return settings;
  const { hooks: _hooks, ...rest } = settings;
  const next: Settings = Object.keys(nextHooks).length > 0 ? { ...rest, hooks: nextHooks } : rest;
  return Object.keys(next).length === 1 && next["version"] === 1 ? {} : next;
}

/**
 * Adds one toolgate entry per event (replacing an older toolgate entry, e.g. with another path), keeping every
 * other hook as it was. Installing twice gives the same file.
 */
export function addCopilotToolgateHooks(settings: Settings, command: string): Settings {
  const hooks = hooksOf(settings);
  const nextHooks: Record<string, unknown> = { ...hooks };
  // a new file gets `version: 1`; an existing one keeps its keys as they are (uninstall must give it back byte for byte)
  const fresh = Object.keys(settings).length === 0;
  let changed = false;
  for (const event of COPILOT_HOOK_EVENTS) {
    const entry = { type: "command", bash: `${command} ${event}`, timeoutSec: COPILOT_HOOK_TIMEOUT_SECONDS };
    const entries = entriesOf(hooks, event);
    const others = entries.filter((existing) => !isToolgateEntry(existing));
    const same =
      entries.length === others.length + 1 &&
      entries.some((existing) => isToolgateEntry(existing) && JSON.stringify(existing) === JSON.stringify(entry));
    if (same) continue;
    changed = true;
    nextHooks[event] = [...others, entry];
  }
  if (!changed) return settings;
  return fresh ? { version: 1, hooks: nextHooks } : { ...settings, hooks: nextHooks };
}

/** The events that run toolgate in a hooks file, and the commands they run. */
export function toolgateCommandsOf(settings: Settings): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const [event, value] of Object.entries(hooksOf(settings))) {
    if (!Array.isArray(value)) continue;
    const commands = value.filter(isToolgateEntry).map((entry) => String((entry as { bash: string }).bash));
    if (commands.length > 0) found.set(event, commands);
  }
  return found;
}
