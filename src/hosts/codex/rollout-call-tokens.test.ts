import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { callTokensIn } from "../common/call-tokens.js";
import { openTranscript } from "../common/read-transcript.js";
import { codexRollout } from "./codex-rollout.js";

const fixtures = join(import.meta.dirname, "..", "..", "..", "test", "fixtures");
const rollouts = [
  join(fixtures, "codex", "forbidden.rollout.jsonl"),
  ...readdirSync(join(fixtures, "transcripts", "codex"))
    .filter((name) => name.endsWith(".rollout.jsonl"))
    .map((name) => join(fixtures, "transcripts", "codex", name)),
];

describe("a rollout's tokens per call, read from its lines (a Codex Stop) rather than its whole text", () => {
  it("names the same tokens on every recorded rollout, at any window size", () => {
    let named = 0;
    for (const file of rollouts) {
      const fromText = callTokensIn(codexRollout, readFileSync(file, "utf8"));
      if (fromText !== undefined) named += 1;
      expect(callTokensIn(codexRollout, openTranscript(file)!), file).toEqual(fromText);
      expect(callTokensIn(codexRollout, openTranscript(file, undefined, { chunkBytes: 97 })!), file).toEqual(fromText);
    }
    // the comparison is not over rollouts that name nothing
    expect(named).toBeGreaterThanOrEqual(3);
  });
});
