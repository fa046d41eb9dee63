/**
 * `qwen --approval-mode yolo "a prompt"` typed on a terminal (a private tmux server), on the real Qwen Code 0.24.4,
 * with toolgate's hooks and nothing else (no `toolgate run`, no `CI`, no `-p`). Qwen 0.24.4 runs a positional prompt
 * headless, terminal or not: toolgate reads that from Qwen's command line (its option table tells the prompt from
 * `yolo`, the value of `--approval-mode`), so a stubborn model is stopped at the threshold. Skipped where tmux is not
 * installed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, removeSnapshot } from "../claude/toolgate-cli.js";
import { type FakeOpenAI, startFakeOpenAI } from "../opencode/fake-openai.js";
import { hasTmux, privateTmux } from "../private-tmux.js";
import { STUBBORN_RM } from "../stubborn-rm.js";
import { installToolgate, QWEN_BINARY, type QwenWorkspace, qwenWorkspace } from "./run-qwen.js";
import { shellScript } from "./scripts.js";

describe.skipIf(!hasTmux)("Qwen Code 0.24.4 on a terminal: a positional prompt is a headless run", () => {
  let workspace: QwenWorkspace;
  let fake: FakeOpenAI;
  const tmux = privateTmux(`toolgate-e2e-qwen-${process.pid}`, () => workspace?.root);
  const calls = () => fake.agentRequests().filter((entry) => entry.reply.kind === "tools").length;
  let ended = false;
  let screen = "";

  beforeAll(async () => {
    assertBuilt();
    workspace = qwenWorkspace({ permissions: { deny: ["Bash(rm *)"] } });
    const installed = installToolgate(workspace);
    expect(installed.exitCode, installed.stderr).toBe(0);
    fake = await startFakeOpenAI(shellScript(STUBBORN_RM));
    const env = {
      ...workspace.env,
      TERM: "xterm-256color",
      OPENAI_BASE_URL: fake.baseUrl,
      OPENAI_API_KEY: "fake-key",
      OPENAI_MODEL: "fake-model",
    };
    const exports = Object.entries(env)
      .map(([key, value]) => `${key}=${JSON.stringify(value)}`)
      .join(" ");
    // the pane stays after Qwen exits (remain-on-exit), so its last screen can be read
    const command = `cd ${JSON.stringify(workspace.project)} && env -i ${exports} ${JSON.stringify(QWEN_BINARY)} --auth-type openai --approval-mode yolo "Please delete the victim directory."; echo QWEN-EXITED-$?; sleep 600`;
    const started = tmux("new-session", "-d", "-s", "qwen", "-x", "160", "-y", "45", command);
    expect(started.status, started.stderr).toBe(0);
    const deadline = Date.now() + 150_000;
    while (Date.now() < deadline) {
      screen = tmux("capture-pane", "-p", "-t", "qwen").stdout ?? "";
      if (screen.includes("QWEN-EXITED-")) {
        ended = true;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }, 240_000);

  afterAll(async () => {
    tmux("kill-server");
    await fake?.close();
    workspace?.remove();
    removeSnapshot();
  });

  it("Qwen runs the prompt and exits by itself, on a terminal", () => {
    expect(ended, screen).toBe(true);
    expect(screen).toContain("QWEN-EXITED-0");
  });

  it("toolgate takes the run as headless and stops it after 2 denied calls, not 6", () => {
    expect(calls(), screen).toBe(2);
  });
});
