import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { DenialStore } from "../../src/store/ports.js";
import { createSpooledDenialStore } from "../../src/store/spooled-denial-store.js";

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

describe("closing a spooled denial store", () => {
  it("does not wait for an open that never completes, and closes the store if it ever does", async () => {
    const spoolDirectory = mkdtempSync(join(tmpdir(), "toolgate-spooled-close-"));
    directories.push(spoolDirectory);
    let finishOpen: ((store: DenialStore) => void) | undefined;
    let closed = 0;
    const store = createSpooledDenialStore({
      spoolDirectory,
      mode: "spool-first",
      timeoutMs: 60_000,
      open: () =>
        new Promise<DenialStore>((resolve) => {
          finishOpen = resolve;
        }),
    });
    const reading = store.query({}).catch(() => undefined); // opens the store (a server that never answers)
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(finishOpen).toBeDefined();
    const outcome = await Promise.race([
      store.close().then(() => "closed"),
      new Promise((resolve) => setTimeout(() => resolve("still waiting"), 2_000)),
    ]);
    expect(outcome).toBe("closed");
    finishOpen?.({
      close: async () => {
        closed += 1;
      },
    } as unknown as DenialStore);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(closed).toBeGreaterThanOrEqual(1);
    void reading;
  });
});
