/**
 * Every kind of denial a Gemini CLI 0.61.0 run can meet, with the real binary, toolgate's hooks installed and a
 * scripted Gemini API server on 127.0.0.1: a policy deny carrying a secret, a policy `ask_user` in a headless run,
 * and an OS-level refusal (a script without its execute bit). Each is recorded once with its source, toolgate's
 * per-denial hook payloads match the store's count, the secret is in neither, the model reads toolgate's texts, and
 * the real hook payloads still have the shape of the recorded fixtures in test/fixtures/gemini/.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, removeSnapshot, runToolgate } from "../claude/toolgate-cli.js";
import { type FakeGemini, startFakeGemini } from "./fake-gemini.js";
import { createGeminiWorkspace, type GeminiWorkspace, runGemini } from "./gemini-workspace.js";

const SECRET = "ghp_Zx8Yw7Vu6Ts5Rq4Po3Nm2Lk1Jh0Gf9Ed8Cb7A";
const POLICY = `[[rule]]
toolName = "run_shell_command"
decision = "allow"
priority = 100

[[rule]]
toolName = "run_shell_command"
commandPrefix = "rm"
decision = "deny"
priority = 200

[[rule]]
toolName = "run_shell_command"
commandPrefix = "git push"
decision = "ask_user"
priority = 200
`;
const FIXTURES = join(import.meta.dirname, "..", "..", "fixtures", "gemini");
const LOGGER = `import { appendFileSync } from "node:fs";
let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => { appendFileSync(process.argv[2], JSON.stringify(JSON.parse(input)) + "\\n"); });
`;

const lines = (path: string) =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe("Gemini CLI 0.61.0 with toolgate's hooks: each denial recorded once, redacted, told to the model", () => {
  let workspace: GeminiWorkspace;
  let fake: FakeGemini;
  let run: Awaited<ReturnType<typeof runGemini>>;
  let audit: Record<string, unknown>[];
  let geminiPayloads: Record<string, unknown>[];
  let report: { total: number };
  let reportText: string;

  beforeAll(async () => {
    assertBuilt();
    workspace = createGeminiWorkspace({ policy: POLICY });
    const auditLog = join(workspace.root, "denial-hooks.jsonl");
    const payloadLog = join(workspace.root, "gemini-hooks.jsonl");
    writeFileSync(auditLog, "");
    writeFileSync(payloadLog, "");
    writeFileSync(
      join(workspace.project, "toolgate.config.json"),
      JSON.stringify({
        escalation: { defaultThreshold: 20 },
        audit: { hooks: [{ command: `cat >> '${auditLog}'` }], logs: { destination: "off" } },
      }),
    );
    // a logger beside toolgate's hooks: what the binary really sends
    const logger = join(workspace.root, "logger.mjs");
    writeFileSync(logger, LOGGER);
    const settings = JSON.parse(readFileSync(workspace.settingsPath, "utf8")) as Record<string, unknown>;
    const command = `"${process.execPath}" "${logger}" "${payloadLog}"`;
    settings["hooks"] = Object.fromEntries(
      ["SessionStart", "BeforeAgent", "BeforeTool", "AfterTool", "AfterAgent"].map((event) => [
        event,
        [{ ...(event.endsWith("Tool") ? { matcher: "*" } : {}), hooks: [{ type: "command", command }] }],
      ]),
    );
    writeFileSync(workspace.settingsPath, JSON.stringify(settings, null, 2));
    // build.sh runs the workspace's not-executable.sh (the OS refuses, even for root) and lingers a second before it
    // exits with the refusal's status: a shell host can lose the text of a command that fails at once when its pty
    // or pipe closes after the exit under load (seen with Qwen Code, a fork of Gemini's shell service).
    writeFileSync(
      join(workspace.project, "build.sh"),
      "#!/bin/bash\n./not-executable.sh\nstatus=$?\nsleep 1\nexit $status\n",
      { mode: 0o755 },
    );
    const env = { HOME: workspace.home, TOOLGATE_DB: join(workspace.root, "toolgate.db") };
    expect(runToolgate({ args: ["install", "gemini", "--user"], cwd: workspace.project, env }).exitCode).toBe(0);
    fake = await startFakeGemini({
      steps: [
        { command: `rm -rf victim --token ${SECRET}` },
        { command: "git push origin main" },
        { command: "./build.sh" },
        { command: "./build.sh --retry" },
      ],
    });
    run = await runGemini({ workspace, url: fake.url, underToolgateRun: true });
    audit = lines(auditLog);
    geminiPayloads = lines(payloadLog);
    const reported = runToolgate({
      args: ["report", "--json", "--session", String(run.sessionId)],
      cwd: workspace.project,
      env,
    });
    expect(reported.exitCode, reported.stderr).toBe(0);
    reportText = reported.stdout;
    report = JSON.parse(reported.stdout) as { total: number };
  }, 180_000);

  afterAll(async () => {
    removeSnapshot();
    await fake?.close();
    workspace?.remove();
  });

  const resultFor = (index: number) => JSON.stringify(fake.toolResults()[index]?.response ?? {});
  const auditFor = (source: string) =>
    audit.filter((payload) => JSON.stringify(payload).includes(`"source":"${source}"`));

  it("runs to the end without an abort, and toolgate run exits 5 for the denials", () => {
    expect(run.timedOut).toBe(false);
    expect(run.exitCode, run.stderr).toBe(5);
    expect(fake.toolResults()).toHaveLength(4);
  });

  it("the policy deny: toolgate's guidance reaches the model, recorded with source rule", () => {
    expect(resultFor(0)).toContain("Tool execution blocked: [toolgate]");
    expect(resultFor(0)).toContain("Bash(rm *)");
    expect(auditFor("rule")).toHaveLength(1);
  });

  it("the headless ask: declined by toolgate first, as Gemini would, recorded with source headless", () => {
    expect(resultFor(1)).toContain("Tool execution blocked: [toolgate]");
    expect(auditFor("headless")).toHaveLength(1);
    expect(JSON.stringify(auditFor("headless")[0])).toContain("Bash(git push *)");
  });

  it("the OS-level refusal: the call ran, was counted as a sandbox denial, and the model was nudged in its result", () => {
    expect(resultFor(2)).toContain("Permission denied");
    expect(auditFor("sandbox").length).toBe(2);
    expect(resultFor(3)).toContain("<hook_context>");
  });

  it("toolgate's per-denial hook payloads match the store, and the secret is in neither", () => {
    expect(report.total).toBe(4);
    expect(audit).toHaveLength(report.total);
    expect(JSON.stringify(audit)).not.toContain(SECRET);
    expect(reportText).not.toContain(SECRET);
    expect(resultFor(0)).not.toContain(SECRET);
  });

  it("the binary's hook payloads have the keys of the recorded fixtures", () => {
    const fixture = (name: string) => Object.keys(JSON.parse(readFileSync(join(FIXTURES, name), "utf8"))).sort();
    const first = (event: string) =>
      Object.keys(geminiPayloads.find((payload) => payload["hook_event_name"] === event) ?? {}).sort();
    expect(first("BeforeTool")).toEqual(fixture("before-tool-policy-denied.json"));
    expect(first("AfterTool")).toEqual(fixture("after-tool-eacces.json"));
    expect(first("BeforeAgent")).toEqual(fixture("before-agent.json"));
    expect(first("AfterAgent")).toEqual(fixture("after-agent.json"));
    expect(first("SessionStart")).toEqual(fixture("session-start.json"));
    // BeforeTool fires for every call, also the ones refused; AfterTool only for the two that ran
    expect(geminiPayloads.filter((payload) => payload["hook_event_name"] === "BeforeTool")).toHaveLength(4);
    expect(geminiPayloads.filter((payload) => payload["hook_event_name"] === "AfterTool")).toHaveLength(2);
  });
});
