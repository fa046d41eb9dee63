import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { temporaryDirectory } from "../../test/support/temporary-directory.js";
import { openToolgate } from "./open-toolgate.js";

function sandbox(config?: unknown) {
  const root = temporaryDirectory("toolgate-open-");
  const home = join(root, "home");
  const project = join(root, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  if (config !== undefined) writeFileSync(join(project, "toolgate.config.json"), JSON.stringify(config));
  return { home, project, env: { HOME: home, TOOLGATE_DB: join(root, "toolgate.db") } as Record<string, string> };
}

describe("openToolgate", () => {
  it("wires config, policy, store and guard: a config deny rule is recorded in the SQLite store", async () => {
    const { home, project, env } = sandbox({
      permissions: { deny: ["Bash(rm *)"] },
      audit: { logs: { destination: "off" } },
    });
    const opened = await openToolgate({
      host: "test",
      cwd: project,
      env,
      homeDir: home,
      claudeSettings: false,
    });
    const session = opened.guard.session("s1", { interactive: false });
    const result = await session.decide({ toolUseId: "t1", tool: "Bash", input: { command: "rm -rf build" } });
    expect(result.decision).toMatchObject({ behavior: "deny", rule: "Bash(rm *)" });
    await opened.close();
    const again = await openToolgate({
      host: "test",
      cwd: project,
      env,
      homeDir: home,
      claudeSettings: false,
    });
    expect((await again.guard.session("s1", { interactive: false }).state()).total).toBe(1);
    await again.close();
  });

  it("a non-numeric env threshold becomes a warning effect and the default is kept", async () => {
    const { home, project, env } = sandbox({ audit: { logs: { destination: "off" } } });
    const opened = await openToolgate({
      host: "test",
      cwd: project,
      env: { ...env, TOOLGATE_NUDGE_THRESHOLD: "lots" },
      homeDir: home,
      claudeSettings: false,
      state: "memory",
    });
    const session = opened.guard.session("s2", { interactive: false });
    const call = (id: string) => ({ toolUseId: id, tool: "Write", input: { file_path: `/x/${id}` } });
    const first = await session.denied(call("a"), { source: "rule", reason: "no" });
    expect(first.find((effect) => effect.type === "warning")?.message).toContain("TOOLGATE_NUDGE_THRESHOLD");
    expect(first.some((effect) => effect.type === "nudge")).toBe(false);
    const second = await session.denied(call("b"), { source: "rule", reason: "no" });
    expect(second.some((effect) => effect.type === "nudge")).toBe(true);
    await opened.close();
  });

  it("reads the nudge threshold from the env (TOOLGATE_NUDGE_THRESHOLD=3)", async () => {
    const { home, project, env } = sandbox({ audit: { logs: { destination: "off" } } });
    const opened = await openToolgate({
      host: "test",
      cwd: project,
      env: { ...env, TOOLGATE_NUDGE_THRESHOLD: "3" },
      homeDir: home,
      claudeSettings: false,
      state: "memory",
    });
    const session = opened.guard.session("s3", { interactive: false });
    const nudges: boolean[] = [];
    for (const id of ["a", "b", "c"]) {
      const effects = await session.denied(
        { toolUseId: id, tool: "Write", input: { file_path: `/x/${id}` } },
        { source: "rule", reason: "no" },
      );
      nudges.push(effects.some((effect) => effect.type === "nudge"));
    }
    expect(nudges).toEqual([false, false, true]);
    await opened.close();
  });

  it("applies TOOLGATE_DENY_THRESHOLD without any config file (the no-config fast path)", async () => {
    const { home, project, env } = sandbox();
    const opened = await openToolgate({
      host: "test",
      cwd: project,
      env: { ...env, TOOLGATE_DENY_THRESHOLD: "7" },
      homeDir: home,
      claudeSettings: false,
      state: "memory",
    });
    expect(opened.sources).toContain("env:TOOLGATE_DENY_THRESHOLD");
    expect(opened.guard.config.defaultThreshold).toBe(7);
    await opened.close();
  });

  it("a hook's session that must read its records in a new home does not create the SQLite database", async () => {
    const { home, project, env } = sandbox({ audit: { logs: { destination: "off" } } });
    const opened = await openToolgate({ host: "test", cwd: project, env, homeDir: home, claudeSettings: false });
    const session = opened.guard.session("s5", { interactive: false });
    // refusals a transcript shows, for a session with no state: only the store could say which are recorded
    const denial = (toolUseId: string) => ({
      call: { toolUseId, tool: "Bash", input: { command: "git push" } },
      options: { source: "headless" as const, reason: "declined" },
    });
    const effects = await session.deniedUnlessRecorded([denial("t1"), denial("t2")]);
    expect(effects.filter((effect) => effect.type === "record")).toHaveLength(2);
    expect(await session.deniedUnlessRecorded([denial("t1")])).toEqual([]);
    await opened.close();
    // the records wait in the spool for the session's end; the database is created by the first drain, not a read
    expect(existsSync(env["TOOLGATE_DB"] as string)).toBe(false);
  });

  it("records an abort once, and refuses every later call with the same abort (source aborted)", async () => {
    const { home, project, env } = sandbox({
      permissions: { deny: ["Bash(rm *)"] },
      audit: { logs: { destination: "off" } },
    });
    const opened = await openToolgate({ host: "test", cwd: project, env, homeDir: home, claudeSettings: false });
    const session = opened.guard.session("s4", { interactive: false });
    const errors: string[] = [];
    for (let index = 0; index < 4; index++) {
      const result = await session.decide({ toolUseId: `t${index}`, tool: "Bash", input: { command: "rm -rf build" } });
      const abort = result.effects.find((effect) => effect.type === "abort");
      if (abort !== undefined) errors.push(abort.error);
    }
    const later = await session.decide({ toolUseId: "t9", tool: "Bash", input: { command: "ls" } });
    expect(later.decision).toMatchObject({ behavior: "deny", denialSource: "aborted" });
    const repeated = later.effects.find((effect) => effect.type === "abort");
    expect(repeated?.error).toBe(errors[0]);
    await opened.close();
    // the records were spooled (a hook's local-first path); reading drains them into the store first
    const { openDrainedStore } = await import("../store/open-drained-store.js");
    const { store } = await openDrainedStore({ env });
    const rows = await store.denials.query({ sessionId: "s4" });
    const events = await store.denials.queryEvents({ sessionId: "s4", kinds: ["run.aborted"] });
    await store.close();
    expect(events).toHaveLength(1);
    expect(rows.map((row) => row.source)).toEqual(["rule", "rule", "aborted", "aborted", "aborted"]);
    expect(rows.find((row) => row.toolUseId === "t9")?.reason).toBe(errors[0]);
  });
});

describe("openToolgate with the policy built on demand (hook processes)", () => {
  /** a project whose `.claude/settings.json` has a comment: Claude Code ignores it, so the policy warns */
  function commentedSettings() {
    const box = sandbox({ audit: { logs: { destination: "off" } } });
    mkdirSync(join(box.project, ".claude"), { recursive: true });
    writeFileSync(join(box.project, ".claude", "settings.json"), '{\n  // a comment\n  "permissions": {}\n}\n');
    return box;
  }
  const warnings = (effects: readonly { type: string }[]) => effects.filter((effect) => effect.type === "warning");

  it("a prompt builds no policy; the first decision builds it and its warnings go out with it, once", async () => {
    const { home, project, env } = commentedSettings();
    const opened = await openToolgate({ host: "test", cwd: project, env, homeDir: home, policyOnDemand: true });
    const session = opened.guard.session("s1", { interactive: false });
    expect(warnings(await session.turnStarted())).toEqual([]);
    expect(opened.policy.current).toBeUndefined();
    const decided = await session.decide({ toolUseId: "t1", tool: "Bash", input: { command: "ls" } });
    expect(warnings(decided.effects).map((effect) => (effect as { code?: string }).code)).toEqual(["SETTINGS_IGNORED"]);
    expect(opened.policy.current?.warnings.map((warning) => warning.code)).toEqual(["SETTINGS_IGNORED"]);
    const again = await session.decide({ toolUseId: "t2", tool: "Bash", input: { command: "ls" } });
    expect(warnings(again.effects)).toEqual([]);
    await opened.close();
  });

  it("with other warnings to give, it is built at once, so all go out with the session's first step", async () => {
    const { home, project, env } = commentedSettings();
    const opened = await openToolgate({
      host: "test",
      cwd: project,
      env: { ...env, TOOLGATE_NUDGE_THRESHOLD: "lots" },
      homeDir: home,
      policyOnDemand: true,
    });
    expect(opened.policy.current).toBeDefined();
    const first = await opened.guard.session("s1", { interactive: false }).turnStarted();
    expect(warnings(first).map((effect) => (effect as { code?: string }).code)).toEqual(
      expect.arrayContaining(["SETTINGS_IGNORED"]),
    );
    expect(warnings(first).some((effect) => (effect as { message?: string }).message?.includes("TOOLGATE_NUDGE"))).toBe(
      true,
    );
    await opened.close();
  });

  it("by default the policy is built before openToolgate returns", async () => {
    const { home, project, env } = commentedSettings();
    const opened = await openToolgate({ host: "test", cwd: project, env, homeDir: home });
    expect(opened.policy.current?.warnings.map((warning) => warning.code)).toEqual(["SETTINGS_IGNORED"]);
    expect(warnings(await opened.guard.session("s1", { interactive: false }).turnStarted()).length).toBe(1);
    await opened.close();
  });
});
