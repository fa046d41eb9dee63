import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { isSingleSpacedLine, parsePlainWords, parseShellCommand, SINGLE_SPACED_LINE } from "./parse-shell-command.js";
import {
  hasUnreadableCharacter,
  quoteShellWord,
  readShellCommand,
  UNREADABLE_CHARACTER,
} from "./read-shell-command.js";

describe("readShellCommand", () => {
  it("reads a string as written, from command or cmd", () => {
    expect(readShellCommand({ command: "rm -rf v" })).toEqual({ command: "rm -rf v" });
    expect(readShellCommand({ cmd: "ls\tx\ny" })).toEqual({ command: "ls\tx\ny" });
    expect(readShellCommand({ command: "ls", cmd: "ls" })).toEqual({ command: "ls" });
  });

  it("joins an argv array with shell quoting: the command a process would run", () => {
    expect(readShellCommand({ command: ["rm", "-rf", "v"] })).toEqual({ command: "rm -rf v" });
    expect(readShellCommand({ cmd: ["rm", "a b", "it's", ""] })).toEqual({ command: `rm 'a b' 'it'\\''s' ''` });
    expect(readShellCommand({ command: ["sh", "-c", "rm -rf /; echo $HOME"] })).toEqual({
      command: `sh -c 'rm -rf /; echo $HOME'`,
    });
  });

  it("quoted argv words parse back to the same words, whatever they hold", () => {
    const word = fc.string({
      unit: fc.constantFrom(..."ab -;&|()<>$`'\"\\\n\t#{}=*~!?[]0123".split(""), "é", "$(", "\u00a0"),
      maxLength: 12,
    });
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 5 }), (argv) => {
        const reading = readShellCommand({ command: argv });
        expect("command" in reading).toBe(true);
        const parsed = parseShellCommand((reading as { command: string }).command);
        expect(parsed.complete).toBe(true);
        expect(parsed.commands.map((command) => command.words.map((parsedWord) => parsedWord.value))).toEqual([argv]);
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    ["a NUL in a string", { command: "rm\u0000 -rf w; echo done" }],
    ["a carriage return", { command: "rm\r -rf w" }],
    ["an escape", { command: "rm\u001b[2K -rf w" }],
    ["DEL", { command: "rm\u007f -rf w" }],
    ["a C1 control", { command: "rm\u0085 -rf w" }],
    ["a NUL in an argv word", { command: ["rm\u0000", "-rf", "w"] }],
    ["a number", { command: 42 }],
    ["an object", { command: { program: "rm", args: ["-rf", "w"] } }],
    ["null", { command: null }],
    ["an argv array holding a number", { command: ["rm", 1] }],
    ["an argv array holding an array", { command: ["rm", ["-rf", "w"]] }],
    ["an empty argv array", { command: [] }],
    ["no command at all", { script: "rm -rf w" }],
    ["command and cmd that differ", { command: "ls", cmd: "rm -rf w" }],
    ["an unreadable command beside a readable cmd", { command: 42, cmd: "ls" }],
    ["an input that is not an object", "rm -rf w"],
    ["an input that is an array", ["rm", "-rf", "w"]],
  ])("refuses %s", (_, input) => {
    expect(readShellCommand(input)).toEqual({ unreadable: expect.any(String) });
  });

  it("leaves plain words unquoted and quotes everything else", () => {
    expect(quoteShellWord("--flag=a/b.c:1,2@x%y+z")).toBe("--flag=a/b.c:1,2@x%y+z");
    expect(quoteShellWord("~")).toBe("'~'");
    expect(quoteShellWord("*.ts")).toBe("'*.ts'");
  });

  /** the reference: the characters by their codes (U+0000-U+0008, U+000B-U+001F, U+007F-U+009F), one by one */
  const byCodes = (text: string): boolean => {
    for (let index = 0; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (code < 0x20 ? code !== 0x09 && code !== 0x0a : code >= 0x7f && code <= 0x9f) return true;
    }
    return false;
  };

  it("finds an unreadable character exactly where the char-code definition does", () => {
    // every code unit from U+0000 to U+00FF on its own and at the end of a word, and random strings of them
    for (let code = 0; code <= 0xff; code++) {
      const character = String.fromCharCode(code);
      for (const text of [character, `rm -rf ${character}`, `${character}x`]) {
        expect(hasUnreadableCharacter(text)).toBe(byCodes(text));
        expect(UNREADABLE_CHARACTER.test(text)).toBe(byCodes(text));
      }
    }
    fc.assert(
      fc.property(
        fc.string({ unit: fc.integer({ min: 0, max: 0x3ff }).map((code) => String.fromCharCode(code)) }),
        (text) => {
          expect(hasUnreadableCharacter(text)).toBe(byCodes(text));
        },
      ),
      { numRuns: 5000 },
    );
  });
});

describe("a single-spaced plain line, read and then tokenised", () => {
  it("is tested against the pattern once for both questions (no control character; its words)", () => {
    const line = "cd /repo && git status --short 7 | grep ok";
    const spy = vi.spyOn(SINGLE_SPACED_LINE, "test");
    try {
      expect(hasUnreadableCharacter(line)).toBe(false);
      expect(parsePlainWords(line)).toEqual([
        ["cd", "/repo"],
        ["git", "status", "--short", "7"],
        ["grep", "ok"],
      ]);
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });

  it("isSingleSpacedLine answers as the pattern does, whatever line it was asked about before", () => {
    const reference = new RegExp(SINGLE_SPACED_LINE.source);
    const line = fc.oneof(
      fc.constantFrom("", " ", "ls", "ls -la", "a && b", "a  b", "a\tb", "a\u0000b", "&&", "ls ", " ls"),
      fc
        .array(fc.constantFrom("a", "b", " ", "&", "|", ";", "\t", "\u0000", "-"), { maxLength: 12 })
        .map((chars) => chars.join("")),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 6 }), (lines) => {
        for (const text of lines) {
          expect(isSingleSpacedLine(text)).toBe(reference.test(text));
          expect(hasUnreadableCharacter(text)).toBe(UNREADABLE_CHARACTER.test(text));
        }
      }),
      { numRuns: 500 },
    );
  });
});
