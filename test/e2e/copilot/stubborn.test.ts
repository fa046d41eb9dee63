/**
 * A stubborn model retrying an `rm` that Copilot CLI's own `--deny-tool=shell(rm)` refuses, on the real GitHub
 * Copilot CLI 1.0.102, offline. Copilot fires no hook after a call its rules refused: toolgate counts those refusals
 * from the session's events.jsonl at the next preToolUse, and refuses the next call there with its own text.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, removeSnapshot, runToolgate } from "../claude/toolgate-cli.js";
import { STUBBORN_RM } from "../stubborn-rm.js";
import {
  type CopilotRun,
  type CopilotWorkspace,
  copilotWorkspace,
  installToolgate,
  runCopilot,
  shellScript,
  storedDenials,
  toolResultsPerRequest,
} from "./run-copilot.js";

const COPILOT_RULE_TEXT = "Permission to run this tool was denied due to the following rules: `shell(rm)`";
const ARGS = ["--allow-tool=shell", "--deny-tool=shell(rm)"];

describe("Copilot CLI 1.0.102: a stubborn rm denied by Copilot's own --deny-tool rule", () => {
  const workspaces: CopilotWorkspace[] = [];
  let bare: CopilotRun;
  let guarded: CopilotRun;
  let guardedWorkspace: CopilotWorkspace;

  beforeAll(async () => {
    assertBuilt();
    const plain = copilotWorkspace();
    workspaces.push(plain);
    bare = await runCopilot({ workspace: plain, script: shellScript(STUBBORN_RM), copilotArgs: ARGS });
    guardedWorkspace = copilotWorkspace();
    workspaces.push(guardedWorkspace);
    const installed = installToolgate(guardedWorkspace);
    expect(installed.exitCode, installed.stderr).toBe(0);
    guarded = await runCopilot({
      workspace: guardedWorkspace,
      script: shellScript(STUBBORN_RM),
      copilotArgs: ARGS,
      viaToolgate: true,
    });
    const figures = (run: CopilotRun) => ({
      calls: run.fake.agentRequests().filter((entry) => entry.reply.kind === "tools").length,
      modelRequests: run.fake.agentRequests().length,
      exitCode: run.exitCode,
    });
    console.log(`copilotStubborn ${JSON.stringify({ without: figures(bare), with: figures(guarded) })}`);
  }, 500_000);

  afterAll(async () => {
    await bare?.fake.close();
    await guarded?.fake.close();
    for (const workspace of workspaces) workspace.remove();
    removeSnapshot();
  });

  it("without toolgate: every call is refused, the model burns all its attempts, and Copilot exits 0", () => {
    expect(bare.timedOut).toBe(false);
    expect(bare.exitCode).toBe(0);
    expect(bare.victimSurvived).toBe(true);
    const last = toolResultsPerRequest(bare.fake).at(-1) ?? [];
    expect(last).toHaveLength(STUBBORN_RM.length);
    for (const text of last) expect(text).toBe(COPILOT_RULE_TEXT);
    expect(JSON.stringify(bare.fake.requests.map((entry) => entry.body))).not.toContain("[toolgate]");
  });

  it("with toolgate: stopped at the threshold (the third call, not the sixth), toolgate run exits 6 and no Copilot process is left", () => {
    expect(guarded.timedOut).toBe(false);
    expect(guarded.exitCode, guarded.stderr).toBe(6);
    expect(guarded.victimSurvived).toBe(true);
    const calls = guarded.fake.agentRequests().filter((entry) => entry.reply.kind === "tools");
    // the third call is refused with the abort; the model may ask once more before run ends Copilot's process tree
    expect(calls.length).toBeGreaterThanOrEqual(3);
    expect(calls.length).toBeLessThanOrEqual(4);
    expect(guarded.stderr).toContain("toolgate aborted the run: bash was denied 2 times");
    expect(guarded.stderr).toContain("remove or narrow the deny rule shell(rm)");
    expect(guarded.leftover).toEqual([]);
  });

  it("with toolgate: the model reads Copilot's two refusals, then toolgate's text in the third call's result", () => {
    const results = toolResultsPerRequest(guarded.fake).find((texts) => texts.length === 3) ?? [];
    expect(results.slice(0, 2)).toEqual([COPILOT_RULE_TEXT, COPILOT_RULE_TEXT]);
    expect(results[2]).toMatch(/^Denied by preToolUse hook: \[toolgate\] The run is being stopped/);
  });

  it("with toolgate: Copilot's refusals are recorded once each, under Copilot's call ids, with its rule", () => {
    const events = readFileSync(
      join(guardedWorkspace.home, ".copilot", "session-state", sessionOf(guardedWorkspace), "events.jsonl"),
      "utf8",
    );
    const denied = [...events.matchAll(/"toolCallId":"([^"]+)"[^\n]*"code":"denied"/g)].map((match) => match[1]);
    expect(denied.length).toBeGreaterThanOrEqual(3);
    const records = storedDenials(guardedWorkspace, sessionOf(guardedWorkspace));
    const ruleRecords = records.filter((record) => record["source"] === "rule");
    expect(ruleRecords.map((record) => record["toolUseId"]).sort()).toEqual(denied.slice(0, 2).sort());
    for (const record of ruleRecords) {
      expect(record).toMatchObject({ host: "copilot", tool: "bash", canonicalTool: "shell", rule: "shell(rm)" });
    }
    // the third refusal is the abort, and a call the model makes before run ends Copilot is refused as aborted too
    // (Copilot may be ended before it writes that one to events.jsonl); the order two hook processes' records are
    // listed in need not be their calls' order (each hook delivers after it answers; seen once under load: call_4_0
    // listed before call_3_0)
    const aborted = records.filter((record) => record["source"] === "aborted").map((record) => record["toolUseId"]);
    expect(aborted).toContain(denied[2]);
  });

  it("toolgate analyze reads the session's events.jsonl as Copilot's, with every refusal Copilot wrote there", () => {
    const directory = join(guardedWorkspace.home, ".copilot", "session-state", sessionOf(guardedWorkspace));
    const events = readFileSync(join(directory, "events.jsonl"), "utf8");
    // Copilot writes each refusal as it happens: how many there are depends on when toolgate run ended it (3 or more)
    const refusals = [...events.matchAll(/"code":"denied"/g)].length;
    expect(refusals).toBeGreaterThanOrEqual(3);
    const result = runToolgate({
      args: ["analyze", directory, "--json"],
      cwd: guardedWorkspace.project,
      env: guardedWorkspace.env,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const analysis = JSON.parse(result.stdout) as { sessions: { host: string }[]; totals: { denials: number } };
    expect(analysis.sessions.map((session) => session.host)).toEqual(["copilot"]);
    expect(analysis.totals.denials).toBe(refusals);
  });
});

function sessionOf(workspace: CopilotWorkspace): string {
  const root = join(workspace.home, ".copilot", "session-state");
  // the agent's session is the one with tool calls (Copilot may open another, empty one)
  const sessions = readdirSync(root).filter((id) => {
    try {
      return readFileSync(join(root, id, "events.jsonl"), "utf8").includes('"tool.execution_start"');
    } catch {
      return false;
    }
  });
  if (sessions.length !== 1) throw new Error(`expected one Copilot session with calls, found ${sessions.length}`);
  return sessions[0] as string;
}
