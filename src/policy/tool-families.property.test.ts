import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readShellCommand } from "./shell/read-shell-command.js";
import { commandOf, pathOf, urlOf } from "./tool-families.js";

/** the fields a file tool's path is read from, in order (the reference `pathOf` reads by name) */
const PATH_FIELDS = ["file_path", "filePath", "notebook_path", "path", "absolute_path", "dir_path"];

function referencePathOf(input: unknown): string | undefined {
  for (const name of PATH_FIELDS) {
    const value = typeof input === "object" && input !== null ? (input as Record<string, unknown>)[name] : undefined;
    if (typeof value === "string" && value !== "") return value;
  }
  return undefined;
}

const value = fc.oneof(fc.constant(""), fc.string(), fc.integer(), fc.constant(null), fc.constant(undefined));
const input = fc.oneof(
  fc.record(
    {
      file_path: value,
      filePath: value,
      notebook_path: value,
      path: value,
      absolute_path: value,
      dir_path: value,
      url: value,
    },
    { requiredKeys: [] },
  ),
  value,
  fc.array(fc.string()),
);

describe("the input fields rules read", () => {
  it("pathOf takes the first non-empty string among the path fields, in their order", () => {
    fc.assert(
      fc.property(input, (call) => {
        expect(pathOf(call)).toBe(referencePathOf(call));
      }),
      { numRuns: 2000 },
    );
  });

  it("urlOf takes url when it is a string", () => {
    fc.assert(
      fc.property(input, (call) => {
        const url = typeof call === "object" && call !== null ? (call as { url?: unknown }).url : undefined;
        expect(urlOf(call)).toBe(typeof url === "string" ? url : undefined);
      }),
    );
  });

  it("commandOf reads exactly the command readShellCommand reads, or undefined where it finds none", () => {
    const text = fc.oneof(
      fc.constantFrom("ls -la", "git status", "rm\u0000 -rf x", "a\tb", "cat\r\nx", "é", ""),
      fc.string(),
    );
    const field = fc.oneof(text, fc.array(text), fc.integer(), fc.constant(null), fc.constant(undefined));
    const shellInput = fc.oneof(
      fc.record({ command: field, cmd: field, description: fc.string() }, { requiredKeys: [] }),
      fc.record({ command: text }),
      field,
    );
    let read = 0;
    fc.assert(
      fc.property(shellInput, (call) => {
        const reading = readShellCommand(call);
        const expected = "command" in reading ? reading.command : undefined;
        expect(commandOf(call)).toBe(expected);
        if (expected !== undefined) read++;
      }),
      { numRuns: 5000 },
    );
    expect(read).toBeGreaterThan(1000);
  });
});
