import { addToolgateGroups, removeToolgateGroups, toolgateCommandMatcher } from "../common/matcher-group-hooks.js";
import { GEMINI_INSTALLED_EVENTS } from "./gemini-hook-input.js";

/**
 * Adds toolgate's command hooks to a Gemini CLI settings object (`hooks.<Event>[] = { matcher?, hooks: [...] }`),
 * and removes exactly those again. Pure: the installer reads and writes the file.
 */

/** Milliseconds Gemini CLI waits for the hook (its default is 60000); a hook that times out never allows a call. */
export const GEMINI_HOOK_TIMEOUT_MS = 30_000;

const TOOL_EVENTS = new Set<string>(["BeforeTool", "AfterTool"]);

type Settings = Record<string, unknown>;

/** A command is toolgate's Gemini hook when it ends in `hook gemini` (whatever path runs toolgate). */
export const isToolgateGeminiCommand = toolgateCommandMatcher("gemini");

/** Removes every toolgate Gemini hook, and containers that only held toolgate's entries. */
export function removeGeminiHooks(settings: Settings): Settings {
  return removeToolgateGroups(settings, isToolgateGeminiCommand);
}

/**
 * Adds one toolgate entry per event (replacing an older toolgate entry, e.g. with another path), keeping every
 * other hook as it was. Installing twice gives the same settings.
 */
export function addGeminiHooks(settings: Settings, command: string): Settings {
  return addToolgateGroups(settings, {
    isToolgate: isToolgateGeminiCommand,
    groups: GEMINI_INSTALLED_EVENTS.map((event) => ({
      event,
      group: {
        ...(TOOL_EVENTS.has(event) ? { matcher: "*" } : {}),
        hooks: [{ type: "command", name: "toolgate", command, timeout: GEMINI_HOOK_TIMEOUT_MS }],
      },
    })),
  });
}
