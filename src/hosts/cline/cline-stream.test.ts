import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, test } from "vitest";
import { clineStreamDetector, createClineStreamParser } from "./cline-stream.js";

const FIXTURES = resolve("test/fixtures/cline");

function parse(file: string) {
  const parser = createClineStreamParser();
  for (const line of readFileSync(join(FIXTURES, file), "utf8").split("\n")) parser.push(line);
  return parser.summary();
}

describe("cline --json for toolgate run (recorded from cline 3.0.65)", () => {
  test("Cline's own headless refusal is a denial; the run's end is read", () => {
    expect(parse("headless-approval.stream.jsonl")).toEqual({
      host: "cline",
      denials: [
        {
          toolUseId: "call_1",
          tool: "run_commands",
          input: {},
          reason:
            'Tool "run_commands" requires approval in a TTY session -- NOT a tool or system failure. Clarify with user before proceeding.',
        },
      ],
      ended: { isError: false, reason: "completed", stoppedByPermissionLayer: false },
    });
  });

  test("toolgate's refusal is read too (`run` merges it with the record of the same call); a call that ran is none", () => {
    const summary = parse("toolgate-denial.stream.jsonl");
    expect(summary.denials.map((denial) => [denial.toolUseId, denial.tool])).toEqual([["call_2", "run_commands"]]);
    expect(summary.denials[0]?.reason).toMatch(/^\[toolgate\] Denied by rule Bash\(rm \*\): rm -rf build\./);
    expect(summary.ended).toEqual({ isError: false, reason: "completed", stoppedByPermissionLayer: false });
  });

  test("recognises `cline --json`, not other cline commands", () => {
    expect(clineStreamDetector.detect(["/usr/bin/cline", "--json", "fix it"])).toBe(true);
    expect(clineStreamDetector.detect(["npx", "cline", "--retries", "9", "--json", "fix it"])).toBe(true);
    expect(clineStreamDetector.detect(["cline", "fix it"])).toBe(false);
    expect(clineStreamDetector.detect(["clinesmith", "--json"])).toBe(false);
  });
});
