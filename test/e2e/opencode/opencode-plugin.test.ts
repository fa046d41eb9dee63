import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import { createSqliteStore } from "../../../src/store/sqlite/sqlite-store.js";
import { temporaryDirectory } from "../../support/temporary-directory.js";
import { bash, sequenceScript, startFakeOpenAI, stubbornScript, toolStep } from "./fake-openai.js";
import { serveOpencode } from "./run-opencode.js";
import {
  notesIn,
  PLUGIN_SOURCE,
  pluginWithOptions,
  requireBuiltCli,
  runScenario,
  TOOLGATE_CLI,
  toolResultsIn,
} from "./scenario.js";

/**
 * The toolgate plugin inside the real opencode 1.18.33 binary, against the scripted fake model. Every assertion
 * reads what the model was actually sent (the fake server's request log) or what toolgate stored.
 */
const denyRm = { bash: { "*": "allow", "rm *": "deny", "rmdir *": "deny" } };
const files = { "victim/keep.txt": "keep", "not-executable.sh": "#!/bin/sh\necho hi\n" };
const NUDGE = "Several tool calls have been denied";

async function storedRun(database: string) {
  const store = await createSqliteStore({ filename: database });
  try {
    const records = await store.denials.query();
    const events = await store.denials.queryEvents();
    return { records, events };
  } finally {
    await store.close();
  }
}

describe("toolgate plugin in the real opencode binary", () => {
  test("two rule-denied calls: exactly one nudge, in the model's very next request (seed defects 2 and 3: no tool.execute.after for denials, busy status between them does not reset)", async () => {
    const { run, conversations, database } = await runScenario({
      script: sequenceScript([toolStep(bash("rm -rf victim")), toolStep(bash("rmdir victim"))]),
      permission: denyRm,
      files,
    });
    expect(run.timedOut).toBe(false);
    expect(conversations).toHaveLength(3);
    // after the first denial: no nudge (a single denial never nudges)
    expect(notesIn(conversations[1] ?? [])).toEqual([]);
    // after the second: one nudge, placed after the second tool result
    const notes = notesIn(conversations[2] ?? []);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain(NUDGE);
    const last = conversations[2] ?? [];
    expect(last.at(-1)?.role).toBe("user");
    expect(last.at(-2)?.role).toBe("tool");
    const { records } = await storedRun(database);
    expect(records.map((record) => [record.source, record.rule])).toEqual([
      ["rule", 'bash "rm *": deny'],
      ["rule", 'bash "rmdir *": deny'],
    ]);
  }, 180_000);

  test("threshold from OPENCODE_DENY_THRESHOLD: 3 means two denials do not nudge", async () => {
    const { conversations } = await runScenario({
      script: sequenceScript([toolStep(bash("rm -rf victim")), toolStep(bash("rmdir victim"))]),
      permission: denyRm,
      files,
      env: { OPENCODE_DENY_THRESHOLD: "3" },
    });
    expect(conversations).toHaveLength(3);
    expect(conversations.flatMap(notesIn)).toEqual([]);
  }, 180_000);

  test("a non-numeric threshold is ignored with a warning and the default (2) applies", async () => {
    const { run, conversations } = await runScenario({
      script: sequenceScript([toolStep(bash("rm -rf victim")), toolStep(bash("rmdir victim"))]),
      permission: denyRm,
      files,
      env: { OPENCODE_DENY_THRESHOLD: "two" },
    });
    expect(run.stderr).toContain('OPENCODE_DENY_THRESHOLD="two" is not a positive whole number');
    expect(notesIn(conversations[2] ?? [])).toHaveLength(1);
  }, 180_000);

  test("a successful call between two denials resets the streak: no nudge", async () => {
    const { conversations } = await runScenario({
      script: sequenceScript([
        toolStep(bash("rm -rf victim")),
        toolStep(bash("echo ok")),
        toolStep(bash("rmdir victim")),
      ]),
      permission: denyRm,
      files,
    });
    expect(conversations).toHaveLength(4);
    expect(toolResultsIn(conversations[3] ?? [])[1]).toContain("ok");
    expect(conversations.flatMap(notesIn)).toEqual([]);
  }, 180_000);

  test("stubborn model: escalating guidance in the tool text, then toolgate blocks in tool.execute.before and stops the run", async () => {
    const plugin = pluginWithOptions('{ core: { headlessStrategy: "fallback" } }');
    const { conversations, run, database } = await runScenario({
      script: stubbornScript({ call: bash("rm -rf victim"), maxAttempts: 12 }),
      permission: denyRm,
      files,
      plugin,
    });
    const results = toolResultsIn(conversations.at(-1) ?? []);
    // soft, then escalated (fallback), then the hard stage
    expect(results[0]).toContain("[toolgate] Denied by rule");
    expect(results[1]).toContain("is not available in this run");
    expect(results[3]).toContain("[toolgate] STOP.");
    // toolgate's own block: the loop detector's block level, thrown in tool.execute.before (no opencode rule text)
    const blocked = results.findIndex((text) => text.startsWith("[toolgate] Blocked"));
    expect(blocked).toBeGreaterThan(3);
    expect(results[blocked]).not.toContain("The user has specified a rule");
    expect(results.length).toBeLessThan(12);
    const { events } = await storedRun(database);
    expect(events.map((event) => event.kind)).toContain("run.aborted");
    expect(run.stderr).toContain("toolgate stopped the run");
  }, 180_000);

  test("ask + headless reject (seed defect 1: the reply is `reject`, never `deny`): opencode exits 0, toolgate records an abort and names the rule", async () => {
    const { run, database, conversations } = await runScenario({
      script: sequenceScript([toolStep(bash("rm -rf victim"))]),
      permission: { bash: { "*": "allow", "rm *": "ask" } },
      files,
    });
    expect(run.exitCode).toBe(0); // opencode itself reports success, with nothing on stdout
    expect(conversations).toHaveLength(1); // the session stopped after the reject
    const { records, events } = await storedRun(database);
    expect(records.map((record) => record.source)).toEqual(["headless"]);
    const aborts = events.filter((event) => event.kind === "run.aborted");
    expect(aborts.map((event) => event.detail.reason)).toEqual(["host-stopped"]);
    expect(run.stderr).toContain('toolgate: opencode run auto-rejected bash "rm -rf victim" (pattern "rm *")');
    expect(run.stderr).toContain('"permission": { "bash": { "rm *": "allow" } }');
  }, 180_000);

  test("a reject that also rejects the other pending ask counts each call once", async () => {
    const { run, database } = await runScenario({
      script: sequenceScript([toolStep(bash("rm -rf victim"), bash("rm -rf victim/keep.txt"))]),
      permission: { bash: { "*": "allow", "rm *": "ask" } },
      files,
    });
    const { records } = await storedRun(database);
    expect(records.map((record) => record.toolUseId).sort()).toEqual(["call_2_0", "call_2_1"]);
    expect(run.stderr.match(/opencode run auto-rejected/g)).toHaveLength(1);
  }, 180_000);
});

