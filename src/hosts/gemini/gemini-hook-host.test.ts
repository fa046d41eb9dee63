import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runHook } from "../../hook-runtime/run-hook.js";
import { geminiHookHost } from "./gemini-hook-host.js";

const fixture = (name: string) =>
  readFileSync(join(import.meta.dirname, "..", "..", "..", "test", "fixtures", "gemini", name), "utf8");
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** a HOME whose `~/.gemini/policies/` holds `files`, for a headless run with no store */
function environment(files: Record<string, string>): Record<string, string> {
  const root = mkdtempSync(join(tmpdir(), "toolgate-gemini-host-"));
  roots.push(root);
  mkdirSync(join(root, ".gemini", "policies"), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, ".gemini", "policies", name), text);
  return { HOME: root, TOOLGATE_DB: "off", TOOLGATE_INTERACTIVE: "0", PATH: process.env.PATH ?? "" };
}

const DENY_RM = '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "rm"\ndecision = "deny"\npriority = 200\n';

describe("toolgate hook gemini through the hook runner: Gemini's policies read when a rule is consulted", () => {
  it("denies what a Gemini policy denies", async () => {
    const env = environment({ "deny-rm.toml": DENY_RM });
    const answer = await runHook(geminiHookHost, {
      stdinText: fixture("before-tool-policy-denied.json"),
      env,
      onError: () => undefined,
    });
    expect(answer.output).toMatchObject({ decision: "deny", reason: expect.stringContaining("Bash(rm *)") });
  });

  it("a policy file that is not TOML fails the next call closed, naming it; a prompt goes on without reading it", async () => {
    const env = environment({ "bad.toml": "[[rule]\n" });
    const errors: string[] = [];
    const prompt = await runHook(geminiHookHost, {
      stdinText: fixture("before-agent.json"),
      env,
      onError: (message) => errors.push(message),
    });
    expect(prompt.exitCode ?? 0).toBe(0);
    expect(errors).toEqual([]);
    const call = await runHook(geminiHookHost, {
      stdinText: fixture("before-tool-policy-denied.json").replace("rm -rf", "ls"),
      env,
      onError: (message) => errors.push(message),
    });
    expect(call.output).toMatchObject({ decision: "deny", reason: expect.stringContaining("bad.toml") });
    expect(errors.join("\n")).toMatch(/bad\.toml/);
  });
});
