/**
 * Records what the real Claude Code binary sends to command hooks, and the transcript lines for denials no hook sees,
 * and checks them against the committed fixtures in test/fixtures/claude-code/ (the shapes the adapter is written
 * against). Run with `TOOLGATE_UPDATE_FIXTURES=1` to rewrite the fixtures from a fresh run.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeAnthropic, firstUserText, startFakeAnthropic } from "./fake-anthropic.js";
import { installHookLogger } from "./hook-logger.js";
import { type ClaudeRunResult, createWorkspace, runClaude, type Workspace } from "./run-claude.js";
import { bash } from "./scripts.js";

const FIXTURES = join(import.meta.dirname, "..", "..", "fixtures", "claude-code");
const UPDATE = process.env.TOOLGATE_UPDATE_FIXTURES === "1";
const PLACEHOLDER_ROOT = "/tmp/toolgate-fixture";

function normalise(value: unknown, root: string): unknown {
  return JSON.parse(JSON.stringify(value).split(root).join(PLACEHOLDER_ROOT));
}

function keysOf(value: unknown): string[] {
  return typeof value === "object" && value !== null ? Object.keys(value).sort() : [];
}

function checkOrWrite(name: string, actual: unknown): void {
  const path = join(FIXTURES, name);
  if (UPDATE || !existsSync(path)) {
    mkdirSync(FIXTURES, { recursive: true });
    writeFileSync(path, `${JSON.stringify(actual, null, 2)}\n`);
    return;
  }
  const expected = JSON.parse(readFileSync(path, "utf8")) as unknown;
  // Ids, times and paths differ per run; the shape (the keys the adapter reads) must not.
  expect(keysOf(actual), name).toEqual(keysOf(expected));
}

function writeLines(name: string, lines: unknown[]): void {
  if (!UPDATE && existsSync(join(FIXTURES, name))) return;
  writeFileSync(join(FIXTURES, name), `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
}

function readJsonLines(path: string): Record<string, unknown>[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("real Claude Code hook payloads", () => {
  let fake: FakeAnthropic;
  let workspace: Workspace;
  let run: ClaudeRunResult;
  let payloads: Record<string, unknown>[];

  beforeAll(async () => {
    workspace = createWorkspace();
    const logger = installHookLogger(workspace);
    workspace.writeFile("secret.env", "API_TOKEN=not-a-real-token\n");
    workspace.writeProjectSettings({
      permissions: { deny: ["Bash(rm:*)", "Read(./secret.env)"] },
      hooks: logger.hooks,
    });
    const project = workspace.project;
    fake = await startFakeAnthropic({
      route: (body) => (firstUserText(body).includes("SUBAGENT-TASK") ? "subagent" : "main"),
      conversations: {
        main: [
          bash("echo ok"),
          bash("cat missing-file.txt"),
          bash("rm -rf ./build"),
          { toolUses: [{ name: "Read", input: { file_path: join(project, "secret.env") } }] },
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
        subagent: [bash("rm -rf ./cache"), { text: "SUBAGENT: could not remove the cache." }],
      },
    });
    run = await runClaude({ workspace, baseUrl: fake.url, prompt: "Tidy the project.", maxTurns: 20 });
    payloads = logger.read().map((payload) => normalise(payload, workspace.root) as Record<string, unknown>);
  });

  afterAll(async () => {
    await fake?.close();
    workspace?.remove();
  });

  const first = (event: string, predicate: (payload: Record<string, unknown>) => boolean = () => true) =>
    payloads.find((payload) => payload.hook_event_name === event && predicate(payload));
  const command = (payload: Record<string, unknown>) => (payload.tool_input as { command?: string })?.command ?? "";

  it("completes the scripted run", () => {
    expect(run.timedOut).toBe(false);
    expect(run.exitCode).toBe(0);
  });

  it("fires PreToolUse for a rule-denied Bash call but no hook for the path-denied Read", () => {
    expect(first("PreToolUse", (payload) => command(payload) === "rm -rf ./build")).toBeDefined();
    const reads = payloads.filter((payload) => payload.tool_name === "Read");
    expect(reads).toEqual([]);
  });

  it("records every hook event's payload shape", () => {
    const cases: [string, Record<string, unknown> | undefined][] = [
      ["session-start.json", first("SessionStart")],
      ["user-prompt-submit.json", first("UserPromptSubmit")],
      ["pre-tool-use.json", first("PreToolUse", (payload) => command(payload) === "echo ok")],
      ["pre-tool-use-rule-denied.json", first("PreToolUse", (payload) => command(payload) === "rm -rf ./build")],
      ["post-tool-use.json", first("PostToolUse", (payload) => command(payload) === "echo ok")],
      ["post-tool-use-failure.json", first("PostToolUseFailure")],
      ["permission-request.json", first("PermissionRequest")],
      ["subagent-start.json", first("SubagentStart")],
      ["pre-tool-use-subagent.json", first("PreToolUse", (payload) => command(payload) === "rm -rf ./cache")],
      ["subagent-stop.json", first("SubagentStop")],
      ["stop.json", first("Stop")],
      ["session-end.json", first("SessionEnd")],
    ];
    for (const [name, payload] of cases) {
      expect(payload, name).toBeDefined();
      checkOrWrite(name, payload);
    }
    expect(first("PreToolUse", (payload) => command(payload) === "rm -rf ./cache")?.agent_id).toBeTypeOf("string");
  });

  it("keeps the stream and the transcript (where path denials and headless asks show up)", () => {
    const transcriptPath = String(first("Stop")?.transcript_path ?? "").replace(PLACEHOLDER_ROOT, workspace.root);
    // Only the conversation lines matter to the reconciler; request blobs and attachments are left out.
    const conversation = (path: string) =>
      readJsonLines(path)
        .filter((line) => line.type === "user" || line.type === "assistant")
        .map((line) => normalise(line, workspace.root));
    const transcript = conversation(transcriptPath);
    const text = JSON.stringify(transcript);
    expect(text).toContain("File is in a directory that is denied by your permission settings.");
    expect(text).toContain('"toolDenialKind":"user-rejected"');
    writeLines("transcript-denials.jsonl", transcript);
    const subagentPath = String(first("SubagentStop")?.agent_transcript_path ?? "").replace(
      PLACEHOLDER_ROOT,
      workspace.root,
    );
    const subagentTranscript = conversation(subagentPath);
    expect(JSON.stringify(subagentTranscript)).toContain("rm -rf ./cache has been denied");
    writeLines("transcript-subagent.jsonl", subagentTranscript);
    writeLines(
      "stream-denials.jsonl",
      run.messages.map((message) => normalise(message, workspace.root)),
    );
    const denials = run.result?.permission_denials as { tool_name: string }[];
    // rm (main), Read path, touch (headless ask), rm (subagent)
    expect(denials.map((denial) => denial.tool_name).sort()).toEqual(["Bash", "Bash", "Bash", "Read"]);
  });
});

describe("real Claude Code PermissionDenied payload (auto mode)", () => {
  let fake: FakeAnthropic;
  let workspace: Workspace;
  let payloads: Record<string, unknown>[];

  beforeAll(async () => {
    workspace = createWorkspace();
    const logger = installHookLogger(workspace);
    workspace.writeProjectSettings({ hooks: logger.hooks });
    fake = await startFakeAnthropic({ conversations: { main: [bash("touch /tmp/toolgate-auto-mode-probe")] } });
    await runClaude({
      workspace,
      baseUrl: fake.url,
      prompt: "Touch the file.",
      args: ["--permission-mode", "auto"],
    });
    payloads = logger.read().map((payload) => normalise(payload, workspace.root) as Record<string, unknown>);
  });

  afterAll(async () => {
    await fake?.close();
    workspace?.remove();
  });

  it("fires PermissionDenied for the auto-mode classifier", () => {
    const payload = payloads.find((candidate) => candidate.hook_event_name === "PermissionDenied");
    expect(payload).toBeDefined();
    expect(payload?.reason).toBeTypeOf("string");
    checkOrWrite("permission-denied.json", payload);
  });
});

describe("real Claude Code PreSkillShellCommand payload (a skill's inline shell command)", () => {
  let fake: FakeAnthropic;
  let workspace: Workspace;
  let payloads: Record<string, unknown>[];
  let transcriptIds: string[];

  beforeAll(async () => {
    workspace = createWorkspace();
    workspace.trustProject();
    const logger = installHookLogger(workspace);
    workspace.writeProjectSettings({ permissions: { allow: ["Skill(greet)"] }, hooks: logger.hooks });
    workspace.writeFile(
      ".claude/skills/greet/SKILL.md",
      "---\nname: greet\ndescription: Says hello\nallowed-tools: Bash(echo:*)\n---\nGreeting: !`echo hello`\n",
    );
    fake = await startFakeAnthropic({
      conversations: { main: [{ toolUses: [{ name: "Skill", input: { skill: "greet" } }] }] },
    });
    await runClaude({ workspace, baseUrl: fake.url, prompt: "Greet me." });
    payloads = logger.read().map((payload) => normalise(payload, workspace.root) as Record<string, unknown>);
    const stop = payloads.find((payload) => payload.hook_event_name === "Stop");
    const transcriptPath = String(stop?.transcript_path ?? "").replace(PLACEHOLDER_ROOT, workspace.root);
    transcriptIds = readJsonLines(transcriptPath).flatMap((line) => {
      const content = (line.message as { content?: unknown } | undefined)?.content;
      return Array.isArray(content)
        ? content.filter((block) => block.type === "tool_use").map((block) => String(block.id))
        : [];
    });
  });

  afterAll(async () => {
    await fake?.close();
    workspace?.remove();
  });

  it("fires before the command runs, as the shell tool, with an id that names no tool call in the transcript", () => {
    const payload = payloads.find((candidate) => candidate.hook_event_name === "PreSkillShellCommand");
    expect(payload).toMatchObject({
      tool_name: "Bash",
      tool_input: { command: "echo hello" },
      command_name: "greet",
      invoked_by: "claude",
    });
    expect(String(payload?.tool_use_id)).toMatch(/^toolu_main_000_0:preamble-0$/);
    expect(transcriptIds).toContain("toolu_main_000_0");
    expect(transcriptIds).not.toContain(payload?.tool_use_id);
    checkOrWrite("pre-skill-shell-command.json", payload);
  });
});
