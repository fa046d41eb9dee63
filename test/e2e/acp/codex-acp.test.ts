import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDrainedStore } from "../../../src/store/open-drained-store.js";
import { assertBuilt, removeSnapshot, toolgateCommand } from "../claude/toolgate-cli.js";
import { type CodexWorld, createCodexWorld } from "../codex/codex-workspace.js";
import { type Answer, choose, type PermissionAsked, startEditor } from "./acp-editor.js";

/**
 * The real codex-acp (pinned in test/e2e/package.json: its Linux binary runs Codex's own core) behind `toolgate
 * acp-proxy`, offline against the harness's scripted Responses server on 127.0.0.1, driven by the scripted editor.
 * codex-acp asks for each command (`kind: "execute"`, `rawInput.command: ["/bin/bash", "-lc", <script>]`, options
 * `approved` / `approved-execpolicy-amendment` / `abort`) when Codex's approval policy is `untrusted`; a reject
 * aborts the turn.
 */
const CODEX_ACP = join(import.meta.dirname, "..", "node_modules", ".bin", "codex-acp");
const E2E = { timeout: 300_000 };
const THRESHOLD = 3;
const isGrant = (asked: PermissionAsked) =>
  asked.params.options.some((option) => option.optionId.startsWith("toolgate-grant:"));

beforeAll(() => assertBuilt());
afterAll(() => removeSnapshot());

async function codexThroughProxy(options: {
  commands: string[];
  run: boolean;
  answer: Answer;
  env?: Record<string, string>;
}) {
  const world = await createCodexWorld({ commands: options.commands });
  const config = join(world.codexHome, "config.toml");
  // Codex asks before every command that is not known safe: the editor's permission request
  writeFileSync(
    config,
    readFileSync(config, "utf8").replace('approval_policy = "never"', 'approval_policy = "untrusted"'),
  );
  const proxy = toolgateCommand("acp-proxy", "--", CODEX_ACP);
  const editor = startEditor({
    command: options.run ? toolgateCommand("run", "--", ...proxy) : proxy,
    env: { ...world.env, TOOLGATE_DENY_THRESHOLD: String(THRESHOLD), ...options.env },
    cwd: world.project,
    answer: options.answer,
  });
  return { world, editor };
}

async function records(world: CodexWorld, sessionId: string) {
  const drained = await openDrainedStore({ env: { TOOLGATE_DB: world.database } });
  try {
    return await drained.store.denials.query({ sessionId });
  } finally {
    await drained.store.close();
  }
}

describe("codex-acp through toolgate acp-proxy", () => {
  it("counts the person's rejects, offers the grant at the threshold, and the granted command runs", E2E, async () => {
    const { world, editor } = await codexThroughProxy({
      commands: Array.from({ length: THRESHOLD + 1 }, () => "rm -rf victim"),
      run: false,
      env: { TOOLGATE_INTERACTIVE: "1" },
      answer: (asked) => (isGrant(asked) ? choose(asked, "grant") : choose(asked, "reject_once")),
    });
    try {
      const sessionId = await editor.open(world.project);
      for (let prompt = 0; prompt < THRESHOLD + 2 && world.fake.requests.length <= THRESHOLD + 1; prompt += 1) {
        await editor.prompt(sessionId, "Delete the victim dir");
      }
      const asked = editor.asked.map((entry) => ({
        command: (entry.params.toolCall.rawInput as { command?: string[] }).command?.at(-1),
        grant: isGrant(entry),
      }));
      expect(asked).toEqual([
        ...Array.from({ length: THRESHOLD }, () => ({ command: "rm -rf victim", grant: false })),
        { command: "rm -rf victim", grant: true },
      ]);
      // the granted command ran (Codex's own sandbox allows the workspace)
      expect(existsSync(join(world.project, "victim"))).toBe(false);
      const recorded = await records(world, `acp-${sessionId}`);
      expect(recorded.map((record) => [record.source, record.tool, record.canonicalTool, record.toolFamily])).toEqual(
        Array.from({ length: THRESHOLD }, () => ["user", "execute", "shell", "shell"]),
      );
    } finally {
      await editor.close();
      await world.remove();
    }
  });

  it("headless under toolgate run: the CI editor's rejects reach the threshold, and run exits 6", E2E, async () => {
    const { world, editor } = await codexThroughProxy({
      commands: Array.from({ length: THRESHOLD + 3 }, () => "rm -rf victim"),
      run: true,
      answer: (asked) => choose(asked, "reject_once"),
    });
    try {
      const sessionId = await editor.open(world.project);
      let ended = false;
      for (let prompt = 0; prompt < THRESHOLD + 3 && !ended; prompt += 1) {
        await editor.prompt(sessionId, "Delete the victim dir").catch(() => {
          ended = true;
        });
      }
      const { exitCode, stderr } = await editor.exited;
      expect(exitCode).toBe(6);
      expect(stderr).toMatch(/toolgate: .*rm -rf victim/);
      expect(editor.asked).toHaveLength(THRESHOLD);
      expect(existsSync(join(world.project, "victim"))).toBe(true);
      expect(await records(world, `acp-${sessionId}`)).toHaveLength(THRESHOLD);
    } finally {
      await editor.close();
      await world.remove();
    }
  });
});
