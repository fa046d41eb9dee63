/**
 * Runs the built `toolgate` CLI (`npm test` builds dist/ first) in a workspace. Each test worker runs a private
 * snapshot of dist/ (node_modules linked), so a rebuild of dist/ while the suite runs cannot change the code the
 * hooks execute half-way through a scenario.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { temporaryDirectory } from "../../support/temporary-directory.js";

const REPOSITORY = join(import.meta.dirname, "..", "..", "..");
const BUILT_MAIN = join(REPOSITORY, "dist", "cli", "main.js");

let snapshotMain: string | undefined;
let snapshotRoot: string | undefined;

function snapshot(): string {
  if (snapshotMain !== undefined) return snapshotMain;
  const root = temporaryDirectory("toolgate-dist-");
  cpSync(join(REPOSITORY, "dist"), join(root, "dist"), { recursive: true });
  cpSync(join(REPOSITORY, "package.json"), join(root, "package.json"));
  symlinkSync(join(REPOSITORY, "node_modules"), join(root, "node_modules"), "dir");
  snapshotRoot = root;
  snapshotMain = join(root, "dist", "cli", "main.js");
  return snapshotMain;
}

export function assertBuilt(): void {
  if (!existsSync(BUILT_MAIN)) {
    throw new Error(`${BUILT_MAIN} is missing: run \`npm run build\` before the Claude end-to-end tests.`);
  }
  snapshot();
}

/** The argv prefix that runs toolgate: `[node, <snapshot>/dist/cli/main.js]`. */
export function toolgateCommand(...args: string[]): string[] {
  return [process.execPath, snapshot(), ...args];
}

export function runToolgate(options: { args: string[]; cwd: string; env?: Record<string, string>; input?: string }) {
  const result = spawnSync(process.execPath, [snapshot(), ...options.args], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    input: options.input ?? "",
    encoding: "utf8",
    timeout: 30_000,
  });
  return { exitCode: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Removes this worker's snapshot now (it is removed after the test file in any case: temporaryDirectory). */
export function removeSnapshot(): void {
  if (snapshotRoot !== undefined) rmSync(snapshotRoot, { recursive: true, force: true });
  snapshotRoot = undefined;
  snapshotMain = undefined;
}
