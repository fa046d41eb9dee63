import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { ToolgateError } from "../../core/errors.js";

/**
 * `toolgate install opencode [--project | --user]`: adds the toolgate plugin to opencode's `plugin` list, as a
 * `file://` URL of this toolgate's plugin module (opencode loads file plugins without an npm install).
 * `--project` (default) edits ./opencode.json, `--user` ~/.config/opencode/opencode.json. Idempotent; uninstall
 * removes exactly the entries install adds and keeps every other setting.
 */
export interface OpencodeInstallOptions {
  scope: "project" | "local" | "user";
  dryRun: boolean;
  /** the plugin module URL to install (default: this toolgate's dist/node/opencode-plugin.js) */
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
}

const MARKER = /toolgate.*[/\\]adapters[/\\]opencode[/\\]index\.(js|ts)$/;

export function toolgatePluginUrl(): string {
  return new URL("../../node/opencode-plugin.js", import.meta.url).href;
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

function readConfig(path: string, entry: string): Record<string, unknown> {
  if (!existsSync(path)) return {};
  const text = readFileSync(path, "utf8");
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("not an object");
    return parsed as Record<string, unknown>;
  } catch (error) {
    throw new ToolgateError({
      code: "CONFIG_INVALID",
      message: `${path} is not plain JSON (${(error as Error).message}); toolgate will not rewrite it. Add ${JSON.stringify(entry)} to its "plugin" list yourself.`,
      data: { path },
    });
  }
}

function write(path: string, config: Record<string, unknown>): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.toolgate-${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(config, null, 2)}\n`);
  renameSync(temporary, path);
}

function isToolgateEntry(value: unknown): boolean {
  const spec = Array.isArray(value) ? value[0] : value;
  return typeof spec === "string" && MARKER.test(spec);
}

export function installOpencode(options: OpencodeInstallOptions): OpencodeInstallOutcome {
  const path = opencodeConfigPath(options);
  const entry = options.command ?? toolgatePluginUrl();
  const config = readConfig(path, entry);
  const plugins = Array.isArray(config.plugin) ? [...config.plugin] : [];
  if (plugins.includes(entry)) return { path, changed: false, diff: [], written: false };
  const stale = plugins.filter(isToolgateEntry);
  const next = [...plugins.filter((item) => !isToolgateEntry(item)), entry];
  const diff = [...stale.map((item) => `- plugin ${JSON.stringify(item)}`), `+ plugin ${JSON.stringify(entry)}`];
  if (!options.dryRun) write(path, { ...config, plugin: next });
  return { path, changed: true, diff, written: !options.dryRun };
}

export function uninstallOpencode(options: OpencodeInstallOptions): OpencodeInstallOutcome {
  const path = opencodeConfigPath(options);
  const entry = options.command ?? toolgatePluginUrl();
  if (!existsSync(path)) return { path, changed: false, diff: [], written: false };
  const config = readConfig(path, entry);
  const plugins = Array.isArray(config.plugin) ? config.plugin : [];
  const removed = plugins.filter((item) => item === entry || isToolgateEntry(item));
  if (removed.length === 0) return { path, changed: false, diff: [], written: false };
  const remaining = plugins.filter((item) => !removed.includes(item));
  const { plugin: _plugin, ...rest } = config;
  if (!options.dryRun) write(path, remaining.length > 0 ? { ...rest, plugin: remaining } : rest);
  return {
    path,
    changed: true,
    diff: removed.map((item) => `- plugin ${JSON.stringify(item)}`),
    written: !options.dryRun,
  };
}