describe("a new user message", () => {
  test("resets the streak: a denial in each of two turns does not nudge (opencode serve, one plugin instance)", async () => {
    const fake = await startFakeOpenAI(
      sequenceScript([
        toolStep(bash("rm -rf victim")),
        { kind: "text", text: "FINAL: turn one done." },
        toolStep(bash("rmdir victim")),
        { kind: "text", text: "FINAL: turn two done." },
      ]),
    );
    const database = join(temporaryDirectory("toolgate-opencode-db-"), "toolgate.db");
    const server = await serveOpencode({
      fake,
      permission: denyRm,
      files,
      plugins: [PLUGIN_SOURCE],
      env: { TOOLGATE_DB: database },
    });
    try {
      const sessionId = await server.createSession();
      await server.prompt(sessionId, "First, clean up");
      await server.prompt(sessionId, "Now try again");
      const conversations = fake.agentRequests().map((request) => request.body.messages ?? []);
      expect(conversations).toHaveLength(4);
      expect(conversations.map((conversation) => toolResultsIn(conversation).length)).toEqual([0, 1, 1, 2]);
      expect(conversations.flatMap(notesIn).filter((note) => note.includes(NUDGE))).toEqual([]);
    } finally {
      await server.close();
      await fake.close();
    }
    const { records } = await storedRun(database);
    expect(records.map((record) => record.turn)).toEqual([1, 2]);
  }, 180_000);
});

describe("subagents", () => {
  test("a denial inside a task subagent is recorded in the parent session under the subagent's id", async () => {
    const subtask = "SUBTASK: remove the victim directory";
    const parent = sequenceScript([
      toolStep({ tool: "task", args: { description: "Remove victim", prompt: subtask, subagent_type: "general" } }),
    ]);
    const child = sequenceScript([toolStep(bash("rm -rf victim"))], "FINAL: the subagent could not remove it.");
    const { database, conversations } = await runScenario({
      script: (request) =>
        JSON.stringify(request.messages ?? []).includes(subtask) &&
        !JSON.stringify(request.messages ?? []).includes('"task"')
          ? child(request)
          : parent(request),
      permission: denyRm,
      files,
    });
    expect(conversations.length).toBeGreaterThanOrEqual(3);
    const { records } = await storedRun(database);
    expect(records).toHaveLength(1);
    expect(records[0]?.agentId).toMatch(/^ses_/);
    expect(records[0]?.agentId).not.toBe(records[0]?.sessionId);
  }, 180_000);
});

