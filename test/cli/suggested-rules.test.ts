import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadAnalysisSetup } from "../../src/analyze/load-analysis-setup.js";
import type { DenialRecord } from "../../src/core/records.js";
import { answerApi } from "../../src/dashboard/server/dashboard-api.js";
import { openSqlReader } from "../../src/dashboard/server/open-sql-reader.js";
import { createSqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { makeRecord } from "../store/fixtures.js";
import { ensureBuilt, makeFixture, runCli } from "./cli-fixture.js";

/**
 * Issue 26 problem 4 / item 4: `report` and the dashboard's policy tuning suggest allow rules only where one
 * changes the outcome, in the host's own rule language: none for a heredoc (its body is no rule), none for a call
 * only the OS or a sandbox refused, none where a deny rule in the settings would still win (`Bash(rm:*)` over
 * `Bash(rm -rf build3)`), Codex's execpolicy `prefix_rule` for a Codex call (not `exec_command(...)`).
 */
beforeAll(ensureBuilt);
const fixture = makeFixture({});
const database = join(fixture.root, "toolgate.db");
afterAll(() => rmSync(fixture.root, { recursive: true, force: true }));
const heredoc = "cat > protected/settings.ini <<'EOF'\n[app]\ndebug = true\nlog_level = info\nEOF";

const calls: [string, string, Record<string, unknown>, string, string][] = [
  ["heredoc", "Bash", { command: heredoc }, "headless", "claude-code"],
  ["rm", "Bash", { command: "rm -rf build3" }, "headless", "claude-code"],
  ["push", "exec_command", { cmd: "git push origin main" }, "user", "codex"],
  ["os", "Bash", { command: "touch /etc/x" }, "sandbox", "claude-code"],
  ["test", "Bash", { command: "npm test" }, "user", "claude-code"],
];

beforeAll(async () => {
  writeFileSync(
    join(fixture.project, "toolgate.config.json"),
    JSON.stringify({ permissions: { deny: ["Bash(rm:*)"] } }),
  );
  const store = await createSqliteStore({ filename: database });
  const records: DenialRecord[] = calls.map(([name, tool, input, source, host], index) =>
    makeRecord({
      seq: index + 1,
      sessionId: "rules",
      tool,
      input,
      source: source as DenialRecord["source"],
      host,
      signature: `sig-${name}`,
      pattern: name,
      inputSummary: String(input.command ?? input.cmd),
      rule: undefined,
      at: Date.UTC(2026, 10, 20, 12) + index * 1000,
    }),
  );
  await store.denials.append(records);
  await store.close();
});

describe("suggested allow rules change the outcome, in the host's language (issue 26 item 4)", () => {
  it("report --json and report", () => {
    const env = { TOOLGATE_DB: database };
    const json = runCli(["report", "--since", "2000-01-01", "--json"], {
      cwd: fixture.project,
      home: fixture.home,
      env,
    });
    expect(json.status, json.stderr).toBe(0);
    const rules = new Map(
      (
        JSON.parse(json.stdout).suggestedRules as {
          signature: string;
          rule: string | null;
          why: string | null;
          language: string | null;
        }[]
      ).map((row) => [row.signature, row]),
    );
    expect(rules.get("sig-heredoc")).toMatchObject({ rule: null, why: expect.stringContaining("heredoc") });
    expect(rules.get("sig-rm")).toMatchObject({ rule: null, why: expect.stringContaining("deny rule") });
    expect(rules.get("sig-os")).toMatchObject({ rule: null, why: expect.stringContaining("sandbox") });
    expect(rules.get("sig-push")).toMatchObject({
      rule: 'prefix_rule(pattern=["git", "push", "origin", "main"], decision="allow")',
      language: "Codex execpolicy .rules",
    });
    expect(rules.get("sig-test")).toMatchObject({ rule: "Bash(npm test)" });
    const text = runCli(["report", "--since", "2000-01-01"], { cwd: fixture.project, home: fixture.home, env });
    // the heredoc call is listed (its summary) but no rule holds its body
    expect(text.stdout).not.toMatch(/allow rule[^\n]*debug = true/);
    expect(text.stdout).toContain("no allow rule: a heredoc writes a file");
    expect(text.stdout).not.toContain("Bash(rm -rf build3)");
    expect(text.stdout).not.toContain("exec_command(");
    expect(text.stdout).toContain('allow rule (Codex execpolicy .rules): prefix_rule(pattern=["git", "push"');
  });

  it("the dashboard's policy tuning", async () => {
    const reader = await openSqlReader({ engine: "sqlite", filename: database });
    const store = await createSqliteStore({ filename: database });
    try {
      // the dashboard's composition root hands it the configured policy, as `toolgate report` reads it
      const setup = await loadAnalysisSetup({ cwd: fixture.project, homeDir: fixture.home, env: {} });
      const policy = (await answerApi(
        {
          reader,
          denials: store.denials,
          defaultSince: "2000-01-01",
          redactText: (text) => text,
          canGrant: setup.canGrant,
        },
        { path: "/api/policy", query: new URLSearchParams() },
      )) as {
        tooTight: {
          signature: string;
          allowRule: string | null;
          allowRules: unknown[];
          denyRuleWins: boolean;
          noRule: string | null;
          ruleLanguage: string | null;
        }[];
      };
      const rows = new Map(policy.tooTight.map((row) => [row.signature, row]));
      expect(rows.get("sig-heredoc")).toMatchObject({ allowRule: null, noRule: expect.stringContaining("heredoc") });
      expect(rows.get("sig-os")).toMatchObject({ allowRule: null });
      // a headless denial of `rm -rf build3` under a `Bash(rm:*)` deny rule in the settings: no rule it would beat
      expect(rows.get("sig-rm")).toMatchObject({
        allowRule: null,
        allowRules: [],
        denyRuleWins: true,
        noRule: expect.stringContaining("deny rule"),
      });
      expect(rows.get("sig-test")).toMatchObject({ allowRule: "Bash(npm test)", denyRuleWins: false });
      expect(rows.get("sig-push")).toMatchObject({
        allowRule: 'prefix_rule(pattern=["git", "push", "origin", "main"], decision="allow")',
        ruleLanguage: "Codex execpolicy .rules",
      });
    } finally {
      await reader.close();
      await store.close();
    }
  });
});
