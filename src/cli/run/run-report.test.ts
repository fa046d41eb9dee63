import { describe, expect, it } from "vitest";
import type { DenialRecord } from "../../core/records.js";
import { decideRunOutcome, formatRunReport } from "./run-report.js";

const describe_ = (tool: string, input: unknown) => ({
  summary: JSON.stringify(input),
  signature: `${tool}:${JSON.stringify(input)}`,
  allowRule: `${tool}(${(input as { command?: string }).command ?? ""})`,
});

const record = (toolUseId: string, command: string): DenialRecord => ({
  seq: 1,
  sessionId: "s",
  turn: 1,
  tool: "Bash",
  toolUseId,
  source: "rule",
  reason: "denied",
  rule: "Bash(rm:*)",
  signature: `Bash:${command}`,
  pattern: "rm",
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
    expect(text).toContain("denied by rule Bash(rm:*)");
    expect(text).toContain("minimal allow rule: Bash(rm -rf x)");
  });

  it("--fail-on abort ignores plain denials; never keeps the agent's code", () => {
    const base = { agentExitCode: 0, stream: stream(["t1"]), records: [], describe: describe_ };
    expect(decideRunOutcome({ ...base, failOn: "abort" }).exitCode).toBe(0);
    expect(decideRunOutcome({ ...base, failOn: "never", aborted: { reason: "x" } }).exitCode).toBe(0);
  });
});
