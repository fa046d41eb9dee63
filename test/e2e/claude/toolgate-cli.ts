/** Runs the built `toolgate` CLI (dist/cli/main.js; `npm test` builds it first) in a workspace. */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

export const TOOLGATE_MAIN = join(import.meta.dirname, "..", "..", "..", "dist", "cli", "main.js");

export function assertBuilt(): void {
  if (!existsSync(TOOLGATE_MAIN)) {
    throw new Error(`${TOOLGATE_MAIN} is missing: run \`npm run build\` before the Claude end-to-end tests.`);
  }
}

/** The argv prefix that runs toolgate: `[node, dist/cli/main.js]`. */
export function toolgateCommand(...args: string[]): string[] {
  return [process.execPath, TOOLGATE_MAIN, ...args];
}

export function runToolgate(options: { args: string[]; cwd: string; env?: Record<string, string>; input?: string }) {
  const result = spawnSync(process.execPath, [TOOLGATE_MAIN, ...options.args], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    input: options.input ?? "",
    encoding: "utf8",
    timeout: 30_000,
  });
  return { exitCode: result.status, stdout: result.stdout, stderr: result.stderr };
}
