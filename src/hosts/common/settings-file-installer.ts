import { homedir } from "node:os";
import { join } from "node:path";
import { ToolgateError } from "../../core/errors.js";
import { defaultHookCommand } from "./hook-command.js";
import { editSettingsFile } from "./settings-file.js";

/** What `toolgate install <host>` passes a host that keeps its hooks in one settings file per scope. */
export interface SettingsFileInstallOptions {
  scope: "project" | "local" | "user";
  dryRun: boolean;
  /** the hook command; default: this toolgate run by this node, `... hook <host>` */
  command?: string;
  cwd?: string;
  home?: string;
}

export interface SettingsFileInstallOutcome {
  path: string;
  changed: boolean;
  /** `+ added`, `- removed`, `  context` lines */
  diff: string[];
  written: boolean;
  /** the file was deleted: it held nothing but toolgate's entries */
  removed?: boolean;
}

/**
 * The settings file of a host that has a project and a user file and no local one, both `<folder>/<file>` (in the
 * project, in the home directory): `--local` is refused with the two scopes the host has.
 */
export function projectOrUserSettings(options: {
  displayName: string;
  folder: string;
  file: string;
}): (where: { scope: SettingsFileInstallOptions["scope"]; cwd: string; home: string }) => string {
  const project = `${options.folder}/${options.file}`;
  return ({ scope, cwd, home }) => {
    if (scope === "local") {
      throw new ToolgateError({
        code: "INPUT_INVALID",
        message: `${options.displayName} has no local settings file. Use --user (~/${project}) or --project (${project}).`,
      });
    }
    return join(scope === "user" ? home : cwd, options.folder, options.file);
  };
}

/**
 * The installer of a host whose hooks live in a JSON settings file: install merges the host's hook entries for
 * toolgate's hook command (`add`, idempotent), uninstall removes exactly those (`remove`); both show the diff and
 * leave every other setting as it was (`editSettingsFile`).
 */
export function settingsFileInstaller(options: {
  /** the name in `toolgate hook <host>` */
  host: string;
  path: (where: { scope: SettingsFileInstallOptions["scope"]; cwd: string; home: string }) => string;
  add: (settings: Record<string, unknown>, command: string) => Record<string, unknown>;
  remove: (settings: Record<string, unknown>) => Record<string, unknown>;
}): {
  install(install: SettingsFileInstallOptions): SettingsFileInstallOutcome;
  uninstall(uninstall: SettingsFileInstallOptions): SettingsFileInstallOutcome;
} {
  const update = (
    install: SettingsFileInstallOptions,
    change: (settings: Record<string, unknown>) => Record<string, unknown>,
  ) => {
    const path = options.path({
      scope: install.scope,
      cwd: install.cwd ?? process.cwd(),
      home: install.home ?? homedir(),
    });
    return editSettingsFile({ path, dryRun: install.dryRun, change });
  };
  return {
    install: (install) => {
      const command = install.command ?? defaultHookCommand(options.host);
      return update(install, (settings) => options.add(settings, command));
    },
    uninstall: (uninstall) => update(uninstall, options.remove),
  };
}
