import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { compilePolicy } from "../../src/policy/compile-policy.js";

/**
 * The defaults preset gives the real binary's answer for every command the read-only probe recorded
 * (test/fixtures/conformance/claude-code-read-only.json: Claude Code's default mode, no rules, a trusted project).
 * New recordings are tested without editing this file.
 */
interface RecordedCommand {
  command: string;
  outcome: "allow" | "ask";
  control?: boolean;
}
interface Recording {
  claudeCodeVersion: string;
  recordedAt: string;
  commands: RecordedCommand[];
}

const recording = JSON.parse(
  readFileSync(fileURLToPath(new URL("../fixtures/conformance/claude-code-read-only.json", import.meta.url)), "utf8"),
) as Recording;
const project = "/srv/cc/project";
const policy = compilePolicy({ rules: [], cwd: project, homeDir: "/srv/cc/home" });

describe(`Claude Code ${recording.claudeCodeVersion} read-only commands (recorded ${recording.recordedAt})`, () => {
  it("holds a broad recording with controls", () => {
    expect(recording.commands.length).toBeGreaterThanOrEqual(150);
    expect(recording.commands.filter((command) => command.outcome === "allow").length).toBeGreaterThan(100);
    const controls = recording.commands.filter((command) => command.control === true);
    expect(controls.length).toBeGreaterThanOrEqual(20);
  });

  for (const recorded of recording.commands) {
    it(`${recorded.command} -> ${recorded.outcome}`, () => {
      const call = { tool: "Bash", input: { command: recorded.command } };
      const interactive = policy.evaluate(call, { mode: "default", interactive: true });
      expect(interactive.behavior, interactive.reason).toBe(recorded.outcome);
      // headless, as recorded: an ask is a denial with source headless
      const headless = policy.evaluate(call, { mode: "default", interactive: false });
      if (recorded.outcome === "ask") expect(headless).toMatchObject({ behavior: "deny", denialSource: "headless" });
      else expect(headless.behavior).toBe("allow");
    });
  }
});
