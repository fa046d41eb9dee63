import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { callTokensIn } from "../common/call-tokens.js";
import { jsonObjectOf } from "../common/json-line.js";
import { callLineOf, tokensOfCallLines } from "./claude-call-tokens.js";
import { claudeCodeSession } from "./claude-code-session.js";
import { findTranscriptDenials } from "./transcript-denials.js";

/**
 * The hook's wasted tokens are counted as `toolgate analyze` counts them: over the lines that hold a `"tool_use"`
 * block and name a wanted call, `tokensOfCallLines` gives what the transcript reader (claude-code-session.ts) gives
 * reading those lines (what the hook read them with before).
 */
const readerTokens = (lines: readonly string[], only: readonly string[]) =>
  callTokensIn(claudeCodeSession, lines.join("\n"), { only });

const naming = (text: string, ids: readonly string[]) =>
  text
    .split("\n")
    .map((line, at) => ({ line, at }))
    .filter(({ line }) => line.includes('"tool_use"') && ids.some((id) => id !== "" && line.includes(id)));

const lineTokens = (text: string, ids: readonly string[]) =>
  tokensOfCallLines(
    naming(text, ids).flatMap(({ line, at }) => {
      const call = callLineOf(jsonObjectOf(line), at);
      return call === undefined ? [] : [call];
    }),
  );

const root = join(import.meta.dirname, "..", "..", "..", "test", "fixtures");
function claudeTranscripts(): { name: string; text: string }[] {
  const found: string[] = [];
  const walk = (directory: string) => {
    for (const name of readdirSync(directory)) {
      const path = join(directory, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".jsonl") && !name.includes("stream")) found.push(path);
    }
  };
  walk(join(root, "transcripts", "claude-code"));
  for (const name of readdirSync(join(root, "claude-code")))
    if (name.startsWith("transcript-")) found.push(join(root, "claude-code", name));
  return found.map((path) => ({ name: path.slice(root.length + 1), text: readFileSync(path, "utf8") }));
}

describe("the count itself", () => {
  it("a message split over lines counts once, on its first line's first call; another message counts again", () => {
    const line = (at: number, id: string, calls: string[]) => ({ at, messageId: id, usage: 100, calls });
    // given out of file order: counted in it
    expect(
      tokensOfCallLines([
        line(2, "msg_2", ["toolu_d"]),
        line(0, "msg_1", ["toolu_a", "toolu_b"]),
        line(1, "msg_1", ["toolu_c"]),
      ]),
    ).toEqual({ toolu_a: 100, toolu_b: 0, toolu_c: 0, toolu_d: 100 });
    const record = (id: string) => ({ type: "assistant", message: { id, content: [], usage: { input_tokens: 7 } } });
    expect(callLineOf(record("msg_1"), 3)).toEqual({ at: 3, messageId: "msg_1", usage: 7, calls: [] });
  });
});

describe("tokensOfCallLines: the reader's count, from the lines that made the calls", () => {
  const transcripts = claudeTranscripts();

  it("reads recorded transcripts, some with usage", () => {
    expect(transcripts.length).toBeGreaterThanOrEqual(5);
    const counted = transcripts.map(({ text }) => {
      const ids = [...text.matchAll(/"type":"tool_use","id":"([^"]+)"/g)].map((match) => match[1] as string);
      return Object.values(lineTokens(text, ids)).reduce((sum, count) => sum + count, 0);
    });
    expect(counted.some((sum) => sum > 0)).toBe(true);
  });

  it("every recorded transcript: each call alone, all of them, and every other one, as the reader counts them", () => {
    for (const { name, text } of transcripts) {
      const ids = [...new Set([...text.matchAll(/"id":"(toolu_[^"]+)"/g)].map((match) => match[1] as string))];
      const sets = [...ids.map((id) => [id]), ids, ids.filter((_, index) => index % 2 === 0)];
      for (const only of sets) {
        expect(lineTokens(text, only), `${name}: ${only.join(",")}`).toEqual(
          readerTokens(
            naming(text, only).map(({ line }) => line),
            only,
          ),
        );
      }
    }
  });

  it("made-up transcripts: messages split over lines, several calls a line, text lines between", () => {
    const block = fc.oneof(
      fc.constantFrom("toolu_a", "toolu_b", "toolu_c", "toolu_d").map((id) => ({ type: "tool_use", id, name: "Bash" })),
      fc.constant({ type: "text", text: "toolu_a" }),
    );
    const line = fc.oneof(
      fc.record({
        type: fc.constant("assistant"),
        message: fc.record(
          {
            id: fc.constantFrom("msg_1", "msg_2", "msg_3"),
            content: fc.array(block, { maxLength: 3 }),
            usage: fc.record({ input_tokens: fc.nat(500), output_tokens: fc.nat(50) }),
          },
          { requiredKeys: ["content"] },
        ),
      }),
      fc.constantFrom("toolu_a", "toolu_b").map((id) => ({
        type: "user",
        message: { content: [{ type: "tool_result", tool_use_id: id, content: "x", is_error: true }] },
      })),
    );
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 12 }),
        fc.subarray(["toolu_a", "toolu_b", "toolu_c", "toolu_d"]),
        (lines, only) => {
          const text = lines.map((each) => JSON.stringify({ sessionId: "s", ...each })).join("\n");
          expect(lineTokens(text, only)).toEqual(
            readerTokens(
              naming(text, only).map(({ line }) => line),
              only,
            ),
          );
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("the lines a Stop's reconcile found give what searching for their calls gives", () => {
    for (const { name, text } of transcripts) {
      const denials = findTranscriptDenials(text);
      const found = denials.flatMap((denial) => (denial.callLine === undefined ? [] : [denial]));
      if (found.length === 0) continue;
      const ids = found.map((denial) => denial.toolUseId);
      expect(
        tokensOfCallLines(found.map((denial) => denial.callLine as NonNullable<typeof denial.callLine>)),
        name,
      ).toEqual(lineTokens(text, ids));
    }
  });
});
