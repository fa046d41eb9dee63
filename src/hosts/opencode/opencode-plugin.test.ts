import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PluginInput } from "@opencode-ai/plugin";
import { afterEach, describe, expect, it } from "vitest";
import { RUN_DIRECTORY_ENV, runAbort } from "../../root/run-sessions.js";
import { createToolgatePlugin } from "./opencode-plugin.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the opencode plugin through the composition root", () => {
  it("under toolgate run, notes its abort for run (the plugin stops the session; run ends an agent that goes on)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolgate-opencode-node-"));
    dirs.push(dir);
    const runDirectory = join(dir, "run");
    mkdirSync(runDirectory);
    const stopped: string[] = [];
    // opencode's SDK client, as far as the plugin uses it: logs, notes and the session stop, each answered
    const client = {
      app: { log: async () => ({ data: true }) },
      session: {
        promptAsync: async () => ({ data: undefined }),
        prompt: async () => ({ data: undefined }),
        abort: async (request: { path: { id: string } }) => {
          stopped.push(request.path.id);
          return { data: true };
        },
      },
    };
    const plugin = createToolgatePlugin({
      environment: { HOME: dir, TOOLGATE_DB: ":memory:", [RUN_DIRECTORY_ENV]: runDirectory },
      interactive: false,
      policy: {
        evaluate: () => ({
          behavior: "deny",
          source: "policy",
          rule: "bash",
          reason: "bash is off.",
          denialSource: "rule",
        }),
      },
    });
    const hooks = await plugin({ client, directory: dir, worktree: dir } as unknown as PluginInput);
    const before = hooks["tool.execute.before"];
    if (before === undefined) throw new Error("the plugin has no tool.execute.before hook");
    const refusals: string[] = [];
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      await before(
        { tool: "bash", sessionID: "ses_run", callID: `call_${attempt}` },
        { args: { command: `rm -rf build-${attempt}` } },
      ).catch((error: unknown) => refusals.push(String(error)));
    }
    await hooks.dispose?.();
    expect(refusals).toHaveLength(4);
    expect(stopped).toContain("ses_run");
    expect(runAbort(runDirectory)).toMatchObject({ sessionId: "ses_run", hostEndsRun: true });
  });
});
