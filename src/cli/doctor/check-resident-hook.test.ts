import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startHookServer } from "../../hook-runtime/hook-server.js";
import { checkResidentHook } from "./check-resident-hook.js";

const TOKEN = "d".repeat(48);
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function home(): { home: string; run: string } {
  const root = mkdtempSync(join(tmpdir(), "toolgate-doctor-resident-"));
  roots.push(root);
  const run = join(root, ".toolgate", "run");
  mkdirSync(run, { recursive: true });
  return { home: root, run };
}

describe("doctor: the resident hook servers", () => {
  it("says nothing where no server ever ran", async () => {
    const root = mkdtempSync(join(tmpdir(), "toolgate-doctor-resident-"));
    roots.push(root);
    expect(await checkResidentHook({ cwd: root, env: {}, home: root })).toEqual([]);
  });

  it("names a running server that answers, a file left by one that is gone, and a live one that does not answer", async () => {
    const { home: homeDir, run } = home();
    const server = await startHookServer({ token: TOKEN, idleMs: 60_000 });
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", () => resolve()));
    try {
      writeFileSync(join(run, "hook-a.server"), `${server.port} ${TOKEN} ${process.pid}\n`);
      writeFileSync(join(run, "hook-b.server"), `1 ${TOKEN} 999999999\n`);
      const port = (silent.address() as { port: number }).port;
      writeFileSync(join(run, "hook-c.server"), `${port} ${TOKEN} ${process.pid}\n`);
      const checks = await checkResidentHook({ cwd: homeDir, env: {}, home: homeDir });
      expect(checks.map((check) => check.status)).toEqual(["ok", "ok", "warn"]);
      expect(checks[0]?.message).toMatch(
        /^running \(pid \d+, 127\.0\.0\.1:\d+\) and answering: .*hook-a\.server \(its log: .*hook-a\.log\)$/,
      );
      expect(checks[1]?.message).toContain("left by a server that is gone");
      expect(checks[2]?.message).toContain("does not answer");
      expect(checks[2]?.fix).toBe(`kill ${process.pid}   # the next hook event starts a new server`);
    } finally {
      await server.close();
      silent.close();
    }
  });
});
