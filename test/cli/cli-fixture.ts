import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { temporaryDirectory } from "../support/temporary-directory.js";

export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
export const cliPath = join(repoRoot, "dist/cli/main.js");

/** Builds dist/ once when a test run starts without it. */
export function ensureBuilt(): void {
  if (!existsSync(cliPath)) spawnSync("npm", ["run", "build", "--silent"], { cwd: repoRoot, stdio: "inherit" });
}

/** A temporary HOME and project directory with the given files (paths relative to the fixture root). */
export function makeFixture(files: Record<string, unknown>): { root: string; home: string; project: string } {
  const root = temporaryDirectory("toolgate-cli-");
  const home = join(root, "home");
  const project = join(root, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  for (const [path, content] of Object.entries(files)) {
    const file = join(root, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  }
  return { root, home, project };
}

export function runCli(args: string[], options: { cwd: string; home: string; env?: Record<string, string> }) {
  const result = spawnSync(process.execPath, [cliPath, ...args], {
    cwd: options.cwd,
    // TMPDIR too: what the CLI puts in the temporary directory (`run`'s socket folder) lands in the run's own one
    env: { PATH: process.env.PATH ?? "", HOME: options.home, TMPDIR: tmpdir(), ...options.env },
    encoding: "utf8",
    // a command that wrongly keeps running (e.g. `tail` following because a flag was ignored) fails, not hangs
    timeout: 20_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
