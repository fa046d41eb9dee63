import { chmodSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { readSettingsFile, writeFileKeepingMode } from "../common/settings-file.js";
import type { HostInstaller, HostInstallOptions, HostInstallOutcome } from "../host-descriptor.js";
import { trustCodexHooks } from "./codex-app-server.js";
import { codexHome, isTrustedCodexProject } from "./codex-execpolicy.js";
import { removeHookStateTables, toolgateHookStateKeys } from "./codex-hook-state.js";
import { isToolgateCodexCommand } from "./codex-hooks-file.js";
import { codexHooksPath, installCodex, uninstallCodex } from "./install-codex.js";

/** The Codex binary toolgate asks about hooks: `$TOOLGATE_CODEX_BIN`, else `codex` on PATH. */
export function codexBinary(env: Readonly<Record<string, string | undefined>>): string {
  return env["TOOLGATE_CODEX_BIN"] ?? "codex";
}

/** The one-time step when toolgate cannot establish trust itself. */
export const MANUAL_TRUST_STEP =
  "Codex runs a new hook only after you trust it: open `codex` once in this project and approve toolgate's hooks when it asks (or run `codex exec --dangerously-bypass-hook-trust ...` for a single run). `toolgate doctor` tells whether they are trusted.";

async function trustStep(options: { path: string; cwd: string; env: NodeJS.ProcessEnv }): Promise<string[]> {
  try {
    const { trusted, after } = await trustCodexHooks({
      codex: codexBinary(options.env),
      cwd: options.cwd,
      env: options.env,
      select: (hook) => hook.sourcePath === options.path && isToolgateCodexCommand(hook.command),
    });
    const ours = after.filter((hook) => hook.sourcePath === options.path && isToolgateCodexCommand(hook.command));
    if (ours.length === 0) {
      return [`Codex does not list toolgate's hooks from ${options.path} for ${options.cwd}.`, MANUAL_TRUST_STEP];
    }
    const untrusted = ours.filter((hook) => hook.trustStatus !== "trusted");
    if (untrusted.length > 0)
      return [`Codex still lists ${untrusted.length} of toolgate's hooks as untrusted.`, MANUAL_TRUST_STEP];
    return [
      trusted.length === 0
        ? `Codex already trusts toolgate's ${ours.length} hooks.`
        : `Trusted toolgate's ${trusted.length} hooks through Codex's own interface (codex app-server: hooks/list, then config/batchWrite of hooks.state in ${codexHome(options.env)}/config.toml). Codex asks again if the hook command changes.`,
    ];
  } catch (error) {
    return [`Could not ask Codex about hook trust (${(error as Error).message}).`, MANUAL_TRUST_STEP];
  }
}

/** config.toml's text, or undefined when there is none. */
function readConfigToml(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** The mode bits of `path`, or undefined when it does not exist. */
function modeOf(path: string): number | undefined {
  try {
    return statSync(path).mode & 0o7777;
  } catch {
    return undefined;
  }
}

/**
 * Runs `work` (which lets Codex write its config.toml) and puts config.toml's mode back as it was: Codex writes the
 * file 0600, and a person's 0644 config.toml stays 0644.
 */
async function keepingMode<T>(path: string, work: () => Promise<T>): Promise<T> {
  const mode = modeOf(path);
  try {
    return await work();
  } finally {
    const now = modeOf(path);
    if (mode !== undefined && now !== undefined && now !== mode) chmodSync(path, mode);
  }
}

/**
 * Removes Codex's trust records (`[hooks.state."<key>"]` in config.toml) of the toolgate entries `uninstall` takes out
 * of `hooksPath`: the keys come from hooks.json as it was before. Returns what to tell the person.
 */
function forgetTrust(options: {
  hooksPath: string;
  before: Record<string, unknown>;
  env: Readonly<Record<string, string | undefined>>;
  dryRun: boolean;
}): string[] {
  const keys = toolgateHookStateKeys(options.hooksPath, options.before);
  if (keys.length === 0) return [];
  const configPath = join(codexHome(options.env), "config.toml");
  const text = readConfigToml(configPath);
  if (text === undefined) return [];
  const edited = removeHookStateTables(text, keys);
  if (edited.removed === 0) return [];
  if (options.dryRun)
    return [`Dry run: Codex's trust records of toolgate's ${edited.removed} hooks stay in ${configPath}.`];
  writeFileKeepingMode(configPath, edited.text);
  return [
    `Removed Codex's trust records of toolgate's ${edited.removed} hooks ([hooks.state."..."]) from ${configPath}.`,
  ];
}

/** `toolgate install codex` / `uninstall codex`: hooks.json, then Codex's trust of exactly toolgate's entries. */
export const codexInstaller: HostInstaller = {
  async install(options: HostInstallOptions): Promise<HostInstallOutcome> {
    const cwd = options.cwd ?? process.cwd();
    const env = options.env ?? process.env;
    const outcome = installCodex({ ...options, cwd, env });
    const notes: string[] = [];
    if (options.dryRun) return { ...outcome, notes: ["Dry run: Codex's hook trust was not changed."] };
    const config = join(codexHome(env), "config.toml");
    notes.push(...(await keepingMode(config, () => trustStep({ path: outcome.path, cwd, env: { ...env } }))));
    if (options.scope === "project" && !isTrustedCodexProject({ home: codexHome(env), project: cwd })) {
      notes.push(
        `Codex loads a project's .codex/ folder (these hooks and its .rules) only once you trust the project: open \`codex\` in ${cwd} once and trust it, or install with --user.`,
      );
    }
    return { ...outcome, notes };
  },
  uninstall(options: HostInstallOptions): HostInstallOutcome {
    const cwd = options.cwd ?? process.cwd();
    const env = options.env ?? process.env;
    const hooksPath = codexHooksPath({ scope: options.scope, cwd, env });
    const before = readSettingsFile(hooksPath).settings;
    const outcome = uninstallCodex({ ...options, cwd, env });
    const notes = forgetTrust({ hooksPath, before, env, dryRun: options.dryRun });
    return notes.length === 0 ? outcome : { ...outcome, notes };
  },
};
