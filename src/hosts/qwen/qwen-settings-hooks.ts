import { commandHookSettings } from "../common/matcher-group-hooks.js";

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

type Settings = Record<string, unknown>;

const hooks = commandHookSettings({
  host: "qwen",
  events: QWEN_TOOLGATE_HOOK_EVENTS,
  entry: (command) => ({ type: "command", command, timeout: QWEN_HOOK_TIMEOUT_SECONDS }),
});

/** A command is toolgate's Qwen Code hook when it ends in `hook qwen` (whatever path runs toolgate). */
export const isToolgateQwenCommand = hooks.isToolgate;

/** Removes every toolgate Qwen hook, and containers that only held toolgate's entries. */
export const removeQwenToolgateHooks = hooks.remove;

/** Adds one toolgate entry per event, keeping every other hook as it was (idempotent). */
export const addQwenToolgateHooks = hooks.add;

/** The `permissions.ask` rules of a Qwen settings object: Qwen's yolo mode runs these calls without asking. */
export function qwenAskRules(settings: Settings): string[] {
  const permissions = settings["permissions"];
  if (typeof permissions !== "object" || permissions === null) return [];
  const ask = (permissions as Record<string, unknown>)["ask"];
  return Array.isArray(ask) ? ask.filter((rule): rule is string => typeof rule === "string") : [];
}
