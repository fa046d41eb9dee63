import { addToolgateGroups, removeToolgateGroups, toolgateCommandMatcher } from "../common/matcher-group-hooks.js";

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

type HooksFile = Record<string, unknown>;

/** A command is toolgate's Codex hook when it ends in `hook codex` (whatever path runs toolgate). */
export const isToolgateCodexCommand = toolgateCommandMatcher("codex");

/** toolgate's entries for `command`, replacing an older toolgate entry (another path) and keeping every other. */
export function addToolgateCodexHooks(file: HooksFile, command: string): HooksFile {
  return addToolgateGroups(file, {
    isToolgate: isToolgateCodexCommand,
    groups: CODEX_TOOLGATE_EVENTS.map(({ event, toolMatcher }) => {
      const entry = { type: "command", command, timeout: CODEX_HOOK_TIMEOUT_SECONDS };
      return { event, group: toolMatcher ? { matcher: ".*", hooks: [entry] } : { hooks: [entry] } };
    }),
  });
}

/** The file without toolgate's entries (and without events or a `hooks` key left empty by that). */
export function removeToolgateCodexHooks(file: HooksFile): HooksFile {
  return removeToolgateGroups(file, isToolgateCodexCommand);
}
