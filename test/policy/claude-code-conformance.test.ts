import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  type ClaudeSettingsScope,
  mergeClaudeSettings,
  normalizeMode,
} from "../../src/policy/claude-settings-rules.js";
import { compilePolicy } from "../../src/policy/compile-policy.js";
import type { PolicyDecision } from "../../src/policy/policy-types.js";

/**
 * Every case observed with the real Claude Code 2.1.330 binary must hold (test/e2e/claude/conformance-replay.test.ts
 * replays them on the pinned binary, 2.1.332). The cases are vendored from the team's shared conformance set into test/fixtures/conformance (see its README for where and when they were observed) and
 * read as they are, so new cases there are tested without editing this file.
 */
const fixtureDirectory = fileURLToPath(new URL("../fixtures/conformance/", import.meta.url));
const PLACES = {
  "<project>": "/srv/cc/project",
  "<home>": "/srv/cc/home",
  "<outside>": "/srv/cc/outside",
  "<tmp>": "/srv/cc/tmp",
};

function fill<T>(value: T): T {
  let text = JSON.stringify(value);
  for (const [placeholder, path] of Object.entries(PLACES)) text = text.split(placeholder).join(path);
  return JSON.parse(text) as T;
}

interface ConformanceCall {
  tool: string;
  input: Record<string, unknown>;
  outcome: "allow" | "ask" | "deny" | "removed" | "deny-mode";
}
interface ConformanceCase {
  case: string;
  workspaceTrusted: boolean;
  rules: { allow: string[]; ask: string[]; deny: string[] };
  cliArgs: string[];
  userSettings: { permissions?: Record<string, unknown> } | null;
  calls: ConformanceCall[];
}

function cliScope(args: string[]): { scopes: ClaudeSettingsScope[]; mode: string | undefined } {
  const settings: { permissions?: Record<string, unknown> }[] = [];
  const permissions: { allow: string[]; deny: string[]; additionalDirectories: string[] } = {
    allow: [],
    deny: [],
    additionalDirectories: [],
  };
  let mode: string | undefined;
  for (let index = 0; index < args.length; index++) {
    const flag = args[index];
    const value = args[index + 1] ?? "";
    if (flag === "--permission-mode") mode = value;
    else if (flag === "--allowedTools" || flag === "--allowed-tools")
      permissions.allow.push(...value.split(/[ ,]+(?![^(]*\))/));
    else if (flag === "--disallowedTools" || flag === "--disallowed-tools")
      permissions.deny.push(...value.split(/[ ,]+(?![^(]*\))/));
    else if (flag === "--add-dir") permissions.additionalDirectories.push(value);
    else if (flag === "--settings") settings.push(JSON.parse(value) as { permissions?: Record<string, unknown> });
    else if (flag === "--dangerously-skip-permissions") {
      mode = "bypassPermissions";
      continue;
    } else continue;
    index++;
  }
  const extra = settings.map((value) => ({ scope: "cli" as const, permissions: value.permissions }));
  return { scopes: [{ scope: "cli", permissions }, ...extra], mode };
}

function policyForCase(testCase: ConformanceCase) {
  const cli = cliScope(testCase.cliArgs);
  const merged = mergeClaudeSettings({
    trusted: testCase.workspaceTrusted,
    scopes: [
      ...cli.scopes,
      { scope: "project", permissions: testCase.rules },
      { scope: "user", permissions: testCase.userSettings?.permissions },
    ],
  });
  const policy = compilePolicy({
    rules: merged.rules,
    cwd: PLACES["<project>"],
    homeDir: PLACES["<home>"],
    additionalDirectories: merged.additionalDirectories,
  });
  return { policy, mode: normalizeMode(cli.mode) ?? merged.defaultMode ?? "default" };
}

function observed(decision: PolicyDecision): ConformanceCall["outcome"] {
  if (decision.behavior !== "deny") return decision.behavior;
  if (decision.removesTool) return "removed";
  return decision.denialSource === "mode" ? "deny-mode" : "deny";
}

function loadCases(): ConformanceCase[] {
  const data = JSON.parse(readFileSync(`${fixtureDirectory}claude-code-rules.json`, "utf8")) as {
    cases: ConformanceCase[];
  };
  const cases = fill(data.cases);
  // MCP cases are recorded as a markdown table: | case | `behavior rule` | tool | OBSERVED | notes |
  const table = readFileSync(`${fixtureDirectory}claude-code-mcp-rules.md`, "utf8");
  const outcomes: Record<string, ConformanceCall["outcome"]> = {
    "NO-TOOL": "removed",
    "ASK-DENY": "ask",
    RAN: "allow",
  };
  for (const line of table.split("\n")) {
    const cells = line.split("|").map((cell) => cell.trim());
    const match = /^`(allow|ask|deny) (\S+)`$/.exec(cells[2] ?? "");
    const noRules = cells[2] === "`(none)`";
    const outcome = outcomes[cells[4] ?? ""];
    if ((match === null && !noRules) || outcome === undefined) continue;
    const rules = { allow: [] as string[], ask: [] as string[], deny: [] as string[] };
    if (match !== null) rules[match[1] as "allow" | "ask" | "deny"].push(match[2] as string);
    cases.push({
      case: cells[1] as string,
      workspaceTrusted: true,
      rules,
      cliArgs: [],
      userSettings: null,
      calls: [{ tool: cells[3] as string, input: {}, outcome }],
    });
  }
  return cases;
}

const cases = loadCases();

describe("Claude Code 2.1.330 conformance", () => {
  it("loads the vendored cases", () => {
    expect(cases.length).toBeGreaterThan(40);
  });
  for (const testCase of cases) {
    for (const call of testCase.calls) {
      it(`${testCase.case}: ${call.tool} ${JSON.stringify(call.input)} -> ${call.outcome}`, () => {
        const { policy, mode } = policyForCase(testCase);
        const interactive = policy.evaluate(call, { mode, interactive: true });
        expect(observed(interactive), interactive.reason).toBe(call.outcome);
        // headless (-p), as the cases were recorded: an ask becomes a deny with source headless
        const headless = policy.evaluate(call, { mode, interactive: false });
        if (call.outcome === "ask") {
          expect(headless).toMatchObject({ behavior: "deny", denialSource: "headless" });
        } else {
          expect(observed(headless)).toBe(call.outcome);
        }
      });
    }
  }
});
