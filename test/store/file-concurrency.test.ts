import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionState } from "../../src/core/state.js";
import { createFileSessionStateStore } from "../../src/store/file/file-session-state-store.js";
import { bundleScript } from "./bundle-script.js";
import { runWorkers } from "./run-workers.js";

interface Counter {
  count: number;
  perWorker: Record<string, number>;
}

/**
 * The file state store under real concurrent processes (Claude Code runs one toolgate process per hook event):
 * exclusive lock file + write-temp-and-rename must lose no update.
 */
let script: string;
const roots: string[] = [];
beforeAll(async () => {
  script = await bundleScript(join(import.meta.dirname, "state-worker.ts"));
});
afterAll(() => {
  rmSync(dirname(script), { recursive: true, force: true });
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});
const stateDirectory = () => {
  const root = mkdtempSync(join(tmpdir(), "toolgate-file-concurrency-"));
  roots.push(root);
  return join(root, "state");
};

describe("file state store under 8 concurrent processes", () => {
  it("counts 8 × 50 updates of one session exactly, and leaves no lock or temporary file", {
    timeout: 120_000,
  }, async () => {
    const directory = stateDirectory();
    await runWorkers({ script, count: 8, args: (index) => ["file", directory, "shared", "50", `w${index}`] });
    const store = createFileSessionStateStore<Counter>({ directory });
    const result = await store.get("shared");
    expect(result?.state.count).toBe(400);
    expect(result?.version).toBe(400);
    expect(Object.values(result!.state.perWorker)).toEqual(Array(8).fill(50));
    expect(readdirSync(directory)).toEqual(["s-shared.json"]);
  });

  it("ends with the core's state.total equal to every call.denied sent (8 × 50 reducer steps)", {
    timeout: 120_000,
  }, async () => {
    const directory = stateDirectory();
    process.env.TOOLGATE_WORKER_MODE = "step";
    try {
      await runWorkers({ script, count: 8, args: (index) => ["file", directory, "stepped", "50", `w${index}`] });
    } finally {
      delete process.env.TOOLGATE_WORKER_MODE;
    }
    const result = await createFileSessionStateStore<SessionState>({ directory }).get("stepped");
    expect(result?.state.total).toBe(400);
    expect(result?.state.agents.main?.tools.Bash?.total).toBe(400);
    expect(result?.version).toBe(400);
  });
});
