import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Vitest global setup: the run gets a private temporary directory (TMPDIR, which every worker and every child
 * process that inherits the environment uses through os.tmpdir()), and the run fails, naming each entry, when a
 * test, a helper or the code under test leaves anything in it. The directory is removed either way.
 */
export default function temporaryDirectoryGuard(): () => void {
  const runDirectory = mkdtempSync(join(tmpdir(), "toolgate-test-run-"));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = runDirectory;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    const left = readdirSync(runDirectory);
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
