/**
 * A `PermissionDenied` hook's `retry: true` on the real Claude Code 2.1.332, in auto mode (offline, the auto-mode
 * check cannot run, so every Bash call is refused and `PermissionDenied` fires). Since 2.1.331 the model then reads
 * "The refusal above is not final for this call: ... If the user asked for what this call does, make it again now."
 * toolgate never answers `retry`, so with toolgate's hooks alone the model reads no such note; with a user's own hook
 * that answers `retry: true` beside them, the retries it invites are counted as denials of the same call and the run
 * still stops at toolgate's threshold, `toolgate run` exiting 6.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDrainedStore } from "../../../src/store/open-drained-store.js";
import { type FakeAnthropic, startFakeAnthropic } from "./fake-anthropic.js";
import { type ClaudeRunResult, createWorkspace, runClaude, type Workspace } from "./run-claude.js";
import { identicalRetries } from "./scripts.js";
import { assertBuilt, removeSnapshot, runToolgate, toolgateCommand } from "./toolgate-cli.js";

const ATTEMPTS = 8;
const RETRY_NOTE =
  /The refusal above is not final for this call: the PermissionDenied hook set up for this session allows one more try/;

interface Scenario {
  workspace: Workspace;
  database: string;
  fake: FakeAnthropic;
  run: ClaudeRunResult;
}

async function scenario(options: { userRetryHook: boolean }): Promise<Scenario> {
  const workspace = createWorkspace();
  const database = join(workspace.root, "toolgate.db");
  const env = { TOOLGATE_DB: database, HOME: workspace.home };
  if (options.userRetryHook) {
    // the user's own hook, in the shared settings; toolgate's go to settings.local.json
    const hook = join(workspace.root, "retry-hook.mjs");
    writeFileSync(
      hook,
      `process.stdin.resume();process.stdin.on("end",()=>process.stdout.write(JSON.stringify({hookSpecificOutput:{hookEventName:"PermissionDenied",retry:true}})));`,
    );
    workspace.writeProjectSettings({
      hooks: {
        PermissionDenied: [{ matcher: "*", hooks: [{ type: "command", command: `"${process.execPath}" "${hook}"` }] }],
      },
    });
  }
  const install = runToolgate({ args: ["install", "claude-code"], cwd: workspace.project, env });
  expect(install.exitCode, install.stderr).toBe(0);
  const fake = await startFakeAnthropic({
    // outside the project: auto mode's own check decides it (a write inside the project it allows by itself)
    conversations: { main: identicalRetries({ attempts: ATTEMPTS, command: `touch ${workspace.root}/notes.txt` }) },
  });
  const run = await runClaude({
    workspace,
    baseUrl: fake.url,
    prompt: "Create the notes file.",
    args: ["--permission-mode", "auto"],
    env: { TOOLGATE_DB: database },
    wrapper: toolgateCommand("run", "--"),
  });
  return { workspace, database, fake, run };
}

async function records(item: Scenario) {
  const { store } = await openDrainedStore({ env: { TOOLGATE_DB: item.database, HOME: item.workspace.home } });
  try {
    return await store.denials.query({});
  } finally {
    await store.close();
  }
}

describe("a PermissionDenied hook's retry (Claude Code 2.1.332, auto mode)", () => {
  let alone: Scenario;
  let withRetryHook: Scenario;

  beforeAll(async () => {
    assertBuilt();
    [alone, withRetryHook] = await Promise.all([scenario({ userRetryHook: false }), scenario({ userRetryHook: true })]);
  }, 240_000);

  afterAll(async () => {
    removeSnapshot();
    for (const item of [alone, withRetryHook]) {
      await item?.fake.close();
      item?.workspace.remove();
    }
  });

  it("toolgate's hooks alone never invite a retry: the model reads no retry note", () => {
    expect(alone.fake.contextTexts().some((text) => RETRY_NOTE.test(text))).toBe(false);
    expect(alone.run.exitCode).toBe(6);
  });

  it("a user's hook that answers retry: the model reads 2.1.332's note, and the invited retries are still stopped", async () => {
    expect(withRetryHook.fake.contextTexts().some((text) => RETRY_NOTE.test(text))).toBe(true);
    const calls = withRetryHook.fake.servedToolUses().length;
    expect(calls).toBeLessThan(ATTEMPTS);
    expect(withRetryHook.run.exitCode).toBe(6);
    const rows = await records(withRetryHook);
    const classifier = rows.filter((row) => row.source === "classifier");
    // each refused retry is one more denial of the same call
    expect(classifier.length).toBeGreaterThanOrEqual(2);
    expect(new Set(classifier.map((row) => row.signature)).size).toBe(1);
    expect(new Set(rows.map((row) => row.toolUseId)).size).toBe(rows.length);
  });
});
