import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { assertBuilt, removeSnapshot } from "../claude/toolgate-cli.js";
import {
  type CodexRun,
  type CodexWorld,
  createCodexWorld,
  recordsOf,
  rolloutOf,
  runCodex,
  sessionIdOf,
  toolgateIn,
} from "./codex-workspace.js";
import { requestText, toolOutputs } from "./fake-responses.js";

/**
 * What toolgate records and tells the model on the real Codex 0.171.0 binary, with `toolgate install codex --user`
 * (hooks trusted through Codex's app-server) and plain `codex exec`: a `prompt` rule under approval never, a
 * read-only sandbox refusal, a rule toolgate cannot read (only the rollout shows the refusal), and a secret in a
 * denied command (redacted in the store and in toolgate's per-denial hook payloads).
 */
const SECRET = "ghp_R2d2C3poR2d2C3poR2d2C3poR2d2C3po1234";
const calm = { TOOLGATE_DENY_THRESHOLD: "10", TOOLGATE_DENY_THRESHOLD_SHELL: "10" };

interface Scenario {
  world: CodexWorld;
  run: CodexRun;
  sessionId: string;
  records: Record<string, unknown>[];
}

async function scenario(options: Parameters<typeof createCodexWorld>[0], env: Record<string, string> = calm) {
  const world = await createCodexWorld(options);
  const install = toolgateIn(world, ["install", "codex", "--user"]);
  expect(install.exitCode, install.stderr).toBe(0);
  const run = await runCodex(world, { env });
  const sessionId = sessionIdOf(run);
  return { world, run, sessionId, records: recordsOf(world, sessionId) };
}

describe("Codex 0.171.0 with toolgate's hooks: denials recorded and explained", () => {
  let prompt: Scenario;
  let readOnly: Scenario;
  let unreadable: Scenario;
  let secret: Scenario & { auditLog: string };

  beforeAll(async () => {
    assertBuilt();
    prompt = await scenario({
      commands: ["touch victim/new.txt", "ls"],
      rules: 'prefix_rule(pattern = ["touch"], decision = "prompt", justification = "ask before creating files")\n',
    });
    readOnly = await scenario({ commands: ["touch victim/x", "touch victim/y", "ls"], sandbox: "read-only" });
    unreadable = await scenario({
      commands: ["touch a.txt", "touch b.txt", "ls"],
      rules: 'T = "touch"\nprefix_rule(pattern = [T], decision = "forbidden", justification = "no touching")\n',
    });
    const secretWorld = await createCodexWorld({
      commands: [`curl -H "Authorization: Bearer ${SECRET}" https://example.invalid/api`, "ls"],
      rules: 'prefix_rule(pattern = ["curl"], decision = "forbidden", justification = "no network from here")\n',
    });
    const auditLog = join(secretWorld.root, "denial-hooks.jsonl");
    const config = { audit: { hooks: [{ command: `cat >> '${auditLog}'` }], logs: { destination: "off" } } };
    writeFileSync(join(secretWorld.project, "toolgate.config.json"), JSON.stringify(config));
    expect(toolgateIn(secretWorld, ["install", "codex", "--user"]).exitCode).toBe(0);
    const run = await runCodex(secretWorld, { env: calm });
    const sessionId = sessionIdOf(run);
    secret = { world: secretWorld, run, sessionId, records: recordsOf(secretWorld, sessionId), auditLog };
  }, 480_000);

  afterAll(async () => {
    for (const done of [prompt, readOnly, unreadable, secret]) await done?.world.remove();
    removeSnapshot();
  });

  test("a prompt rule under codex exec (approval never) is a headless denial with the Codex rule, and the model reads toolgate's guidance", () => {
    expect(prompt.run.exitCode).toBe(0);
    expect(prompt.records).toHaveLength(1);
    expect(prompt.records[0]).toMatchObject({
      host: "codex",
      toolUseId: "call_1",
      source: "headless",
      rule: 'prefix_rule(pattern=["touch"], decision="prompt")',
      inputSummary: "touch victim/new.txt",
    });
    const [output] = toolOutputs(prompt.world.fake.requests[1] ?? {});
    expect(output).toMatch(/^Command blocked by PreToolUse hook: \[toolgate\]/);
  });

  test("a read-only sandbox refusal is counted as a sandbox denial, with toolgate's guidance and a nudge to the model", () => {
    expect(readOnly.records.map((record) => record.source)).toEqual(["sandbox", "sandbox"]);
    expect(String(readOnly.records[0]?.reason)).toContain("Read-only file system");
    const last = requestText(readOnly.world.fake.requests.at(-1) ?? {});
    expect(last).toContain("[toolgate] touch victim/x failed because the operating system or sandbox denied access");
    expect(last).toMatch(/Several tool calls have been denied or failed with operating-system permission errors/);
  });

  test("a rule toolgate cannot read still counts: the refusal is recorded from the rollout, once per call", () => {
    const rollout = rolloutOf(unreadable.world, unreadable.sessionId);
    expect(rollout).toContain("rejected: no touching");
    expect(unreadable.records.map((record) => [record.toolUseId, record.source])).toEqual([
      ["call_1", "rule"],
      ["call_2", "rule"],
    ]);
  });

  test("the secret in a denied command is redacted in the store and in toolgate's per-denial hook payloads", () => {
    expect(rolloutOf(secret.world, secret.sessionId)).toContain(SECRET);
    expect(secret.records).toHaveLength(1);
    expect(secret.records[0]).toMatchObject({
      source: "rule",
      rule: 'prefix_rule(pattern=["curl"], decision="forbidden")',
    });
    expect(JSON.stringify(secret.records)).not.toContain(SECRET);
    const payloads = readFileSync(secret.auditLog, "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(JSON.stringify(payloads)).not.toContain(SECRET);
    const denials = payloads.filter((payload) => payload.event === "permission_denied");
    expect(denials.map((payload) => payload.tool_use_id)).toEqual(secret.records.map((record) => record.toolUseId));
    for (const payload of denials) {
      const row = secret.records.find((record) => record.toolUseId === payload.tool_use_id);
      expect(payload).toMatchObject({
        session_id: row?.sessionId,
        tool: row?.tool,
        source: row?.source,
        signature: row?.signature,
        input_summary: row?.inputSummary,
      });
    }
  });
});
