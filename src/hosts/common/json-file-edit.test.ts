import { describe, expect, it } from "vitest";
import { editJsonText, formattingOf, parseJsonc } from "./json-file-edit.js";

function change(text: string, update: (value: Record<string, unknown>) => Record<string, unknown>): string {
  const before = parseJsonc(text) as Record<string, unknown>;
  const after = update(structuredClone(before));
  const next = editJsonText({ text, before, after });
  expect(parseJsonc(next)).toEqual(after);
  return next;
}

describe("editJsonText", () => {
  it("removes the first, a middle and the last element without touching the others", () => {
    const text = '{\n  "plugin": [\n    "a", // keep\n    "b",\n    "c"\n  ]\n}\n';
    expect(change(text, (v) => ({ ...v, plugin: ["b", "c"] }))).toBe('{\n  "plugin": [\n    "b",\n    "c"\n  ]\n}\n');
    expect(change(text, (v) => ({ ...v, plugin: ["a", "c"] }))).toBe(
      '{\n  "plugin": [\n    "a", // keep\n    "c"\n  ]\n}\n',
    );
    expect(change(text, (v) => ({ ...v, plugin: ["a", "b"] }))).toBe(
      '{\n  "plugin": [\n    "a", // keep\n    "b"\n  ]\n}\n',
    );
  });

  it("appends a key after the last one, in the file's indentation, keeping a file without a final newline so", () => {
    const text = '{\n   "$schema": "https://opencode.ai/config.json",\n   "model": "x"\n}';
    expect(change(text, (v) => ({ ...v, plugin: ["p"] }))).toBe(
      '{\n   "$schema": "https://opencode.ai/config.json",\n   "model": "x",\n   "plugin": [\n      "p"\n   ]\n}',
    );
  });

  it("edits a one-line container without reformatting the rest of the file", () => {
    const text = '{\n  "a": [1, 2],\n  "b": {"x":1}\n}\n';
    const next = change(text, (v) => ({ ...v, a: [1, 2, 3] }));
    expect(next.split("\n").slice(-3)).toEqual(['  "b": {"x":1}', "}", ""]);
  });

  it("removes a key and fills an empty object", () => {
    expect(change('{\n  "a": 1,\n  "b": 2\n}\n', ({ b: _b, ...rest }) => rest)).toBe('{\n  "a": 1\n}\n');
    expect(change("{}\n", () => ({ plugin: ["p"] }))).toBe('{\n  "plugin": [\n    "p"\n  ]\n}\n');
  });
});

describe("formattingOf", () => {
  it("reads tabs, spaces and CRLF from the file", () => {
    expect(formattingOf('{\r\n\t"a": 1\r\n}')).toEqual({ insertSpaces: false, tabSize: 1, eol: "\r\n" });
    expect(formattingOf('{\n    "a": 1\n}')).toEqual({ insertSpaces: true, tabSize: 4, eol: "\n" });
    expect(formattingOf("{}")).toEqual({ insertSpaces: true, tabSize: 2, eol: "\n" });
  });
});
