import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { linesNaming, transcriptNaming } from "./call-tokens.js";
import { TranscriptChangedError, transcriptLinesOf } from "./hook-host.js";

/** what linesNaming replaces: every line searched for every id */
const naive = (text: string, ids: readonly string[]) =>
  text.split("\n").filter((line) => ids.some((id) => id !== "" && line.includes(id)));

describe("linesNaming", () => {
  it("gives the lines that name an id, in order, once each", () => {
    const text = 'a toolu_1 x\n{"id":"toolu_2"} toolu_1\nnothing\n\ntoolu_3 at the end';
    expect(linesNaming(text, ["toolu_1", "toolu_3"])).toEqual([
      "a toolu_1 x",
      '{"id":"toolu_2"} toolu_1',
      "toolu_3 at the end",
    ]);
    expect(linesNaming(text, [])).toEqual([]);
    expect(linesNaming(text, [""])).toEqual([]);
  });

  it("finds what searching every line for every id finds", () => {
    const word = fc.constantFrom("toolu_1", "toolu_12", "toolu_2", "x", " ", "\n", '"', "tool", "u_1");
    fc.assert(
      fc.property(
        fc.array(word, { maxLength: 40 }).map((parts) => parts.join("")),
        fc.array(fc.constantFrom("toolu_1", "toolu_12", "toolu_2", "u_1", "x"), { maxLength: 4 }),
        (text, ids) => {
          expect(linesNaming(text, ids)).toEqual(naive(text, ids));
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe("transcriptNaming", () => {
  const text = [
    '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"toolu_1"}]}}',
    '{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_1","is_error":true}]}}',
    '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"toolu_2"}]}}',
    '{"type":"assistant","message":{"content":[{"type":"text","text":"toolu_3"}]}}',
  ].join("\n");
  const context = {
    openTranscript: () => transcriptLinesOf(text),
    readTranscript: () => text,
  };

  it("gives the lines that name an id", () => {
    expect(transcriptNaming(context, { path: "t", ids: ["toolu_1", "toolu_3"] })?.split("\n")).toEqual([
      text.split("\n")[0],
      text.split("\n")[1],
      text.split("\n")[3],
    ]);
  });

  it("without openTranscript, the whole text", () => {
    expect(transcriptNaming({ readTranscript: () => text }, { path: "t", ids: ["toolu_1"] })).toBe(text);
  });

  it("a transcript changed while it was searched reads as unreadable; any other failure is not hidden", () => {
    const failing = (error: Error) => ({
      openTranscript: () => ({
        linesWith: () => {
          throw error;
        },
        lastWith: () => undefined,
        eachLine: () => [],
        searchedText: () => text,
      }),
      readTranscript: () => text,
    });
    expect(transcriptNaming(failing(new TranscriptChangedError("t")), { path: "t", ids: ["toolu_1"] })).toBeUndefined();
    expect(() => transcriptNaming(failing(new Error("a bug")), { path: "t", ids: ["toolu_1"] })).toThrow("a bug");
  });
});