describe("toolgate config in the project", () => {
  test("per-denial hooks from toolgate.config.json fire for opencode's denials", async () => {
    const hookLog = join(temporaryDirectory("toolgate-opencode-hook-"), "hook.jsonl");
    const config = {
      audit: { hooks: [{ command: `cat >> ${hookLog}; echo >> ${hookLog}` }], logs: { destination: "off" } },
    };
    await runScenario({
      script: sequenceScript([toolStep(bash("rm -rf victim")), toolStep(bash("rmdir victim"))]),
      permission: denyRm,
      files: { ...files, "toolgate.config.json": JSON.stringify(config) },
    });
    const payloads = readFileSync(hookLog, "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const text = JSON.stringify(payloads);
    expect(text).toContain("rm -rf victim");
    expect(text).toContain("rmdir victim");
  }, 180_000);
});

describe("OS-level failures in bash output", () => {
  test("an EACCES in bash output counts toward the nudge", async () => {
    const { conversations, database } = await runScenario({
      script: sequenceScript([toolStep(bash("./not-executable.sh")), toolStep(bash("rm -rf victim"))]),
      permission: denyRm,
      files,
    });
    expect(toolResultsIn(conversations[1] ?? [])[0]).toContain("Permission denied");
    const notes = notesIn(conversations[2] ?? []);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain("operating-system permission errors");
    const { records } = await storedRun(database);
    expect(records.map((record) => record.source)).toEqual(["sandbox", "rule"]);
  }, 180_000);

  test("a search with no match (exit 1; rg is not installed here, grep behaves the same) does not count", async () => {
    const { conversations, database } = await runScenario({
      script: sequenceScript([toolStep(bash("grep -r no-such-text-anywhere .")), toolStep(bash("rm -rf victim"))]),
      permission: denyRm,
      files,
    });
    expect(conversations).toHaveLength(3);
    expect(conversations.flatMap(notesIn)).toEqual([]);
    const { records } = await storedRun(database);
    expect(records.map((record) => record.source)).toEqual(["rule"]);
  }, 180_000);
});

describe("toolgate run -- opencode run", () => {
  test("a toolgate abort (stubborn model, headless) makes `toolgate run` exit 6 with the reason", async () => {
    requireBuiltCli();
    const { run, conversations } = await runScenario({
      script: stubbornScript({ call: bash("rm -rf victim"), maxAttempts: 12 }),
      permission: denyRm,
      files,
      wrapper: ["node", TOOLGATE_CLI, "run", "--"],
    });
    expect(run.exitCode).toBe(6);
    expect(conversations.length).toBeLessThan(4);
    expect(run.stderr).toContain("toolgate aborted the run: bash was denied 2 times");
  }, 180_000);

  test("an ask rejected headless (opencode exits 0) makes `toolgate run` exit non-zero", async () => {
    requireBuiltCli();
    const { run } = await runScenario({
      script: sequenceScript([toolStep(bash("rm -rf victim"))]),
      permission: { bash: { "*": "allow", "rm *": "ask" } },
      files,
      wrapper: ["node", TOOLGATE_CLI, "run", "--"],
    });
    expect(run.exitCode).toBe(5);
    expect(run.stderr).toContain("toolgate run: 1 denied call");
  }, 180_000);
});

describe("toolgate install opencode", () => {
  test("the installed plugin entry (built dist) loads in opencode and nudges", async () => {
    requireBuiltCli();
    const installs: string[] = [];
    const { conversations } = await runScenario({
      script: sequenceScript([toolStep(bash("rm -rf victim")), toolStep(bash("rmdir victim"))]),
      permission: denyRm,
      files,
      plugin: false,
      prepare: ({ projectDir }) => {
        const result = spawnSync("node", [TOOLGATE_CLI, "install", "opencode", "--project"], {
          cwd: projectDir,
          encoding: "utf8",
        });
        installs.push(result.stdout, result.stderr);
        expect(result.status).toBe(0);
        const config = JSON.parse(readFileSync(join(projectDir, "opencode.json"), "utf8")) as { plugin: string[] };
        expect(config.plugin).toEqual([
          pathToFileURL(join(dirname(TOOLGATE_CLI), "..", "hosts", "opencode", "opencode-plugin.js")).href,
        ]);
      },
    });
    expect(installs.join("")).toContain("opencode.json");
    expect(notesIn(conversations[2] ?? [])).toHaveLength(1);
  }, 180_000);
});
