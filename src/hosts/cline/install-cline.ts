import { chmodSync, existsSync, readFileSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { ToolgateError } from "../../core/errors.js";
import { lineDiff } from "../common/line-diff.js";
import { writeFileKeepingMode } from "../common/settings-file.js";

/**
 * `toolgate install cline [--user | --project]`: Cline 3.0.x has no list of plugins in a settings file; it loads
 * every plugin module in `~/.cline/plugins/` and `<project>/.cline/plugins/`. Install writes toolgate's own plugin
 * file there, `toolgate.js`, which imports this toolgate's Cline plugin by `file://` URL and forwards each hook;
 * uninstall removes it (and the folders install created, when they are left empty). A `toolgate.js` that is not toolgate's is
 * never overwritten: install sets it aside as `toolgate.js.toolgate-saved` (a name Cline does not load) and
 * uninstall puts it back byte for byte, mode included.
 */
export interface ClineInstallOptions {
  scope: "project" | "local" | "user";
  dryRun: boolean;
  /** the plugin module URL the file imports (default: this toolgate's dist/hosts/cline/cline-plugin.js) */
  command?: string;
  cwd?: string;
  home?: string;
}

export interface ClineInstallOutcome {
  path: string;
  changed: boolean;
  diff: string[];
  written: boolean;
  removed?: boolean;
  notes?: string[];
}

export const PLUGIN_FILE = "toolgate.js";
const SAVED_SUFFIX = ".toolgate-saved";
const HEADER =
  "// toolgate's Cline plugin: written by `toolgate install cline`, removed by `toolgate uninstall cline`.";
const MODULE_LINE = /^const MODULE = ("[^"\n]*hosts\/cline\/cline-plugin\.js");$/m;

export function toolgateClinePluginUrl(): string {
  return new URL("./cline-plugin.js", import.meta.url).href;
}

export function clinePluginPath(options: Pick<ClineInstallOptions, "scope" | "cwd" | "home">): string {
  if (options.scope === "local") {
    throw new ToolgateError({
      code: "CONFIG_INVALID",
      message: "Cline has no local plugins folder; use --project (./.cline/plugins) or --user (~/.cline/plugins).",
    });
  }
  const base = options.scope === "user" ? (options.home ?? homedir()) : (options.cwd ?? process.cwd());
  return join(base, ".cline", "plugins", PLUGIN_FILE);
}

/**
 * The plugin file: Cline loads plugin files through jiti, which hands an imported ES module back wrapped in its
 * namespace (so the file unwraps it); the file imports toolgate lazily and forwards each hook. A toolgate that cannot load refuses every call (fail closed), where a plugin
 * that fails to load would leave Cline running unchecked.
 */
export function pluginFileText(url: string): string {
  return `${HEADER}
const MODULE = ${JSON.stringify(url)};
const loading = import(MODULE).then((module) => (typeof module.default?.name === "string" ? module.default : module.default?.default));
loading.catch(() => undefined);
const refuse = (error) => ({
  skip: true,
  reason: \`[toolgate] toolgate could not load its Cline plugin (\${MODULE}: \${error instanceof Error ? error.message : String(error)}) and blocked this call to be safe. Run \\\`toolgate doctor\\\`.\`,
});
export default {
  name: "toolgate",
  manifest: { capabilities: ["hooks"] },
  async setup(api, context) {
    // a toolgate that cannot load keeps this plugin registered: beforeTool refuses every call
    await (await loading.catch(() => undefined))?.setup(api, context);
  },
  hooks: {
    async beforeRun(context) {
      return (await loading.catch(() => undefined))?.hooks.beforeRun(context);
    },
    async beforeTool(context) {
      let plugin;
      try {
        plugin = await loading;
      } catch (error) {
        return refuse(error);
      }
      return plugin.hooks.beforeTool(context);
    },
    async afterTool(context) {
      return (await loading.catch(() => undefined))?.hooks.afterTool(context);
    },
    async afterRun(context) {
      return (await loading.catch(() => undefined))?.hooks.afterRun(context);
    },
  },
};
`;
}

/** The toolgate module a plugin file toolgate wrote loads, or undefined for any other file. */
export function toolgatePluginModule(text: string): string | undefined {
  const found = MODULE_LINE.exec(text);
  if (found?.[1] === undefined) return undefined;
  const url = JSON.parse(found[1]) as string;
  return text === pluginFileText(url) ? url : undefined;
}

/** Whether a plugin file's text is one toolgate wrote (for any toolgate install). */
export function isToolgatePluginFile(text: string): boolean {
  return toolgatePluginModule(text) !== undefined;
}

function read(path: string): string | undefined {
  return existsSync(path) ? readFileSync(path, "utf8") : undefined;
}

export function installCline(options: ClineInstallOptions): ClineInstallOutcome {
  const path = clinePluginPath(options);
  const text = pluginFileText(options.command ?? toolgateClinePluginUrl());
  const current = read(path);
  if (current === text) return { path, changed: false, diff: [], written: false };
  const foreign = current !== undefined && !isToolgatePluginFile(current);
  const diff = lineDiff({ before: current ?? "", after: text });
  const notes = foreign ? [`${path} was not toolgate's: it is kept as ${path}${SAVED_SUFFIX} until uninstall`] : [];
  if (!options.dryRun) {
    if (foreign) {
      if (existsSync(`${path}${SAVED_SUFFIX}`)) {
        throw new ToolgateError({
          code: "CONFIG_INVALID",
          message: `${path} is not toolgate's and ${path}${SAVED_SUFFIX} exists already; move one of them away, then install again.`,
          data: { path },
        });
      }
      renameSync(path, `${path}${SAVED_SUFFIX}`);
      // the new file takes the set-aside file's mode (a rename keeps the saved one's)
      writeFileKeepingModeOf(path, { text, modeOf: `${path}${SAVED_SUFFIX}` });
    } else writeFileKeepingMode(path, text);
  }
  return { path, changed: true, diff, written: !options.dryRun, ...(notes.length > 0 ? { notes } : {}) };
}

export function uninstallCline(options: ClineInstallOptions): ClineInstallOutcome {
  const path = clinePluginPath(options);
  const current = read(path);
  if (current === undefined || !isToolgatePluginFile(current))
    return { path, changed: false, diff: [], written: false };
  const saved = read(`${path}${SAVED_SUFFIX}`);
  const diff = lineDiff({ before: current, after: saved ?? "" });
  if (!options.dryRun) {
    if (saved !== undefined) renameSync(`${path}${SAVED_SUFFIX}`, path);
    else {
      rmSync(path, { force: true });
      removeEmptyFolder(dirname(path));
      removeEmptyFolder(dirname(dirname(path)));
    }
  }
  return { path, changed: true, diff, written: !options.dryRun, ...(saved === undefined ? { removed: true } : {}) };
}

/** Writes a new file with the mode of another (the file it stands in for). */
function writeFileKeepingModeOf(path: string, options: { text: string; modeOf: string }): void {
  const mode = statSync(options.modeOf).mode & 0o7777;
  writeFileSync(path, options.text, { mode });
  chmodSync(path, mode);
}

function removeEmptyFolder(folder: string): void {
  try {
    rmdirSync(folder);
  } catch {
    // not empty, or not ours to remove: it stays
  }
}
