import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { ToolgateError } from "../../core/errors.js";
import { defaultHookCommand } from "../hook-command.js";
import { editJsonText, parseJsonc } from "../json-file-edit.js";
import { lineDiff } from "../line-diff.js";
import { addToolgateCodexHooks, removeToolgateCodexHooks } from "./codex-hooks-file.js";

export interface CodexInstallOptions {
  /** `project`: `<cwd>/.codex/hooks.json` (loaded once Codex trusts the project); `user`: `$CODEX_HOME/hooks.json` */
  scope: "project" | "local" | "user";
  dryRun: boolean;
  /** the hook command; default: this toolgate run by this node (`defaultHookCommand("codex")`) */
  command?: string;
  cwd?: string;
  env?: Readonly<Record<string, string | undefined>>;
}

export interface CodexInstallOutcome {
  path: string;
  changed: boolean;
  diff: string[];
  written: boolean;
}

/** Where each scope's Codex hooks file lives. */
export function codexHooksPath(options: {
  scope: "project" | "local" | "user";
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
}): string {
  if (options.scope === "local") {
    throw new ToolgateError({
      code: "CONFIG_INVALID",
      message:
        "Codex has no local (uncommitted) hooks file. Use --project (.codex/hooks.json) or --user ($CODEX_HOME/hooks.json).",
    });
  }
  if (options.scope === "project") return join(options.cwd, ".codex", "hooks.json");
  const home = options.env["CODEX_HOME"];
  const codexHome =
    home !== undefined && home !== "" ? resolve(home) : join(options.env["HOME"] ?? homedir(), ".codex");
  return join(codexHome, "hooks.json");
}

function readHooksFile(path: string): { text: string; file: Record<string, unknown> } {
  if (!existsSync(path)) return { text: "", file: {} };
  const text = readFileSync(path, "utf8");
  if (text.trim() === "") return { text, file: {} };
  try {
    const value = parseJsonc(text);
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error("not a JSON object");
    return { text, file: value as Record<string, unknown> };
  } catch (error) {
    throw new ToolgateError({
      code: "CONFIG_INVALID",
      message: `${path} is not a valid JSON object (${(error as Error).message}). Fix or remove it, then run the command again; nothing was changed.`,
      cause: error,
    });
  }
}

function update(
  options: CodexInstallOptions,
  change: (file: Record<string, unknown>) => Record<string, unknown>,
): CodexInstallOutcome {
  const path = codexHooksPath({
    scope: options.scope,
    cwd: options.cwd ?? process.cwd(),
    env: options.env ?? process.env,
  });
  const { text, file } = readHooksFile(path);
  const next = change(file);
  const nextText = next === file ? text : editJsonText({ text, before: file, after: next });
  const diff = lineDiff({ before: text, after: nextText });
  const changed = diff.length > 0;
  let written = false;
  if (changed && !options.dryRun) {
    mkdirSync(dirname(path), { recursive: true });
    const temporary = `${path}.toolgate-${process.pid}.tmp`;
    writeFileSync(temporary, nextText);
    renameSync(temporary, path);
    written = true;
  }
  return { path, changed, diff, written };
}

/** Merges toolgate's hooks into the scope's Codex hooks.json (idempotent, shows the diff). */
export function installCodex(options: CodexInstallOptions): CodexInstallOutcome {
  const command = options.command ?? defaultHookCommand("codex");
  return update(options, (file) => addToolgateCodexHooks(file, command));
}

/** Removes exactly toolgate's entries from the scope's Codex hooks.json. */
export function uninstallCodex(options: CodexInstallOptions): CodexInstallOutcome {
  return update(options, removeToolgateCodexHooks);
}
