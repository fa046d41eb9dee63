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

describe("rolloutDenialsIn reads each window of a long rollout about once", () => {
  it.runIf(process.platform === "linux")("calls are searched newest output first, in the windows already read", () => {
    // the recorded stubborn rollout 50 times over (2.4 MB), each copy's call ids its own
    const text = read("transcripts/codex/stubborn.rollout.jsonl").trimEnd();
    const ids = [...new Set([...text.matchAll(/"call_id":"([^"]+)"/g)].map((match) => match[1] as string))];
    const copies = Array.from({ length: 50 }, (_, copy) =>
      ids.reduce((each, id) => each.replaceAll(`"${id}"`, `"${id}~${copy}"`), text),
    );
    const long = `${copies.join("\n")}\n`;
    const file = writeRollout(long);
    // bytes this process read while the synchronous search ran (Linux: /proc/self/io)
    const rchar = () => Number(/^rchar: (\d+)$/m.exec(readFileSync("/proc/self/io", "utf8"))?.[1]);
    const before = rchar();
    const denials = rolloutDenialsIn(openTranscript(file)!);
    const bytesRead = rchar() - before;
    expect(denials).toHaveLength(50 * rolloutDenials(text).length);
    // before: 18 times the rollout (a window read again for each output, searched in file order)
    expect(bytesRead).toBeLessThan(4 * Buffer.byteLength(long));
  });
});
