/**
 * Interactive GitHub Copilot CLI 1.0.102 (its terminal UI in a private tmux server), offline: a toolgate `ask` rule
 * makes toolgate's preToolUse answer `ask`, Copilot puts the question to the person for a command it runs without
 * asking by itself (`ls`, read-only), and the person's answer decides. Skipped where tmux is not installed.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, removeSnapshot } from "../claude/toolgate-cli.js";
import { type FakeOpenAI, type Script, startFakeOpenAI, toolResults } from "../opencode/fake-openai.js";
import { hasTmux, privateTmux } from "../private-tmux.js";
import { COPILOT_BINARY, type CopilotWorkspace, copilotWorkspace, installToolgate } from "./run-copilot.js";

const script: Script = (request) =>
  toolResults(request) === 0
    ? { kind: "tools", calls: [{ tool: "bash", args: { command: "ls victim", description: "List it" } }] }
    : { kind: "text", text: "FINAL: done." };

async function until<T>(probe: () => T | undefined, timeoutMs: number): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe.skipIf(!hasTmux)("Copilot CLI interactive: toolgate's ask is put to the person", () => {
  let workspace: CopilotWorkspace;
  let fake: FakeOpenAI;
  const tmux = privateTmux(`toolgate-e2e-copilot-${process.pid}`, () => workspace?.root);
  const screen = () => tmux("capture-pane", "-p", "-t", "copilot").stdout ?? "";
  let prompt: string | undefined;
  let afterYes: string | undefined;
  let events = "";

  beforeAll(async () => {
    assertBuilt();
    workspace = copilotWorkspace({ toolgateConfig: { permissions: { ask: ["Bash(ls:*)"] } } });
    expect(installToolgate(workspace).exitCode).toBe(0);
    // trusted already: no folder-trust dialog before the prompt
    writeFileSync(
      join(workspace.home, ".copilot", "config.json"),
      `${JSON.stringify({ trustedFolders: [workspace.project] })}\n`,
    );
    fake = await startFakeOpenAI(script);
    const env = { ...workspace.env, TERM: "xterm-256color", COPILOT_PROVIDER_BASE_URL: fake.baseUrl };
    const exports = Object.entries(env)
      .map(([key, value]) => `${key}=${JSON.stringify(value)}`)
      .join(" ");
    const started = tmux(
      "new-session",
      "-d",
      "-s",
      "copilot",
      "-x",
      "160",
      "-y",
      "45",
      `cd ${JSON.stringify(workspace.project)} && env -i ${exports} ${JSON.stringify(COPILOT_BINARY)} -i "Please list the victim directory."`,
    );
    expect(started.status, started.stderr).toBe(0);
    // Copilot's dialog for a hook's ask shows the hook's message and its choices
    prompt = await until(() => {
      const text = screen();
      return text.includes("to navigate") && text.includes("ls victim") ? text : undefined;
    }, 90_000);
    tmux("send-keys", "-t", "copilot", "Enter"); // 1. Yes
    afterYes = await until(() => (fake.agentRequests().length >= 2 ? screen() : undefined), 60_000);
    const root = join(workspace.home, ".copilot", "session-state");
    events = readdirSync(root)
      .filter((name) => !name.startsWith("."))
      .map((id) => readFileSync(join(root, id, "events.jsonl"), "utf8"))
      .join("\n");
  }, 240_000);

  afterAll(async () => {
    tmux("kill-server");
    // Copilot writes its session files until it is gone
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await fake?.close();
    workspace?.remove();
    removeSnapshot();
  });

  it("Copilot asks the person about the call toolgate's ask rule names (a read-only ls it would run unasked)", () => {
    expect(prompt, screen()).toBeDefined();
    expect(prompt).toContain("ls victim");
    // Copilot's own record: a permission request of kind "hook" with toolgate's text, answered by the person
    const requested = events.split("\n").find((line) => line.includes('"type":"permission.requested"'));
    expect(requested).toContain('"kind":"hook"');
    expect(requested).toContain("[toolgate] The rule Bash(ls:*)");
    const completed = events.split("\n").find((line) => line.includes('"type":"permission.completed"'));
    expect(completed).toContain('"decisionSource":"human_response"');
    expect(completed).toContain('"kind":"approved"');
  });

  it("the person's yes runs the call: the model reads its result, and toolgate recorded no denial", () => {
    expect(afterYes, screen()).toBeDefined();
    const results = (fake.agentRequests()[1]?.body.messages ?? []).filter((message) => message.role === "tool");
    expect(results).toHaveLength(1);
    expect(String(results[0]?.content)).toContain("keep.txt");
    expect(String(results[0]?.content)).not.toContain("[toolgate]");
  });
});
