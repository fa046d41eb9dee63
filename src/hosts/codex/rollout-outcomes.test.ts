import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { temporaryDirectory } from "../../../test/support/temporary-directory.js";
import { transcriptLinesOf } from "../common/hook-host.js";
import { openTranscript } from "../common/read-transcript.js";
import { rolloutDenials, rolloutDenialsIn } from "./rollout-outcomes.js";

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

const ROLLOUTS = [
  "codex/forbidden.rollout.jsonl",
  "transcripts/codex/ask.rollout.jsonl",
  "transcripts/codex/eacces.rollout.jsonl",
  "transcripts/codex/legitimate.rollout.jsonl",
  "transcripts/codex/stubborn.rollout.jsonl",
];

describe("rolloutDenialsIn (a rollout searched line by line, from a cursor)", () => {
  it("finds the same denials in a rollout's text and in its file (the lines a hook opens), on every recorded rollout", () => {
    for (const name of ROLLOUTS) {
      const text = read(name);
      expect(rolloutDenialsIn(transcriptLinesOf(text)), name).toEqual(rolloutDenials(text));
      expect(rolloutDenialsIn(openTranscript(writeRollout(text))!), name).toEqual(rolloutDenials(text));
    }
  });

  it("from a cursor at any line, finds exactly the refusals answered after it, with calls made before it", () => {
    let checked = 0;
    for (const name of ROLLOUTS) {
      const lines = read(name).split(/(?<=\n)/);
      const whole = rolloutDenials(lines.join(""));
      for (let cut = 0; cut <= lines.length; cut++) {
        // the rollout as far as an earlier event saw it, its cursor, then the rest appended
        const file = writeRollout(lines.slice(0, cut).join(""));
        const cursor = openTranscript(file)?.next;
        appendFileSync(file, lines.slice(cut).join(""));
        const after = rolloutDenialsIn(openTranscript(file, cursor)!);
        const answeredBefore = new Set(rolloutDenials(lines.slice(0, cut).join("")).map((denial) => denial.toolUseId));
        expect(after, `${name} cut at line ${cut}`).toEqual(
          whole.filter((denial) => !answeredBefore.has(denial.toolUseId)),
        );
        if (whole.length > 0 && after.length > 0 && after.length < whole.length) checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(0); // some cuts split the refusals
  });
});

function writeRollout(text: string): string {
  const file = join(temporaryDirectory("toolgate-rollout-"), "rollout.jsonl");
  writeFileSync(file, text);
  return file;
}
