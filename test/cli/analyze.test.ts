import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, makeFixture, repoRoot, runCli } from "./cli-fixture.js";

beforeAll(ensureBuilt);

const fixture = makeFixture({});
afterAll(() => rmSync(fixture.root, { recursive: true, force: true }));
const cli = (args: string[]) =>
  runCli(args, { cwd: fixture.project, home: fixture.home, env: { TOOLGATE_DB: join(fixture.root, "t.db") } });

describe("toolgate analyze (the built CLI, a temporary HOME)", () => {
  it("with no path and no agent history: names the locations it searched, exit 0", () => {
    const run = cli(["analyze"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("No agent history found on this machine. Searched:");
    expect(run.stdout).toContain(join(fixture.home, ".claude", "projects"));
    expect(run.stderr).toBe("");
  });

  it("--save, then `toolgate report` shows the past session", () => {
    const transcript = join(repoRoot, "test/fixtures/transcripts/codex/stubborn.rollout.jsonl");
    expect(cli(["analyze", transcript, "--save"]).status).toBe(0);
    const report = cli(["report", "--since", "3650d", "--json"]);
    expect(report.status).toBe(0);
    expect(JSON.parse(report.stdout)).toMatchObject({ total: 3, sessions: 1 });
  });

  it("a path that matches nothing: one sentence on stderr, exit 2", () => {
    const run = cli(["analyze", "no-such-file.jsonl"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^toolgate analyze: No file matches no-such-file\.jsonl\./);
  });
});
