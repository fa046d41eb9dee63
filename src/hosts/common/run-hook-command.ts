import { spawnSync } from "node:child_process";

/** How long doctor waits for a hook command to answer. */
export const HOOK_COMMAND_TIMEOUT_MS = 5_000;

export type CommandProbe = { ok: true; version: string } | { ok: false; reason: string };

/**
 * Runs a toolgate hook command the way the host would (through the shell), with `--version` in place of its
 * `hook <host>` arguments: it proves the command starts this toolgate without sending an event or writing a record.
 */
export function probeHookCommand(command: string, env: Readonly<Record<string, string | undefined>>): CommandProbe {
  const versionCommand = command.trim().replace(/hook\s+[\w-]+\s*$/, "--version");
  const result = spawnSync(versionCommand, {
    shell: true,
    encoding: "utf8",
    timeout: HOOK_COMMAND_TIMEOUT_MS,
    env: env as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (result.error !== undefined) {
    const timedOut = (result.error as NodeJS.ErrnoException).code === "ETIMEDOUT";
    return {
      ok: false,
      reason: timedOut ? `it did not answer within ${HOOK_COMMAND_TIMEOUT_MS / 1000} s` : result.error.message,
    };
  }
  const output = result.stdout.trim();
  if (result.status === 0 && /^\d+\.\d+\.\d+/.test(output)) return { ok: true, version: output };
  const detail = (result.stderr.trim().split("\n")[0] ?? "") || output.split("\n")[0] || "no output";
  return { ok: false, reason: `\`${versionCommand}\` exited ${result.status ?? result.signal}: ${detail}` };
}
