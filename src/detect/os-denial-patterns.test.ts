import { describe, expect, it } from "vitest";
import {
  ABSOLUTE_PATH,
  mayNamePath,
  mayNameRefusal,
  PATH_PATTERNS,
  PERMISSION_LINE,
  REFUSAL_WORDS,
  SOCKET_CONTEXT,
} from "./os-denial-patterns.js";

/** The top-level alternatives of a pattern's source (`a|b(?:c|d)|e` → `a`, `b(?:c|d)`, `e`). */
function alternatives(pattern: RegExp): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  const source = pattern.source;
  for (let index = 0; index < source.length; index += 1) {
    const character = source[index];
    if (character === "\\") index += 1;
    else if (character === "(" || character === "[") depth += 1;
    else if (character === ")" || character === "]") depth -= 1;
    else if (character === "|" && depth === 0) {
      parts.push(source.slice(start, index));
      start = index + 1;
    }
  }
  parts.push(source.slice(start));
  return parts;
}

// One line for each alternative, in the order of the pattern, in mixed case: the patterns ignore case.
const PERMISSION_EXAMPLES = [
  "mkdir: /x: Operation Not Permitted",
  "bash: ./x.sh: Permission denied",
  "Error: EACCES, open '/x'",
  "code EPERM",
  "touch: /usr/x: Read-only file system",
  "Error: EROFS",
  "Access is denied.",
  "Access to the path 'C:\\x' is denied.",
  "System.UnauthorizedAccessException: nope",
  "PermissionError: nope",
  "OSError: [Errno 13] nope",
  "failed (os error 13)",
  "Insufficient permission to write",
  "sandbox_apply: failed",
  "Sandbox-Exec: failed",
  "deny(1) file-write-create /x",
  "refused by Landlock",
  "killed by seccomp",
  "Fs.PermissionDenied",
  "NetworkAccessDenied",
  "write blocked by the sandbox",
  "sandbox blocked it",
  "not permitted by sandbox",
];
const SOCKET_EXAMPLES = [
  "connect() failed: EACCES",
  "EPERM 127.0.0.1:8080",
  "failed to connect to example.com: Operation not permitted",
  "network-outbound 1.2.3.4",
  "network-bind *:80",
  "NetworkAccessDenied",
  "Network access to example.com is blocked",
];

describe("REFUSAL_WORDS", () => {
  for (const [name, pattern, examples] of [
    ["PERMISSION_LINE", PERMISSION_LINE, PERMISSION_EXAMPLES],
    ["SOCKET_CONTEXT", SOCKET_CONTEXT, SOCKET_EXAMPLES],
  ] as const) {
    it(`names a word of every alternative of ${name} (a line without one is not run through it)`, () => {
      const parts = alternatives(pattern);
      // a new alternative needs its example here, and a word in REFUSAL_WORDS unless one it holds is there
      expect(parts.length).toBe(examples.length);
      for (const [index, part] of parts.entries()) {
        const example = examples[index] as string;
        expect(new RegExp(part, "i").test(example), `${part} on ${example}`).toBe(true);
        expect(mayNameRefusal(example.toLowerCase()), `a word of ${part}`).toBe(true);
      }
    });
  }

  it("finds no word in ordinary output", () => {
    for (const text of ["exit code 1", "src/a.ts:12:3 - error ts2322", "command not found: foo", "1 failed, 3 passed"])
      expect(mayNameRefusal(text), text).toBe(false);
    expect(REFUSAL_WORDS.every((word) => word === word.toLowerCase())).toBe(true);
  });
});

// One line for each of PATH_PATTERNS, in order, then one for ABSOLUTE_PATH.
const PATH_EXAMPLES = [
  "Error: EACCES: permission denied, open '/etc/shadow'",
  "PermissionError: [Errno 13] Permission denied: '/etc/hosts'",
  "Access to the path 'C:\\x' is denied.",
  "cannot create `x`",
  "error: could not lock config file .git/config: Permission denied",
  "Cannot connect to unix:///var/run/docker.sock",
  "find: '/proc/1/fd': Permission denied",
  "ls: Desktop: Operation not permitted",
  "failed to open: /home/u/.cargo/x",
  "npm ERR! path x",
  "denied at /x",
];

describe("mayNamePath", () => {
  it("holds for a line each path pattern matches (the others are not run through them)", () => {
    const patterns = [...PATH_PATTERNS, ABSOLUTE_PATH];
    expect(patterns.length).toBe(PATH_EXAMPLES.length);
    for (const [index, pattern] of patterns.entries()) {
      const example = PATH_EXAMPLES[index] as string;
      expect(pattern.test(example), `${pattern} on ${example}`).toBe(true);
      expect(mayNamePath(example), example).toBe(true);
    }
  });

  it("is false for a line no path pattern can match", () => {
    for (const line of ["Exit code 1", "", "Permission denied", "command not found"]) {
      expect(mayNamePath(line), line).toBe(false);
      for (const pattern of [...PATH_PATTERNS, ABSOLUTE_PATH]) expect(pattern.test(line)).toBe(false);
    }
  });
});
