import { describe, expect, it } from "vitest";
import type { DenialRecord } from "../core/records.js";
import { computeReport } from "./compute-report.js";
import { formatReport } from "./format-report.js";

function record(index: number, command: string, denial: Pick<DenialRecord, "source" | "rule">): DenialRecord {
  const at = Date.UTC(2026, 10, 20, 12, 0, index);
  return {
    seq: index + 1,
    sessionId: "s1",
    turn: 1,
    tool: "Bash",
    toolUseId: `toolu_${index}`,
    reason: "denied",
    ...denial,
    signature: `Bash:${command}`,
    pattern: command.split(" ")[0] ?? "",
    inputSummary: command,
    input: { command },
    at,
    timestamp: new Date(at).toISOString(),
  };
}

const DENY_RM = { source: "rule", rule: "Bash(rm:*)" } as const;
const HEADLESS = { source: "headless" } as const;
const records = [
  record(0, "rm -rf build", DENY_RM),
  record(1, "rm -rf build", DENY_RM),
  record(2, "rm -rf dist", DENY_RM),
  record(3, "npm test", HEADLESS),
  record(4, "npm run lint", HEADLESS),
  record(5, "npm test", HEADLESS),
  record(6, "git push", { source: "rule" }),
];

function text(): string {
  const report = computeReport({ records, events: [], query: {} });
  return formatReport({ report, suggestions: [], location: "memory", window: "all" });
}

describe("formatReport", () => {
  it("shows one tool row per canonical tool across hosts, naming each host's tool, and one pattern row", () => {
    const hosts = [
      record(0, "rm -rf build", DENY_RM),
      { ...record(1, "rm -rf build", DENY_RM), tool: "exec_command", signature: "exec_command:rm -rf build" },
      { ...record(2, "rm -rf build", DENY_RM), tool: "run_shell_command", signature: "run_shell_command:rm" },
    ];
    const report = computeReport({ records: hosts, events: [], query: {} });
    const output = formatReport({ report, suggestions: [], location: "memory", window: "all" });
    expect(output).toMatch(/Top tools\n {2}shell \(Bash, exec_command, run_shell_command\) {2} {6}3\n\n/);
    expect(output).toMatch(/ {6}3 {2}shell {2}rm {2}\(3 variants\)/);
  });

  it("lists one row per pattern with its variants folded under it and the counts summed", () => {
    const output = text();
    expect(output).toContain("Most-denied patterns, variants folded under each");
    expect(output).toMatch(/ {6}3 {2}shell {2}rm {2}\(2 variants\)/);
    expect(output).toMatch(/ {6}3 {2}shell {2}npm {2}\(2 variants\)/);
    expect(output).toMatch(/ {6}2 {2}rm -rf build\n/);
    expect(output).toMatch(/ {6}1 {2}rm -rf dist\n/);
  });

  it("names the deny rule to narrow where a deny rule won, and suggests no allow rule for those calls", () => {
    const output = text();
    expect(output).toContain(
      "Bash(rm:*) denied 3: a deny rule wins over any allow rule; narrow or remove it where it is defined to let these calls run.",
    );
    expect(output).not.toContain("allow rule (toolgate permissions.allow): Bash(rm");
    expect(output).toContain("A deny rule the host did not name denied 1: a deny rule wins over any allow rule;");
    expect(output).not.toContain("allow rule (toolgate permissions.allow): Bash(git push)");
  });

  it("suggests the minimal allow rule for calls no deny rule denied", () => {
    const output = text();
    expect(output).toContain("allow rule (toolgate permissions.allow): Bash(npm test)");
    expect(output).toContain("allow rule (toolgate permissions.allow): Bash(npm run lint)");
  });

  it("prefers the caller's (redacted) suggestion for a variant that is a top signature", () => {
    const report = computeReport({ records, events: [], query: {} });
    const suggestions = [{ tool: "Bash", signature: "Bash:npm test", count: 2, rule: "Bash(npm test)*", example: "" }];
    const output = formatReport({ report, suggestions, location: "memory", window: "all" });
    expect(output).toContain("allow rule (toolgate permissions.allow): Bash(npm test)*");
  });

  it("says which deny rule denied each variant when a pattern has several", () => {
    const mixed = [...records, record(7, "rm -f x.log", { source: "rule", rule: "Bash(rm -f:*)" })];
    const report = computeReport({ records: mixed, events: [], query: {} });
    const output = formatReport({ report, suggestions: [], location: "memory", window: "all" });
    expect(output).toMatch(/rm -f x\.log\n {20}denied by Bash\(rm -f:\*\)/);
    expect(output).toMatch(/rm -rf build\n {20}denied by Bash\(rm:\*\)/);
  });
});
