import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { rolloutDenials } from "./rollout-outcomes.js";

const fixtures = join(import.meta.dirname, "..", "..", "..", "test", "fixtures");
const read = (path: string) => readFileSync(join(fixtures, path), "utf8");

describe("rolloutDenials (Codex 0.169.0 rollouts)", () => {
  it("lists each call Codex refused with a forbidden rule, once, keyed by call id, as the hooks name it", () => {
    const denials = rolloutDenials(read("codex/forbidden.rollout.jsonl"));
    expect(denials.map((denial) => denial.toolUseId)).toEqual(["call_1", "call_2"]);
    expect(denials[0]).toMatchObject({ tool: "Bash", input: { command: "rm -rf victim" }, source: "rule" });
    expect(denials[0]?.text).toContain("rejected: rm is forbidden");
  });

  it("a prompt rule under approval never is a headless refusal", () => {
    const denials = rolloutDenials(read("transcripts/codex/ask.rollout.jsonl"));
    expect(denials.length).toBeGreaterThan(0);
    expect(denials.every((denial) => denial.source === "headless")).toBe(true);
  });

  it("calls that ran (an exit code in the output) are not refusals", () => {
    expect(rolloutDenials(read("transcripts/codex/legitimate.rollout.jsonl"))).toEqual([]);
    expect(rolloutDenials(read("transcripts/codex/eacces.rollout.jsonl"))).toEqual([]);
  });

  it("ignores torn and foreign lines", () => {
    const text = `${read("codex/forbidden.rollout.jsonl")}\n{"type":"response_item","payload":{"type":"function_call_out`;
    expect(rolloutDenials(text)).toHaveLength(2);
    expect(rolloutDenials("not json\n{}\n")).toEqual([]);
  });
});
