import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ToolgateError } from "../../core/errors.js";
import { editSettingsFile } from "../common/settings-file.js";
import type { HostInstallOutcome } from "../host-descriptor.js";

/**
 * `toolgate install pi [--user | --project]`: adds toolgate's extension to pi's `extensions` list, as the absolute
 * path of this toolgate's `dist/hosts/pi/pi-entry.js` (pi 1.6 loads a listed file with its own loader). `--user`
 * (the default) edits `~/.pi/agent/settings.json` and applies in every project; `--project` edits
 * `.pi/settings.json`, which pi reads only in a trusted project (`pi --approve`, `/trust`, or
 * `defaultProjectTrust: "always"`). Idempotent; uninstall removes exactly the entries install adds and keeps every
 * other setting, byte for byte.
 */
export interface PiInstallOptions {
  scope: "project" | "local" | "user";
  dryRun: boolean;
  /** the extension file to list (default: this toolgate's dist/hosts/pi/pi-entry.js) */
  command?: string;
  cwd?: string;
  home?: string;
  env?: Readonly<Record<string, string | undefined>>;
}

/** toolgate's pi extension wherever toolgate is installed. */
const MARKER = /toolgate.*[/\\]hosts[/\\]pi[/\\]pi-entry\.(js|ts)$/;

export function toolgateExtensionPath(): string {
  return fileURLToPath(new URL("./pi-entry.js", import.meta.url));
}

/** pi's agent folder: `PI_CODING_AGENT_DIR` when set, else `~/.pi/agent`. */
export function piAgentDirectory(options: {
  home?: string;
  env?: Readonly<Record<string, string | undefined>>;
}): string {
  return options.env?.["PI_CODING_AGENT_DIR"] || join(options.home ?? homedir(), ".pi", "agent");
}

export function piSettingsPath(options: Pick<PiInstallOptions, "scope" | "cwd" | "home" | "env">): string {
  if (options.scope === "local") {
    throw new ToolgateError({
      code: "CONFIG_INVALID",
      message:
        "pi has no local settings file; use --user (~/.pi/agent/settings.json) or --project (.pi/settings.json).",
    });
  }
  return options.scope === "user"
    ? join(piAgentDirectory(options), "settings.json")
    : join(options.cwd ?? process.cwd(), ".pi", "settings.json");
}

/** Whether an `extensions` entry is toolgate's extension (any install location). */
export function isToolgateExtension(value: unknown): boolean {
  return typeof value === "string" && MARKER.test(value);
}

const PROJECT_TRUST_NOTE =
  "pi loads .pi/settings.json only in a trusted project: run pi once with --approve, use /trust, or install with --user.";

export function installPi(options: PiInstallOptions): HostInstallOutcome {
  const path = piSettingsPath(options);
  const entry = options.command ?? toolgateExtensionPath();
  const outcome = editSettingsFile({
    path,
    dryRun: options.dryRun,
    change(settings) {
      const extensions = Array.isArray(settings["extensions"]) ? settings["extensions"] : [];
      if (extensions.includes(entry)) return settings;
      return { ...settings, extensions: [...extensions.filter((item) => !isToolgateExtension(item)), entry] };
    },
  });
  return options.scope === "project" ? { ...outcome, notes: [PROJECT_TRUST_NOTE] } : outcome;
}

export function uninstallPi(options: PiInstallOptions): HostInstallOutcome {
  const path = piSettingsPath(options);
  const entry = options.command ?? toolgateExtensionPath();
  return editSettingsFile({
    path,
    dryRun: options.dryRun,
    change(settings) {
      const extensions = Array.isArray(settings["extensions"]) ? settings["extensions"] : [];
      const remaining = extensions.filter((item) => item !== entry && !isToolgateExtension(item));
      if (remaining.length === extensions.length) return settings;
      const { extensions: _extensions, ...rest } = settings;
      return remaining.length > 0 ? { ...rest, extensions: remaining } : rest;
    },
  });
}
