import { homedir } from "node:os";
import { join } from "node:path";
import { ToolgateError } from "../../core/errors.js";
import { defaultHookCommand } from "../common/hook-command.js";
import { editSettingsFile } from "../common/settings-file.js";
import type { HostInstallOptions, HostInstallOutcome } from "../host-descriptor.js";
import { addCopilotToolgateHooks, removeCopilotToolgateHooks } from "./copilot-hooks-file.js";

const PLAIN_JSON = "GitHub Copilot CLI reads its hooks files as plain JSON";

/**
 * Where each scope's hooks file lives, as Copilot CLI 1.0.102 reads it: `--user` is `$COPILOT_HOME/hooks/toolgate.json`
 * (default `~/.copilot`; always loaded), `--project` is the project's `.github/hooks/toolgate.json` (loaded only in
 * a folder the person trusted). A file of toolgate's own: uninstall deletes it when nothing else is in it.
 */
export function copilotHooksPath(options: {
  scope: HostInstallOptions["scope"];
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
}): string {
  if (options.scope === "local") {
    throw new ToolgateError({
      code: "CONFIG_INVALID",
      message:
        "GitHub Copilot CLI has no local hooks file toolgate writes; use --user ($COPILOT_HOME/hooks/toolgate.json) or --project (.github/hooks/toolgate.json).",
    });
  }
  if (options.scope === "project") return join(options.cwd, ".github", "hooks", "toolgate.json");
  const own = options.env["COPILOT_HOME"];
  const home = own !== undefined && own !== "" ? own : join(options.env["HOME"] ?? homedir(), ".copilot");
  return join(home, "hooks", "toolgate.json");
}

function update(
  options: HostInstallOptions,
  change: (settings: Record<string, unknown>) => Record<string, unknown>,
): HostInstallOutcome {
  const path = copilotHooksPath({
    scope: options.scope,
    cwd: options.cwd ?? process.cwd(),
    env: options.env ?? process.env,
  });
  return editSettingsFile({ path, dryRun: options.dryRun, change, strict: PLAIN_JSON });
}

const TRUST_NOTE =
  "Copilot CLI loads a project's .github/hooks only in a folder you trusted (its trust prompt, or trustedFolders in ~/.copilot/config.json); `copilot -p --trust-folder` trusts it for one run.";

/** Writes toolgate's hooks into the scope's hooks file (idempotent, shows the diff). */
export function installCopilot(options: HostInstallOptions): HostInstallOutcome {
  const command = options.command ?? defaultHookCommand("copilot");
  const outcome = update(options, (settings) => addCopilotToolgateHooks(settings, command));
  return options.scope === "project" ? { ...outcome, notes: [TRUST_NOTE] } : outcome;
}

/** Removes exactly toolgate's hook entries (and the file, when it held nothing else). */
export function uninstallCopilot(options: HostInstallOptions): HostInstallOutcome {
  return update(options, removeCopilotToolgateHooks);
}
