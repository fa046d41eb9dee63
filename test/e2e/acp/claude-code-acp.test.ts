import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDrainedStore } from "../../../src/store/open-drained-store.js";
import { assertBuilt, removeSnapshot } from "../claude/toolgate-cli.js";
import { choose, type PermissionAsked } from "./acp-editor.js";
import { claudeCodeAcp } from "./claude-code-acp-scenario.js";

/**
 * The real claude-code-acp (the Claude Code its Agent SDK bundles) driven by a scripted editor (the ACP SDK's client
 * side), offline against the scripted Messages API: without toolgate a person who rejects is asked every time;
 * through `toolgate acp-proxy` the rejects are counted, the person is offered toolgate's minimum-scope grant at the
 * threshold in their own permission request, the grant lets that call through and nothing wider, a toolgate deny
 * rule never reaches the person, the model reads toolgate's guidance in the next prompt, and a headless run under
 * `toolgate run` is aborted at the threshold with exit code 6.
 */
const E2E = { timeout: 300_000 };
const THRESHOLD = 5;
const bash = (command: string) => ({ name: "Bash", input: { command, description: "clean up" } });
const isGrant = (asked: PermissionAsked) =>
  asked.params.options.some((option) => option.optionId.startsWith("toolgate-grant:"));

beforeAll(() => assertBuilt());
afterAll(() => removeSnapshot());

async function records(database: string, sessionId: string) {
  const drained = await openDrainedStore({ env: { TOOLGATE_DB: database } });
  try {
    return await drained.store.denials.query({ sessionId });
  } finally {
    await drained.store.close();
  }
}

