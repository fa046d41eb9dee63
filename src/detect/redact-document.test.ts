import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { secretCorpus } from "../../test/support/redaction-corpus.mjs";
import { detectDocumentFormat, redactDocument } from "./redact-document.js";

const corpus = secretCorpus();

describe("redactDocument", () => {
  it("detects the format", () => {
    expect(detectDocumentFormat('{"a": 1}')).toBe("json");
    expect(detectDocumentFormat('{"a": 1}\n{"b": 2}\n')).toBe("jsonl");
    expect(detectDocumentFormat("export A=1\n")).toBe("text");
    expect(detectDocumentFormat("[not json")).toBe("text");
  });

  it("keeps JSON valid and its indentation, whatever the strings hold", () => {
    const text = fc.oneof(fc.constantFrom(...corpus.map((row) => row.text), 'password="x\\"y"', "a\\"), fc.string());
    const json = fc.dictionary(
      fc.oneof(text, fc.string()),
      fc.oneof(text, fc.integer(), fc.array(text, { maxLength: 3 })),
      {
        maxKeys: 5,
      },
    );
    fc.assert(
      fc.property(json, fc.constantFrom(0, 2, 4), (value, indent) => {
        const input = `${JSON.stringify(value, null, indent || undefined)}\n`;
        const result = redactDocument(input, { format: "json" });
        const parsed = JSON.parse(result.output);
        expect(Object.keys(parsed)).toHaveLength(Object.keys(value).length);
        for (const row of corpus) {
          for (const secret of row.secrets) expect(result.output).not.toContain(secret);
        }
        if (indent > 0 && Object.keys(value).length > 0) expect(result.output).toContain(`\n${" ".repeat(indent)}"`);
      }),
      { numRuns: 300 },
    );
  });

  it("redacts JSONL line by line and leaves other lines as text", () => {
    const rows = corpus.slice(0, 5);
    const input = `${rows.map((row) => JSON.stringify({ input: row.text })).join("\n")}\nnot json: ${rows[0]?.secrets[0]}\n\n`;
    const result = redactDocument(input);
    expect(result.format).toBe("jsonl");
    const lines = result.output.split("\n");
    expect(lines).toHaveLength(input.split("\n").length);
    for (const line of lines.slice(0, 5)) expect(() => JSON.parse(line)).not.toThrow();
    for (const row of rows) for (const secret of row.secrets) expect(result.output).not.toContain(secret);
    expect(result.total).toBeGreaterThanOrEqual(6);
  });

  it("counts by kind and throws on invalid JSON when JSON is demanded", () => {
    expect(redactDocument("password=hunter22 and password=hunter33").findings).toEqual({ password: 2 });
    expect(() => redactDocument("{bad", { format: "json" })).toThrow(SyntaxError);
  });
});
