import { describe, expect, it } from "vitest";
import type { DenialRecord } from "../../core/records.js";
import { decideRunOutcome, formatRunReport } from "./run-report.js";

const describe_ = (tool: string, input: unknown) => ({
  summary: (input as { command?: string }).command ?? JSON.stringify(input),
  signature: `${tool}:${JSON.stringify(input)}`,
  allowRule: `${tool}(${(input as { command?: string }).command ?? ""})`,
  pattern: ((input as { command?: string }).command ?? "").split(" ")[0] ?? "",
});

const record = (
  toolUseId: string,
  command: string,
  denial: Pick<DenialRecord, "source" | "rule"> = { source: "rule", rule: "Bash(rm:*)" },
): DenialRecord => ({
  seq: 1,
  sessionId: "s",
  turn: 1,
  tool: "Bash",
  toolUseId,
  reason: "denied",
  ...denial,
  signature: `Bash:${command}`,
  pattern: command.split(" ")[0] ?? "",
  inputSummary: command,
  input: { command },
  at: 0,
  timestamp: "1970-01-01T00:00:00.000Z",
});

const stream = (ids: string[]) => ({
  host: "claude-code",
  denials: ids.map((toolUseId) => ({ toolUseId, tool: "Bash", input: { command: "rm -rf x" } })),
});

describe("decideRunOutcome", () => {
  it("exit 0 stays 0 when nothing was denied; a failing agent keeps its code", () => {
    const base = { stream: stream([]), records: [], failOn: "any" as const, describe: describe_ };
    expect(decideRunOutcome({ ...base, agentExitCode: 0 }).exitCode).toBe(0);
    expect(decideRunOutcome({ ...base, agentExitCode: 3 }).exitCode).toBe(3);
    expect(formatRunReport(decideRunOutcome({ ...base, agentExitCode: 0 }))).toBe("");
  });

  it("denials -> 5, toolgate abort -> 6, counting each tool_use_id once across stream and store", () => {
    const records = [record("t1", "rm -rf x")];
    const denied = decideRunOutcome({
      agentExitCode: 0,
      stream: stream(["t1", "t2"]),
      records,
      failOn: "any",
      describe: describe_,
    });
    expect(denied.exitCode).toBe(5);
    expect(denied.denials.map((denial) => denial.toolUseId)).toEqual(["t1", "t2"]);
    const aborted = decideRunOutcome({
      agentExitCode: 0,
      stream: stream(["t1"]),
      records,
      aborted: { reason: "toolgate aborted the run: Bash was denied 2 times" },
      failOn: "any",
      describe: describe_,
    });
    expect(aborted.exitCode).toBe(6);
    const text = formatRunReport(aborted);
    expect(text).toContain("toolgate aborted the run");
    expect(text).toContain("Bash(rm:*) denied 1: a deny rule wins over any allow rule");
    expect(text).not.toContain("minimal allow rule");
  });

  it("--fail-on abort ignores plain denials; never keeps the agent's code", () => {
    const base = { agentExitCode: 0, stream: stream(["t1"]), records: [], describe: describe_ };
    expect(decideRunOutcome({ ...base, failOn: "abort" }).exitCode).toBe(0);
    expect(decideRunOutcome({ ...base, failOn: "never", aborted: { reason: "x" } }).exitCode).toBe(0);
  });

  it("groups by pattern with variants folded under it; a deny rule gets no allow rule, other denials do", () => {
    const records = [
      record("t1", "rm -rf build"),
      record("t2", "rm -rf build"),
      record("t3", "rm -rf dist", { source: "rule", rule: "Bash(rm -rf:*)" }),
      record("t4", "rm -f x.log", { source: "headless", rule: "Bash(rm -f:*)" }),
      record("t5", "npm test", { source: "headless" }),
      record("t6", "git push", { source: "rule" }),
    ];
    const outcome = decideRunOutcome({
      agentExitCode: 0,
      stream: stream([]),
      records,
      failOn: "any",
      describe: describe_,
    });
    const lines = formatRunReport(outcome).split("\n");
    expect(lines).toEqual([
      "toolgate run: 6 denied calls.",
      "  loops 0, wasted calls 3, calls toolgate saved 0; session: clean",
      "  by tool: Bash 6",
      "  4x Bash rm (3 variants)",
      "      Bash(rm:*) denied 2: a deny rule wins over any allow rule, so narrow or remove Bash(rm:*) to let these calls run",
      "      Bash(rm -rf:*) denied 1: a deny rule wins over any allow rule, so narrow or remove Bash(rm -rf:*) to let these calls run",
      "      2x rm -rf build",
      "      1x rm -rf dist",
      "      1x rm -f x.log (headless)",
      "          minimal allow rule: Bash(rm -f x.log)",
      "  1x Bash npm (1 variant)",
      "      1x npm test (headless)",
      "          minimal allow rule: Bash(npm test)",
      "  1x Bash git (1 variant)",
      "      a deny rule (the host did not name it) denied 1: a deny rule wins over any allow rule, so narrow or remove that deny rule to let these calls run",
      "      1x git push",
      "",
    ]);
  });
});
