import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HOOK_HOST_NAMES, hookHostLoader } from "../../src/hook-runtime/hook-hosts.js";
import { runHook } from "../../src/hook-runtime/run-hook.js";

/**
 * Issue 25, item 3, as a class: whatever shape a host passes a shell command in, toolgate's policy decides on the
 * command a process would run, or refuses what it cannot read; never an empty command that no rule matches. Every
 * registered command-hook host gets a gating event for its shell tool (from its recorded payload) with each shape,
 * under the rule `Bash(rm *)`, and must refuse it. (The AI SDK wrapper: test/ai-sdk/fail-closed.test.ts.)
 */

const fixtures = join(import.meta.dirname, "..", "fixtures");
/**
 * each host's recorded gating payload for its shell tool, how it carries the command, and the event named on the
 * hook's command line when the payload names none; a new host adds a row (checked below)
 */
const GATING_PAYLOADS: Record<string, { file: string; input?: string; eventName?: string }> = {
  "claude-code": { file: "claude-code/pre-tool-use.json" },
  qwen: { file: "qwen/pre-tool-use.json" },
  codex: { file: "codex/hooks/pre-tool-use.json" },
  gemini: { file: "gemini/before-tool-policy-denied.json" },
  copilot: { file: "copilot/pre-tool-use.json", input: "toolArgs", eventName: "preToolUse" },
};

const SHAPES: [label: string, command: unknown, says: RegExp][] = [
  ["an argv array", ["rm", "-rf", "victim"], /rm/],
  ["an argv array whose words need quoting", ["rm", "-rf", "my victim"], /rm/],
  ["a NUL byte (bash drops it)", "rm\u0000 -rf victim; echo done", /cannot read the command/],
  ["a carriage return", "rm\r -rf victim", /cannot read the command/],
  ["an escape sequence", "\u001b[2Krm -rf victim", /cannot read the command/],
  ["a number", 42, /cannot read the command/],
  ["an object", { program: "rm", args: ["-rf", "victim"] }, /cannot read the command/],
  ["an argv array holding a non-string", ["rm", 1], /cannot read the command/],
  ["null", null, /cannot read the command/],
];

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function environment() {
  const root = mkdtempSync(join(tmpdir(), "toolgate-shapes-"));
  roots.push(root);
  const project = join(root, "project");
  mkdirSync(project);
  mkdirSync(join(root, "codex"));
  const config = join(root, "toolgate.json");
  writeFileSync(
    config,
    JSON.stringify({ permissions: { deny: ["Bash(rm *)"] }, audit: { logs: { destination: "off" } } }),
  );
  return {
    project,
    env: {
      HOME: root,
      CODEX_HOME: join(root, "codex"),
      TOOLGATE_CONFIG: config,
      TOOLGATE_DB: "off",
      PATH: process.env.PATH ?? "",
    },
  };
}

/** A refusal in any host's answer shape: a deny decision, or a blocking exit. */
function refuses(answer: { exitCode: number; output?: unknown }): boolean {
  const text = JSON.stringify(answer.output ?? {});
  return answer.exitCode === 2 || /"(permissionDecision|decision|behavior)":"deny"/.test(text);
}

describe("every hook host refuses a shell command it cannot read, and reads an argv as the command it runs", () => {
  it("every registered host has a gating payload here", () => {
    expect(Object.keys(GATING_PAYLOADS).sort()).toEqual([...HOOK_HOST_NAMES].sort());
  });

  for (const name of HOOK_HOST_NAMES) {
    it.each(SHAPES)(`${name}: %s`, async (_, command, says) => {
      const { env, project } = environment();
      const load = hookHostLoader(name);
      if (load === undefined) throw new Error(`no hook host ${name}`);
      const host = await load();
      const gating = GATING_PAYLOADS[name];
      if (gating === undefined) throw new Error(`no gating payload for ${name}`);
      const payload = JSON.parse(readFileSync(join(fixtures, gating.file), "utf8"));
      const stdinText = JSON.stringify({ ...payload, cwd: project, [gating.input ?? "tool_input"]: { command } });
      const answer = await runHook(host, {
        stdinText,
        env,
        onError: () => undefined,
        ...(gating.eventName === undefined ? {} : { eventName: gating.eventName }),
      });
      expect(refuses(answer), JSON.stringify(answer)).toBe(true);
      expect(JSON.stringify(answer)).toMatch(says);
    });
  }
});
