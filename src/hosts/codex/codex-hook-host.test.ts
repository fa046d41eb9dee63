import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runHook } from "../../hook-runtime/run-hook.js";
import { codexHookHost } from "./codex-hook-host.js";

const fixture = (name: string) =>
  readFileSync(join(import.meta.dirname, "..", "..", "..", "test", "fixtures", "codex", "hooks", name), "utf8");
const roots: string[] = [];
function environment(): { env: Record<string, string>; root: string } {
  const root = mkdtempSync(join(tmpdir(), "toolgate-codex-host-"));
  roots.push(root);
  mkdirSync(join(root, "codex", "rules"), { recursive: true });
  writeFileSync(join(root, "codex", "rules", "r.rules"), 'prefix_rule(pattern = ["rm"], decision = "forbidden")\n');
  return {
    root,
    env: { HOME: root, CODEX_HOME: join(root, "codex"), TOOLGATE_DB: "off", PATH: process.env.PATH ?? "" },
  };
}
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});
const decisionOf = (answer: { output?: unknown }) =>
  (answer.output as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } })
    ?.hookSpecificOutput;

describe("toolgate hook codex through the hook runner", () => {
  it("reads Codex's rules from CODEX_HOME and denies a forbidden command", async () => {
    const { env } = environment();
    const answer = await runHook(codexHookHost, {
      stdinText: fixture("pre-tool-use.json"),
      env,
      onError: () => undefined,
    });
    expect(decisionOf(answer)?.permissionDecision).toBe("deny");
    expect(decisionOf(answer)?.permissionDecisionReason).toContain('prefix_rule(pattern=["rm"], decision="forbidden")');
  });

  it("fails closed: an invalid toolgate config denies the call, naming the problem, never an allow", async () => {
    const { env, root } = environment();
    writeFileSync(join(root, "bad.json"), '{"escalation": {"headlessStrategy": "explode"}}');
    const errors: string[] = [];
    const answer = await runHook(codexHookHost, {
      stdinText: fixture("pre-tool-use.json").replace("rm -rf victim", "ls"),
      env: { ...env, TOOLGATE_CONFIG: join(root, "bad.json") },
      onError: (message) => errors.push(message),
    });
    expect(decisionOf(answer)?.permissionDecision).toBe("deny");
    expect(decisionOf(answer)?.permissionDecisionReason).toMatch(/toolgate could not check this call/);
    expect(errors.join("\n")).toMatch(/headlessStrategy/);
  });

  it("an event it cannot read is a blocking error (exit 2) with the reason on stderr", async () => {
    const { env } = environment();
    const answer = await runHook(codexHookHost, { stdinText: "{not json", env, onError: () => undefined });
    expect(answer.exitCode).toBe(2);
    expect(answer.stderr).toMatch(/not JSON/);
  });
});
