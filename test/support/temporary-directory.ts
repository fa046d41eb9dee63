import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const created = new Set<string>();

/**
 * A new directory under the run's temporary directory, removed with everything in it after the test file that
 * made it (by test/support/remove-temporary-directories.ts, a vitest setup file): a test or helper that calls this
 * needs no cleanup of its own.
 */
export function temporaryDirectory(prefix: string): string {
  const directory = mkdtempSync(join(tmpdir(), prefix));
  created.add(directory);
  return directory;
}

/** Removes every directory `temporaryDirectory` made in this test file. */
export function removeTemporaryDirectories(): void {
  for (const directory of created) rmSync(directory, { recursive: true, force: true, maxRetries: 3 });
  created.clear();
}
