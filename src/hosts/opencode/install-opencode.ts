import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { ToolgateError } from "../../core/errors.js";
import { editJsonText, parseJsonc } from "../common/json-file-edit.js";
import { writeSettingsEdit } from "../common/settings-file.js";

/**
 * `toolgate install opencode [--project | --user]`: adds the toolgate plugin to opencode's `plugin` list, as a
 * `file://` URL of this toolgate's plugin module (opencode loads file plugins without an npm install).
 * `--project` (default) edits ./opencode.json, `--user` ~/.config/opencode/opencode.json. Idempotent; uninstall
 * removes exactly the entries install adds and keeps every other setting. The file is edited in place (JSON or
 * JSONC): only the `plugin` list changes, every other line keeps its formatting and comments.
 */
export interface OpencodeInstallOptions {
  scope: "project" | "local" | "user";
  dryRun: boolean;
  /** the plugin module URL to install (default: this toolgate's dist/hosts/opencode/opencode-plugin.js) */
  command?: string;
  /** project directory (default: the current directory) */
  cwd?: string;
  /** home directory (default: os.homedir()) */
  home?: string;
}

export interface OpencodeInstallOutcome {
  path: string;
  changed: boolean;
  diff: string[];
  written: boolean;
  /** the file was deleted: it held nothing but toolgate's plugin entry */
  removed?: boolean;
}

/** toolgate's plugin module wherever it is installed (this layout and the earlier adapters/opencode/index one). */
const MARKER =
  /toolgate.*[/\\](node[/\\]opencode-plugin|hosts[/\\]opencode[/\\]opencode-plugin|adapters[/\\]opencode[/\\]index)\.(js|ts)$/;

export function toolgatePluginUrl(): string {
  return new URL("./opencode-plugin.js", import.meta.url).href;
}

export function opencodeConfigPath(options: Pick<OpencodeInstallOptions, "scope" | "cwd" | "home">): string {
  if (options.scope === "local") {
    throw new ToolgateError({
      code: "CONFIG_INVALID",
      message: "opencode has no local settings file; use --project (./opencode.json) or --user.",
    });
  }
  const directory =
    options.scope === "user" ? join(options.home ?? homedir(), ".config", "opencode") : (options.cwd ?? process.cwd());
  const jsonc = join(directory, "opencode.jsonc");
  return existsSync(jsonc) ? jsonc : join(directory, "opencode.json");
}

/** Reads opencode.json(c); `{}` when missing or empty; CONFIG_INVALID (mentioning `entry`) when not an object. */
export function readConfig(path: string, entry: string): { text: string; config: Record<string, unknown> } {
  if (!existsSync(path)) return { text: "", config: {} };
  const text = readFileSync(path, "utf8");
  if (text.trim() === "") return { text, config: {} };
  try {
    const parsed = parseJsonc(text);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("not an object");
    return { text, config: parsed as Record<string, unknown> };
  } catch (error) {
    throw new ToolgateError({
      code: "CONFIG_INVALID",
      message: `${path} is not valid JSON or JSONC (${(error as Error).message}); toolgate will not rewrite it. Fix it, or add ${JSON.stringify(entry)} to its "plugin" list yourself.`,
      data: { path },
    });
  }
}

/**
 * Edits the file to `next` (only what differs), writes it atomically keeping its mode unless dry-run, and returns
 * the real diff; a file that held nothing but what install wrote into a new file is deleted (`writeSettingsEdit`).
 */
function apply(
  path: string,
  current: { text: string; config: Record<string, unknown> },
  next: Record<string, unknown>,
  dryRun: boolean,
): OpencodeInstallOutcome {
  const nextText = editJsonText({ text: current.text, before: current.config, after: next });
  return writeSettingsEdit({
    path,
    dryRun,
    before: { text: current.text, value: current.config },
    after: { text: nextText, value: next },
  });
}

/** Whether a `plugin` list item is toolgate's plugin module (any install location). */
export function isToolgateEntry(value: unknown): boolean {
  const spec = Array.isArray(value) ? value[0] : value;
  return typeof spec === "string" && MARKER.test(spec);
}

export function installOpencode(options: OpencodeInstallOptions): OpencodeInstallOutcome {
  const path = opencodeConfigPath(options);
  const entry = options.command ?? toolgatePluginUrl();
  const current = readConfig(path, entry);
  const plugins = Array.isArray(current.config.plugin) ? [...current.config.plugin] : [];
  if (plugins.includes(entry)) return { path, changed: false, diff: [], written: false };
  const next = [...plugins.filter((item) => !isToolgateEntry(item)), entry];
  return apply(path, current, { ...current.config, plugin: next }, options.dryRun);
}

export function uninstallOpencode(options: OpencodeInstallOptions): OpencodeInstallOutcome {
  const path = opencodeConfigPath(options);
  const entry = options.command ?? toolgatePluginUrl();
  if (!existsSync(path)) return { path, changed: false, diff: [], written: false };
  const current = readConfig(path, entry);
  const plugins = Array.isArray(current.config.plugin) ? current.config.plugin : [];
  const removed = plugins.filter((item) => item === entry || isToolgateEntry(item));
  if (removed.length === 0) return { path, changed: false, diff: [], written: false };
  const remaining = plugins.filter((item) => !removed.includes(item));
  const { plugin: _plugin, ...rest } = current.config;
  return apply(path, current, remaining.length > 0 ? { ...rest, plugin: remaining } : rest, options.dryRun);
}