describe("claude-code-acp through toolgate acp-proxy", () => {
  it(
    "baseline without toolgate: a person who keeps rejecting is asked every time, and nothing is recorded",
    E2E,
    async () => {
      const scenario = await claudeCodeAcp({
        prefix: "toolgate-acp-baseline-",
        through: "direct",
        toolUses: Array.from({ length: THRESHOLD + 2 }, () => bash("rm -rf build")),
        answer: (asked) => choose(asked, "reject_once"),
      });
      try {
        const sessionId = await scenario.editor.open(scenario.workspace.project);
        for (let turn = 0; turn < THRESHOLD + 2; turn += 1) await scenario.editor.prompt(sessionId, "clean the build");
        expect(scenario.editor.asked).toHaveLength(THRESHOLD + 2);
        expect(scenario.editor.asked.filter(isGrant)).toEqual([]);
        expect(existsSync(scenario.database)).toBe(false);
      } finally {
        await scenario.close();
      }
    },
  );

  it(
    "counts the person's rejects, offers the minimum-scope grant at the threshold, and the grant lets that call through and nothing wider",
    E2E,
    async () => {
      const scenario = await claudeCodeAcp({
        prefix: "toolgate-acp-grant-",
        through: "proxy",
        toolUses: [
          ...Array.from({ length: THRESHOLD }, () => bash("rm -rf build")),
          bash("rm -rf build"),
          bash("rm -rf src"),
          bash("git push origin main"),
          bash("git push origin main"),
        ],
        // the loop detector would (rightly) block a sixth identical call even under a grant: this suite is about grants
        config: { permissions: { deny: ["Bash(git push *)"] }, escalation: { loop: { block: 20 } } },
        env: { TOOLGATE_DENY_THRESHOLD: String(THRESHOLD), TOOLGATE_INTERACTIVE: "1" },
        answer: (asked) => (isGrant(asked) ? choose(asked, "grant") : choose(asked, "reject_once")),
      });
      try {
        scenario.workspace.writeFile("build/out.txt", "built");
        const sessionId = await scenario.editor.open(scenario.workspace.project);
        for (let prompt = 0; prompt < 12 && scenario.servedTurns() < 10; prompt += 1) {
          await scenario.editor.prompt(sessionId, `clean the build (${prompt})`);
        }
        const asked = scenario.editor.asked.map((entry) => ({
          command: (entry.params.toolCall.rawInput as { command?: string }).command,
          options: entry.params.options.map((option) => option.name),
        }));
        const agentOptions = ["Always Allow", "Allow", "Reject"];
        expect(asked).toEqual([
          // five rejects of the same call, each asked as the agent asked it
          ...Array.from({ length: THRESHOLD }, () => ({ command: "rm -rf build", options: agentOptions })),
          // the threshold: the same call once more, with toolgate's grant naming its scope beside the agent's reject
          {
            command: "rm -rf build",
            options: [expect.stringMatching(/^Allow .*rm -rf build.* for this session/), "Reject"],
          },
          // the grant answered the next identical call itself (not asked); a wider call is asked without any grant
          { command: "rm -rf src", options: agentOptions },
          // `git push` is denied by toolgate's rule: never put to the person
        ]);
        // the granted call ran (twice: at the offer and once more, answered by toolgate)
        expect(existsSync(join(scenario.workspace.project, "build"))).toBe(false);
        const results = scenario.fake.toolResults();
        expect(results.map((result) => result.isError)).toEqual([
          true,
          true,
          true,
          true,
          false,
          false,
          true,
          true,
          true,
        ]);
        // the model read toolgate's guidance as a text block of the person's next prompt
        const texts = JSON.stringify(scenario.fake.requests.at(-1)?.body?.messages ?? []);
        expect(texts).toContain("[toolgate] The user declined: rm -rf build.");
        expect(texts).toContain("[toolgate] Denied by rule Bash(git push *)");
        const recorded = await records(scenario.database, `acp-${sessionId}`);
        expect(recorded.map((record) => [record.source, record.tool, record.canonicalTool, record.toolFamily])).toEqual(
          [
            ...Array.from({ length: THRESHOLD }, () => ["user", "Bash", "shell", "shell"]),
            ["user", "Bash", "shell", "shell"],
            ["rule", "Bash", "shell", "shell"],
            ["rule", "Bash", "shell", "shell"],
          ],
        );
        expect(recorded.map((record) => record.toolUseId)).toContain("toolu_main_007_0");
        // the grant lived in that session only: a new session's same call is put to the person again
        const before = scenario.editor.asked.length;
        const second = await scenario.editor.newSession(scenario.workspace.project);
        await scenario.editor.prompt(second, "clean the build");
        expect(
          scenario.editor.asked.slice(before).map((entry) => entry.params.options.map((option) => option.name)),
        ).toEqual([agentOptions]);
      } finally {
        await scenario.close();
      }
    },
  );

  it(
    "headless under toolgate run: the CI editor's rejects reach the threshold, the session is cancelled and run exits 6",
    E2E,
    async () => {
      const scenario = await claudeCodeAcp({
        prefix: "toolgate-acp-headless-",
        through: "run",
        toolUses: Array.from({ length: THRESHOLD + 3 }, () => bash("rm -rf build")),
        env: { TOOLGATE_DENY_THRESHOLD: String(THRESHOLD) },
        answer: (asked) => choose(asked, "reject_once"),
      });
      try {
        const sessionId = await scenario.editor.open(scenario.workspace.project);
        let ended = false;
        for (let prompt = 0; prompt < THRESHOLD + 3 && !ended; prompt += 1) {
          await scenario.editor.prompt(sessionId, "clean the build").catch(() => {
            ended = true;
          });
        }
        const { exitCode, stderr } = await scenario.editor.exited;
        expect(exitCode).toBe(6);
        expect(stderr).toMatch(/toolgate: .*rm -rf build/);
        // asked five times, never offered a grant (nobody to answer it), never asked again after the abort
        expect(scenario.editor.asked).toHaveLength(THRESHOLD);
        expect(scenario.editor.asked.filter(isGrant)).toEqual([]);
        const recorded = await records(scenario.database, `acp-${sessionId}`);
        expect(recorded).toHaveLength(THRESHOLD);
        expect(recorded[0]).toMatchObject({
          tool: "Bash",
          canonicalTool: "shell",
          toolFamily: "shell",
          source: "user",
        });
      } finally {
        await scenario.close();
      }
    },
  );
});
