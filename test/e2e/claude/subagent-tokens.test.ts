/**
 * A subagent's wasted call and its tokens, with the real Claude Code binary and the installed hooks: the subagent's
 * calls live in its own transcript (`agent_transcript_path`), which the session's Stop does not read; SubagentStop
 * reads it for the waiting calls (issue 26 item 5).
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDrainedStore } from "../../../src/store/open-drained-store.js";
import { type FakeAnthropic, firstUserText, startFakeAnthropic } from "./fake-anthropic.js";
import { createWorkspace, runClaude, type Workspace } from "./run-claude.js";
import { bash } from "./scripts.js";
import { assertBuilt, removeSnapshot, runToolgate } from "./toolgate-cli.js";

describe("Claude Code with toolgate hooks: a subagent's wasted tokens", () => {
  let workspace: Workspace;
  let fake: FakeAnthropic;
  let database: string;
  let exitCode: number | null;

  beforeAll(async () => {
    assertBuilt();
    workspace = createWorkspace();
    database = join(workspace.root, "toolgate.db");
    workspace.writeFile(
      "toolgate.config.json",
      JSON.stringify({
        escalation: { defaultThreshold: 20, headlessStrategy: "fallback" },
        audit: { logs: { destination: "off" } },
      }),
    );
    workspace.writeProjectSettings({ permissions: { deny: ["Bash(rm:*)"] } });
    const env = { TOOLGATE_DB: database, HOME: workspace.home };
    expect(runToolgate({ args: ["install", "claude-code"], cwd: workspace.project, env }).exitCode).toBe(0);
    fake = await startFakeAnthropic({
      route: (body) => (firstUserText(body).includes("SUBAGENT-TASK") ? "subagent" : "main"),
      conversations: {
        main: [
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
        // two refusals of one pattern by the subagent, each in its own request: the second is a wasted call
        subagent: [bash("rm -rf ./cache"), bash("rm -rf ./cache/"), { text: "SUBAGENT: could not remove it." }],
      },
    });
    const run = await runClaude({
      workspace,
      baseUrl: fake.url,
      prompt: "Tidy the project.",
      maxTurns: 10,
      env: { TOOLGATE_DB: database },
    });
    exitCode = run.exitCode;
  });

  afterAll(async () => {
    removeSnapshot();
    await fake?.close();
    workspace?.remove();
  });

  it("the subagent's wasted call has its request's tokens in the store (the fake model spends 120 a request)", async () => {
    expect(exitCode).toBe(0);
    const { store } = await openDrainedStore({ env: { TOOLGATE_DB: database, HOME: workspace.home } });
    try {
      const rows = await store.denials.query({});
      expect(rows).toHaveLength(2);
      expect(rows.every((row) => row.agentId !== undefined && row.agentId !== null)).toBe(true);
      const { figures } = await store.denials.report();
      expect(figures).toMatchObject({ wastedCalls: 1, wastedTokens: 120 });
    } finally {
      await store.close();
    }
  });
});
