import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Vitest global setup: the run gets a private temporary directory (TMPDIR, which every worker and every child
 * process that inherits the environment uses through os.tmpdir()), and the run fails, naming each entry, when a
 * test, a helper or the code under test leaves anything in it, or leaves a `toolgate-*` entry in the system's
 * temporary directory (a child given an environment without TMPDIR). The private directory is removed either way;
 * a `toolgate-*` entry in the system's directory is only named, never removed: another test run on this machine may
 * be using it (its `toolgate run` folder), and removing it would break that run.
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
    rmSync(runDirectory, { recursive: true, force: true });
    if (left.length === 0) return;
    // vitest reports an error thrown here but still exits 0, so the guard sets the exit code itself
    process.exitCode = 1;
    process.stderr.write(
      `\ntemp-guard: the tests left ${left.length} temporary entr${left.length === 1 ? "y" : "ies"} behind (those in the run's own directory now removed):\n${left
        .sort()
        .map((entry) => `  ${entry}\n`)
        .join("")}`,
    );
  };
}
