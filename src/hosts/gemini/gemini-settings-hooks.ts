import { commandHookSettings } from "../common/matcher-group-hooks.js";
import { GEMINI_INSTALLED_EVENTS } from "./gemini-hook-input.js";

/**
 * Adds toolgate's command hooks to a Gemini CLI settings object (`hooks.<Event>[] = { matcher?, hooks: [...] }`),
 * and removes exactly those again. Pure: the installer reads and writes the file.
 */

/** Milliseconds Gemini CLI waits for the hook (its default is 60000); a hook that times out never allows a call. */
export const GEMINI_HOOK_TIMEOUT_MS = 30_000;

const TOOL_EVENTS = new Set<string>(["BeforeTool", "AfterTool"]);

const hooks = commandHookSettings({
  host: "gemini",
  events: GEMINI_INSTALLED_EVENTS.map((event) => ({ event, toolMatcher: TOOL_EVENTS.has(event) })),
  entry: (command) => ({ type: "command", name: "toolgate", command, timeout: GEMINI_HOOK_TIMEOUT_MS }),
});

/** A command is toolgate's Gemini hook when it ends in `hook gemini` (whatever path runs toolgate). */
export const isToolgateGeminiCommand = hooks.isToolgate;

/** Removes every toolgate Gemini hook, and containers that only held toolgate's entries. */
export const removeGeminiHooks = hooks.remove;

/** Adds one toolgate entry per event, keeping every other hook as it was (idempotent). */
export const addGeminiHooks = hooks.add;
