import type { HostInstaller, HostInstallOptions, HostInstallOutcome } from "../host-descriptor.js";
import { trustCodexHooks } from "./codex-app-server.js";
import { codexHome, isTrustedCodexProject } from "./codex-execpolicy.js";
import { isToolgateCodexCommand } from "./codex-hooks-file.js";
import { installCodex, uninstallCodex } from "./install-codex.js";

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

/** `toolgate install codex` / `uninstall codex`: hooks.json, then Codex's trust of exactly toolgate's entries. */
export const codexInstaller: HostInstaller = {
  async install(options: HostInstallOptions): Promise<HostInstallOutcome> {
    const cwd = options.cwd ?? process.cwd();
    const env = options.env ?? process.env;
    const outcome = installCodex({ ...options, cwd, env });
    const notes: string[] = [];
    if (options.dryRun) return { ...outcome, notes: ["Dry run: Codex's hook trust was not changed."] };
    notes.push(...(await trustStep({ path: outcome.path, cwd, env: { ...env } })));
    if (options.scope === "project" && !isTrustedCodexProject({ home: codexHome(env), project: cwd })) {
      notes.push(
        `Codex loads a project's .codex/ folder (these hooks and its .rules) only once you trust the project: open \`codex\` in ${cwd} once and trust it, or install with --user.`,
      );
    }
    return { ...outcome, notes };
  },
  uninstall(options: HostInstallOptions): HostInstallOutcome {
    return uninstallCodex({ ...options, cwd: options.cwd ?? process.cwd(), env: options.env ?? process.env });
  },
};
