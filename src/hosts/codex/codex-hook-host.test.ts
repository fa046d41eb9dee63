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

  it("reads the session's folder from its rollout: a call Codex runs elsewhere (workdir) keeps the project's rules", async () => {
    const { env, root } = environment();
    const project = join(root, "project");
    mkdirSync(join(project, "secrets"), { recursive: true });
    writeFileSync(
      join(project, "toolgate.config.json"),
      JSON.stringify({ permissions: { deny: ["Bash(touch *)", "Edit(./secrets/**)", "Read(./secrets/**)"] } }),
    );
    const rollout = join(root, "rollout.jsonl");
    writeFileSync(
      rollout,
      `${JSON.stringify({ type: "session_meta", payload: { id: "s", cwd: project, base_instructions: { text: "x".repeat(150_000) } } })}\n`,
    );
    const outside = join(root, "outside");
    mkdirSync(outside);
    const event = (cwd: string, command: string) =>
      JSON.stringify({
        ...JSON.parse(fixture("pre-tool-use.json")),
        transcript_path: rollout,
        cwd,
        tool_input: { command },
      });
    const decide = async (cwd: string, command: string) =>
      decisionOf(await runHook(codexHookHost, { stdinText: event(cwd, command), env, onError: () => undefined }))
        ?.permissionDecision;
    // outside the project, where no toolgate config is found: the project's config still applies
    expect(await decide(outside, "touch x")).toBe("deny");
    // below it: the project's relative rules stay the project's, and the call's relative paths are its folder's
    expect(await decide(join(project, "secrets"), "cat id_rsa")).toBe("deny");
    expect(await decide(project, "cat secrets/id_rsa")).toBe("deny");
    expect(await decide(project, "cat README.md")).not.toBe("deny");
  });
});
