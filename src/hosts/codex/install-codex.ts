import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { ToolgateError } from "../../core/errors.js";
import { defaultHookCommand } from "../common/hook-command.js";
import { editSettingsFile } from "../common/settings-file.js";
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
  /** the file was deleted: it held nothing but toolgate's entries */
  removed?: boolean;
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

function update(
  options: CodexInstallOptions,
  change: (file: Record<string, unknown>) => Record<string, unknown>,
): CodexInstallOutcome {
  const path = codexHooksPath({
    scope: options.scope,
    cwd: options.cwd ?? process.cwd(),
    env: options.env ?? process.env,
  });
  return editSettingsFile({ path, dryRun: options.dryRun, change });
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
