import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { acquireSessionLock } from "./session-lock.js";

let root: string | undefined;
afterEach(() => {
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

describe("acquireSessionLock", () => {
  it("names its holder by pid and os.hostname(), as every other toolgate process compares it", async () => {
    root = mkdtempSync(join(tmpdir(), "toolgate-lock-"));
    const path = join(root, "s.lock");
    const held = await acquireSessionLock({ path, sessionId: "s" });
    expect(JSON.parse(readFileSync(path, "utf8"))).toMatchObject({ pid: process.pid, host: hostname() });
    held.release();
  });
});
