import { spawnSync } from "node:child_process";
import { homedir } from "node:os";
import { join } from "node:path";
import { defaultHookCommand as defaultHostHookCommand } from "../common/hook-command.js";
import { editSettingsFile, readSettingsFile } from "../common/settings-file.js";
import { addToolgateHooks, removeToolgateHooks } from "./settings-hooks.js";

export type InstallScope = "project" | "local" | "user";

export interface InstallOptions {
  scope: InstallScope;
  dryRun: boolean;
  /** the hook command; default runs this toolgate with this node: `"<node>" "<dist/cli/main.js>" hook claude-code` */
  command?: string;
  cwd?: string;
  home?: string;
}

export interface InstallOutcome {
  /** the settings file */
  path: string;
  changed: boolean;
  /** unified-style lines: `+ added`, `- removed`, `  context` */
  diff: string[];
  written: boolean;
  /** the file was deleted: it held nothing but toolgate's entries */
  removed?: boolean;
}

/** Where each scope's Claude Code settings live. */
export function claudeSettingsPath(options: { scope: InstallScope; cwd: string; home: string }): string {
  if (options.scope === "user") return join(options.home, ".claude", "settings.json");
  const file = options.scope === "local" ? "settings.local.json" : "settings.json";
  return join(options.cwd, ".claude", file);
}

/** The command Claude Code runs: this node binary and this toolgate, so it works without a global install. */
export function defaultHookCommand(): string {
  return defaultHostHookCommand("claude-code");
}

/** Reads a Claude Code settings file (JSONC); `{}` when it is missing or empty; CONFIG_INVALID when not an object. */
export const readSettings = readSettingsFile;

/**
 * Why install refuses a settings file with comments or trailing commas: Claude Code 2.1.330 parses its settings as
 * plain JSON and skips a file that is not, without a word in `-p` runs (measured: a `// comment` or a trailing comma
 * drops the file's permission rules and hooks alike).
 */
export const CLAUDE_STRICT_JSON =
  "Claude Code reads settings files as plain JSON and ignores the whole file when it holds a comment or a trailing comma (its permission rules and hooks with it), so toolgate's hooks there would never run.";

function update(
  options: InstallOptions,
  change: (settings: Record<string, unknown>) => Record<string, unknown>,
  strict: boolean,
) {
  const path = claudeSettingsPath({
    scope: options.scope,
    cwd: options.cwd ?? process.cwd(),
    home: options.home ?? homedir(),
  });
  return editSettingsFile({ path, dryRun: options.dryRun, change, ...(strict ? { strict: CLAUDE_STRICT_JSON } : {}) });
}

/** Whether git, asked in `directory`, would commit `path` (a repository that does not ignore it). */
function committable(path: string, directory: string): boolean {
  const result = spawnSync("git", ["check-ignore", "-q", path], { cwd: directory, stdio: "ignore", timeout: 5000 });
  return result.status === 1;
}

/**
 * Merges toolgate's hooks into the scope's settings file (idempotent). The file must be plain JSON (Claude Code
 * ignores one with comments). A local settings file git would commit gets a note: it names this machine's paths.
 */
export function installClaudeCode(options: InstallOptions): InstallOutcome & { notes?: string[] } {
  const command = options.command ?? defaultHookCommand();
  const outcome = update(options, (settings) => addToolgateHooks(settings, command), true);
  if (options.scope !== "local" || options.dryRun || !outcome.changed) return outcome;
  const cwd = options.cwd ?? process.cwd();
  return committable(outcome.path, cwd)
    ? {
        ...outcome,
        notes: [
          `git does not ignore ${outcome.path} here: add .claude/settings.local.json to .gitignore, so this machine's paths stay out of the repository.`,
        ],
      }
    : outcome;
}

/** Removes exactly toolgate's hook entries from the scope's settings file. */
export function uninstallClaudeCode(options: InstallOptions): InstallOutcome {
  return update(options, removeToolgateHooks, false);
}
