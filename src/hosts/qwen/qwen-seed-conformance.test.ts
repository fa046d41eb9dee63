/**
 * Conformance row: Qwen Code's seed (PR #2831, peers.md 2.1) gives a tool soft guidance at its 2nd denial and a hard
 * "STOP retrying" text at its 4th, whatever the tool, per turn. toolgate's Qwen defaults (`QWEN_ESCALATION_DEFAULTS`,
 * applied by `toolgate hook qwen` under the config) reproduce it, with toolgate's own texts, through the real
 * composition root; a config file still decides over them, and a person's prompt really resets the per-turn counts.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Effect } from "../../core/effects.js";
import { openToolgate } from "../../root/open-toolgate.js";
import { QWEN_ESCALATION_DEFAULTS } from "./qwen-hook-host.js";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

async function open(config?: unknown) {
  const root = mkdtempSync(join(tmpdir(), "toolgate-qwen-seed-"));
  roots.push(root);
  const home = join(root, "home");
  const project = join(root, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  if (config !== undefined) writeFileSync(join(project, "toolgate.config.json"), JSON.stringify(config));
  return openToolgate({
    host: "qwen",
    hostDefaults: QWEN_ESCALATION_DEFAULTS,
    cwd: project,
    env: { HOME: home, TOOLGATE_DB: join(root, "toolgate.db") },
    homeDir: home,
    claudeSettings: false,
  });
}

const guidance = (effects: Effect[]) =>
  effects.find((effect): effect is Extract<Effect, { type: "guidance" }> => effect.type === "guidance");

const CALLS = [
  { tool: "run_shell_command", input: { command: "rm -rf victim" } },
  { tool: "read_file", input: { absolute_path: "/etc/shadow" } },
  { tool: "write_file", input: { file_path: "/etc/hosts", content: "x" } },
  { tool: "web_fetch", input: { url: "https://example.com", prompt: "x" } },
  { tool: "mcp__github__create_issue", input: { title: "x" } },
];

describe("Qwen Code seed conformance (soft at 2, STOP at 4, per-turn reset)", () => {
  for (const call of CALLS) {
    it(`${call.tool}: guidance from the 1st denial, escalated at the 2nd, the hard STOP text at the 4th`, async () => {
      const toolgate = await open();
      const session = toolgate.guard.session(`seed-${call.tool}`, { interactive: true, host: "qwen" });
      const stages: string[] = [];
      const texts: string[] = [];
      for (let index = 1; index <= 4; index += 1) {
        const effects = await session.denied(
          { toolUseId: `${call.tool}-${index}`, ...call },
          { source: "rule", reason: "denied by permission rules", rule: "Deny(x)" },
        );
        stages.push(guidance(effects)?.stage ?? "none");
        texts.push(guidance(effects)?.text ?? "");
      }
      expect(stages).toEqual(["soft", "escalated", "escalated", "hard"]);
      expect(texts[1]).toContain("2 times");
      expect(texts[3]).toMatch(/^\[toolgate\] STOP\./);
      await toolgate.close();
    });
  }

  it("a person's prompt resets the per-turn counts: the next denial is soft again, session totals stay", async () => {
    const toolgate = await open();
    const session = toolgate.guard.session("seed-turns", { interactive: true, host: "qwen" });
    const call = CALLS[1] as (typeof CALLS)[number];
    for (let index = 1; index <= 3; index += 1) {
      await session.denied({ toolUseId: `r${index}`, ...call }, { source: "rule", reason: "denied", rule: "Read" });
    }
    await session.turnStarted();
    const state = await session.state();
    expect(state.agents["main"]).toMatchObject({ turnTotal: 0, consecutive: 0, total: 3 });
    const effects = await session.denied({ toolUseId: "r4", ...call }, { source: "rule", reason: "denied" });
    expect(guidance(effects)?.stage).toBe("soft");
    await toolgate.close();
  });

  it("a config file still decides over the Qwen defaults (read escalates at 5 when the config says so)", async () => {
    const toolgate = await open({
      escalation: { familyThresholds: { read: 5 } },
      audit: { logs: { destination: "off" } },
    });
    const session = toolgate.guard.session("seed-config", { interactive: true, host: "qwen" });
    const stages: string[] = [];
    for (let index = 1; index <= 5; index += 1) {
      const effects = await session.denied(
        { toolUseId: `c${index}`, ...(CALLS[1] as (typeof CALLS)[number]) },
        { source: "rule", reason: "denied", rule: "Read" },
      );
      stages.push(guidance(effects)?.stage ?? "none");
    }
    expect(stages).toEqual(["soft", "soft", "soft", "soft", "escalated"]);
    await toolgate.close();
  });
});
