/**
 * Every denial recorded once, whatever path it took, with the real binary and the installed hooks:
 * parallel rule denials in one turn, a path-denied Read (no hook fires: recorded from the transcript), a headless
 * ask (PermissionRequest: our message reaches the model verbatim), a subagent's denial (attributed to it and to the
 * parent session), and a command carrying a secret (redacted in the store and in toolgate's per-denial hook
 * payloads, which match the store rows).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDrainedStore } from "../../../src/store/open-drained-store.js";
import type { StoredDenial } from "../../../src/store/ports.js";
import { type FakeAnthropic, firstUserText, startFakeAnthropic } from "./fake-anthropic.js";
import { installHookLogger } from "./hook-logger.js";
import { createWorkspace, runClaude, type Workspace } from "./run-claude.js";
import { bash } from "./scripts.js";
import { assertBuilt, removeSnapshot, runToolgate } from "./toolgate-cli.js";

const SECRET = "ghp_Zx8Yw7Vu6Ts5Rq4Po3Nm2Lk1Jh0Gf9Ed8Cb7A";

describe("Claude Code with toolgate hooks: every denial recorded once", () => {
  let workspace: Workspace;
  let fake: FakeAnthropic;
  let rows: StoredDenial[];
  let auditPayloads: Record<string, unknown>[];
  let claudePayloads: Record<string, unknown>[];
  let exitCode: number | null;

  beforeAll(async () => {
    assertBuilt();
    workspace = createWorkspace();
    const database = join(workspace.root, "toolgate.db");
    const auditLog = join(workspace.root, "denial-hooks.jsonl");
    writeFileSync(auditLog, "");
    workspace.writeFile("secret.env", `TOKEN=${SECRET}\n`);
    workspace.writeFile(
      "toolgate.config.json",
      JSON.stringify({
        escalation: { defaultThreshold: 20, headlessStrategy: "fallback" },
        audit: { hooks: [{ command: `cat >> '${auditLog}'` }], logs: { destination: "off" } },
      }),
    );
    // a logger next to toolgate's hooks, to compare what Claude Code sent with what toolgate stored
    const logger = installHookLogger(workspace);
    workspace.writeProjectSettings({
      permissions: { deny: ["Bash(rm:*)", "Read(./secret.env)"] },
      hooks: { PreToolUse: logger.hooks.PreToolUse },
    });
    const env = { TOOLGATE_DB: database, HOME: workspace.home };
    expect(runToolgate({ args: ["install", "claude-code"], cwd: workspace.project, env }).exitCode).toBe(0);
    fake = await startFakeAnthropic({
      route: (body) => (firstUserText(body).includes("SUBAGENT-TASK") ? "subagent" : "main"),
      conversations: {
        main: [
          { toolUses: [bash("rm -rf ./a").toolUses![0]!, bash("rm -rf ./b").toolUses![0]!] },
          { toolUses: [{ name: "Read", input: { file_path: join(workspace.project, "secret.env") } }] },
          bash(`rm -rf ./cache --token ${SECRET}`),
          bash("touch new-file.txt"),
          {
            toolUses: [
              {
                name: "Agent",
                input: {
                  description: "Clean up",
                  prompt: "SUBAGENT-TASK: remove the cache",
                  subagent_type: "general-purpose",
                  run_in_background: false,
                },
              },
            ],
          },
        ],
        subagent: [bash("rm -rf ./sub-cache"), { text: "SUBAGENT: could not remove it." }],
      },
    });
    const run = await runClaude({
      workspace,
      baseUrl: fake.url,
      prompt: "Tidy the project.",
      maxTurns: 20,
      env: { TOOLGATE_DB: database },
    });
    exitCode = run.exitCode;
    // the hooks spool records first; read them the way `toolgate report` does (the spool drained into the store)
    const { store } = await openDrainedStore({ env: { TOOLGATE_DB: database, HOME: workspace.home } });
    rows = await store.denials.query({});
    await store.close();
    auditPayloads = readFileSync(auditLog, "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    claudePayloads = logger.read();
  });

  afterAll(async () => {
    removeSnapshot();
    await fake?.close();
    workspace?.remove();
  });

  const served = () => fake.servedToolUses();
  const rowFor = (id: string | undefined) => rows.find((row) => row.toolUseId === id);
  const idOf = (predicate: (input: Record<string, unknown>) => boolean) =>
    served().find((use) => predicate(use.input))?.id;

  it("runs to the end and records each denied call exactly once", () => {
    expect(exitCode).toBe(0);
    // 2 parallel rm, the Read, the rm with a secret, the touch (headless ask), the subagent's rm
    expect(rows).toHaveLength(6);
    expect(new Set(rows.map((row) => row.toolUseId)).size).toBe(6);
    const deniedIds = served()
      .filter((use) => use.name !== "Agent")
      .map((use) => use.id)
      .sort();
    expect(rows.map((row) => row.toolUseId).sort()).toEqual(deniedIds);
  });

  it("parallel tool uses in one turn: both recorded, both told toolgate's guidance", () => {
    const ids = served()
      .filter(
        (use) =>
          String(use.input.command).startsWith("rm -rf ./a") || String(use.input.command).startsWith("rm -rf ./b"),
      )
      .map((use) => use.id);
    expect(ids).toHaveLength(2);
    for (const id of ids) {
      expect(rowFor(id)).toMatchObject({ source: "rule", rule: "Bash(rm:*)" });
      const result = fake.toolResults().find((candidate) => candidate.toolUseId === id);
      expect(result?.text).toMatch(/^PreToolUse:Bash hook error: \[toolgate\]/);
    }
  });

  it("a path-denied Read (no hook fires) is recorded once, from the transcript", () => {
    const id = served().find((use) => use.name === "Read")?.id;
    expect(claudePayloads.some((payload) => payload.tool_name === "Read")).toBe(false);
    expect(rowFor(id)).toMatchObject({ tool: "Read", source: "rule" });
    expect(rowFor(id)?.reason).toContain("denied by your permission settings");
  });

  it("a headless ask is denied in PermissionRequest with toolgate's message, verbatim", () => {
    const id = idOf((input) => input.command === "touch new-file.txt");
    expect(rowFor(id)).toMatchObject({ source: "headless" });
    const result = fake.toolResults().find((candidate) => candidate.toolUseId === id);
    expect(result?.text).toMatch(/^\[toolgate\]/);
  });

  it("a subagent's denial is attributed to the subagent and to the parent session", () => {
    const id = idOf((input) => input.command === "rm -rf ./sub-cache");
    const row = rowFor(id);
    const subagentPayload = claudePayloads.find((payload) => payload.tool_use_id === id);
    expect(row?.agentId).toBe(subagentPayload?.agent_id);
    expect(row?.agentId).toMatch(/^a[0-9a-f]+$/);
    expect(row?.sessionId).toBe(subagentPayload?.session_id);
    expect(rows.every((candidate) => candidate.sessionId === row?.sessionId)).toBe(true);
  });

  it("the secret in a command is redacted in the store and in toolgate's per-denial hook payloads", () => {
    const id = idOf((input) => String(input.command).includes("--token"));
    const claudeSaw = claudePayloads.find((payload) => payload.tool_use_id === id);
    expect(JSON.stringify(claudeSaw)).toContain(SECRET);
    const row = rowFor(id);
    expect(row).toBeDefined();
    expect(JSON.stringify(row)).not.toContain(SECRET);
    expect(JSON.stringify(auditPayloads)).not.toContain(SECRET);
    expect(JSON.stringify(rows)).not.toContain(SECRET);
  });

  it("toolgate's per-denial hook payloads match the store rows", () => {
    const denials = auditPayloads.filter((payload) => payload.event === "permission_denied");
    expect(denials.map((payload) => payload.tool_use_id).sort()).toEqual(rows.map((row) => row.toolUseId).sort());
    for (const payload of denials) {
      const row = rowFor(String(payload.tool_use_id));
      expect(payload).toMatchObject({
        session_id: row?.sessionId,
        seq: row?.seq,
        tool: row?.tool,
        source: row?.source,
        signature: row?.signature,
        input_summary: row?.inputSummary,
        agent_id: row?.agentId ?? null,
      });
    }
  });
});
