import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hookHostLoader } from "./hook-hosts.js";
import { drainSpool, runHook } from "./run-hook.js";

let root: string;
let env: Record<string, string | undefined>;
let project: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "toolgate-deferred-drain-"));
  project = join(root, "project");
  mkdirSync(join(root, "home"));
  mkdirSync(join(project, ".claude"), { recursive: true });
  writeFileSync(join(project, ".claude", "settings.json"), JSON.stringify({ permissions: { deny: ["Bash(rm:*)"] } }));
  env = {
    HOME: join(root, "home"),
    TOOLGATE_DB: join(root, "toolgate.db"),
    CLAUDE_CODE_SESSION_ATTENDED: "0",
    CLAUDE_PROJECT_DIR: project,
  };
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const event = (fields: Record<string, unknown>) => JSON.stringify({ session_id: "s1", cwd: project, ...fields });
const denied = event({
  hook_event_name: "PreToolUse",
  tool_name: "Bash",
  tool_input: { command: "rm -rf build" },
  tool_use_id: "toolu_1",
});
const sessionEnd = event({ hook_event_name: "SessionEnd", reason: "other" });

function spooled(): string[] {
  const spool = join(root, "home", ".toolgate", "spool");
  if (!existsSync(spool)) return [];
  return readdirSync(spool, { recursive: true, encoding: "utf8" }).filter((name) => /\.(jsonl|claimed)$/.test(name));
}

async function claudeCode() {
  const load = hookHostLoader("claude-code");
  if (load === undefined) throw new Error("no claude-code hook host");
  return load();
}

async function storedIds(): Promise<string[]> {
  const { openDrainedStore } = await import("../store/open-drained-store.js");
  const drained = await openDrainedStore({ env });
  try {
    return (await drained.store.denials.query({ sessionId: "s1" })).map((row) => row.toolUseId);
  } finally {
    await drained.store.close();
  }
}

describe("SessionEnd's drain handed to another process (deferDrain)", () => {
  it("does not open the store itself; the drain that process runs ships the spooled record", async () => {
    const host = await claudeCode();
    const answer = await runHook(host, { stdinText: denied, env });
    expect(JSON.stringify(answer.output)).toContain('"permissionDecision":"deny"');
    expect(spooled().length).toBeGreaterThan(0);
    const handed: { hostName: string; cwd: string }[] = [];
    await runHook(host, { stdinText: sessionEnd, env, deferDrain: (where) => handed.push(where) });
    // the drain was handed over, with what the other process needs to find the same config and store
    expect(handed).toEqual([{ hostName: "claude-code", cwd: project }]);
    expect(existsSync(join(root, "toolgate.db"))).toBe(false);
    expect(spooled().length).toBeGreaterThan(0);
    // what `toolgate-hook.cjs --drain claude-code <cwd>` runs
    const errors: string[] = [];
    const result = await drainSpool({
      ...handed[0]!,
      env,
      budgetMs: 5_000,
      onError: (message) => errors.push(message),
    });
    expect(errors).toEqual([]);
    expect(result.replayed).toBeGreaterThan(0);
    expect(spooled()).toEqual([]);
    expect(await storedIds()).toEqual(["toolu_1"]);
  });

  it("drains in the hook's own process when handing over fails, or when nothing takes it", async () => {
    const host = await claudeCode();
    await runHook(host, { stdinText: denied, env });
    const errors: string[] = [];
    await runHook(host, {
      stdinText: sessionEnd,
      env,
      onError: (message) => errors.push(message),
      deferDrain: () => {
        throw new Error("no process");
      },
    });
    expect(errors.join("\n")).toMatch(/handing the drain to another process \(draining here\): no process/);
    expect(spooled()).toEqual([]);
    expect(existsSync(join(root, "toolgate.db"))).toBe(true);
    await runHook(host, { stdinText: denied.replace("toolu_1", "toolu_2"), env });
    await runHook(host, { stdinText: sessionEnd, env });
    expect(spooled()).toEqual([]);
    expect((await storedIds()).sort()).toEqual(["toolu_1", "toolu_2"]);
  });
});
