import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { ToolgateError } from "../../core/errors.js";
import { editSettingsFile } from "../common/settings-file.js";
import type { HostInstallOutcome } from "../host-descriptor.js";

/**
 * `toolgate install kilo [--project | --user]`: Kilo CLI (7.7.7) kept opencode's plugin system, and toolgate's
 * opencode plugin loads in it as it is (proven on the real binary, test/e2e/kilo). Install adds it to Kilo's `plugin`
 * list with the plugin option `{ "host": "kilo" }`, so the sessions are Kilo's: `~/.config/kilo/kilo.json(c)` (`--user`, the
 * default) or `./kilo.json(c)` (`--project`). Idempotent; uninstall removes exactly the entries install
 * adds, byte for byte, and keeps every other setting.
 */
export interface KiloInstallOptions {
  scope: "project" | "local" | "user";
  dryRun: boolean;
  /** the plugin module URL to list (default: this toolgate's dist/hosts/opencode/opencode-plugin.js) */
  command?: string;
  cwd?: string;
  home?: string;
}

/** toolgate's opencode plugin wherever toolgate is installed, as a plain entry or a `[url, options]` pair. */
const MARKER = /toolgate.*[/\\]hosts[/\\]opencode[/\\]opencode-plugin\.(js|ts)$/;

/** The plugin Kilo loads: toolgate's opencode plugin module (a file URL; the file, not an import of its folder). */
export function kiloPluginUrl(): string {
  return new URL("../opencode/opencode-plugin.js", import.meta.url).href;
}

export function kiloConfigPath(options: Pick<KiloInstallOptions, "scope" | "cwd" | "home">): string {
  if (options.scope === "local") {
    throw new ToolgateError({
      code: "CONFIG_INVALID",
      message: "Kilo has no local settings file; use --project (./kilo.json) or --user (~/.config/kilo/kilo.json).",
    });
  }
  const directory =
    options.scope === "user" ? join(options.home ?? homedir(), ".config", "kilo") : (options.cwd ?? process.cwd());
  const jsonc = join(directory, "kilo.jsonc");
  return existsSync(jsonc) ? jsonc : join(directory, "kilo.json");
}

/** Whether a `plugin` list item is toolgate's plugin (any install location, with or without options). */
export function isToolgateKiloEntry(value: unknown): boolean {
  const spec = Array.isArray(value) ? value[0] : value;
  return typeof spec === "string" && MARKER.test(spec);
}

function isEntry(value: unknown, url: string): boolean {
  return Array.isArray(value) ? value[0] === url : value === url;
}

export function installKilo(options: KiloInstallOptions): HostInstallOutcome {
  const url = options.command ?? kiloPluginUrl();
  const entry = [url, { host: "kilo" }];
  return editSettingsFile({
    path: kiloConfigPath(options),
    dryRun: options.dryRun,
    change(settings) {
      const plugins = Array.isArray(settings["plugin"]) ? settings["plugin"] : [];
      if (plugins.some((item) => JSON.stringify(item) === JSON.stringify(entry))) return settings;
      return { ...settings, plugin: [...plugins.filter((item) => !isToolgateKiloEntry(item)), entry] };
    },
  });
}

export function uninstallKilo(options: KiloInstallOptions): HostInstallOutcome {
  const url = options.command ?? kiloPluginUrl();
  return editSettingsFile({
    path: kiloConfigPath(options),
    dryRun: options.dryRun,
    change(settings) {
      const plugins = Array.isArray(settings["plugin"]) ? settings["plugin"] : [];
      const remaining = plugins.filter((item) => !isEntry(item, url) && !isToolgateKiloEntry(item));
      if (remaining.length === plugins.length) return settings;
      const { plugin: _plugin, ...rest } = settings;
      return remaining.length > 0 ? { ...rest, plugin: remaining } : rest;
    },
  });
}
