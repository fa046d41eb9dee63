import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Vitest global setup: the run gets a private temporary directory (TMPDIR, which every worker and every child
 * process that inherits the environment uses through os.tmpdir()), and the run fails, naming each entry, when a
 * test, a helper or the code under test leaves anything in it, or leaves a `toolgate-*` entry in the system's
 * temporary directory (a child given an environment without TMPDIR). Both are removed either way.
 */
export default function temporaryDirectoryGuard(): () => void {
  const system = tmpdir();
  // a child spawned with an environment of its own (no TMPDIR) writes to the system's directory instead: toolgate's
  // folders that appear there during the run and stay are left behind too
  const strays = () =>
    readdirSync(system).filter((name) => /^toolgate-/.test(name) && !/^toolgate-test-run-/.test(name));
  const before = new Set(strays());
  const runDirectory = mkdtempSync(join(system, "toolgate-test-run-"));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = runDirectory;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    const left = [
      ...readdirSync(runDirectory),
      ...strays()
        .filter((name) => !before.has(name))
        .map((name) => join(system, name)),
    ];
    for (const entry of left) if (entry.startsWith(system)) rmSync(entry, { recursive: true, force: true });
    rmSync(runDirectory, { recursive: true, force: true });
    if (left.length === 0) return;
    // vitest reports an error thrown here but still exits 0, so the guard sets the exit code itself
    process.exitCode = 1;
    process.stderr.write(
      `\ntemp-guard: the tests left ${left.length} temporary entr${left.length === 1 ? "y" : "ies"} behind (now removed):\n${left
        .sort()
        .map((entry) => `  ${entry}\n`)
        .join("")}`,
    );
  };
}
