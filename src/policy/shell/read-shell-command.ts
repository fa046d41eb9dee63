import { isSingleSpacedLine } from "./parse-shell-command.js";

/**
 * The command line a shell call would run, read from whatever shape a host or an app passes it in, or why it
 * cannot be read. The policy decides on exactly this text, so a shape it cannot read is refused, never let through
 * as an empty command:
 * - `command` (most hosts' shell tools, AI SDK tools mapped to Bash), else `cmd` (an `exec_command` tool's field); both present and different: unreadable (which one runs is the tool's choice, not ours);
 * - a string: as written;
 * - an argv array of strings (a `shell` tool's argv, `execFile`-style tools): the words joined with shell quoting, so the
 *   policy sees the command a process would run (`["rm", "-rf", "a b"]` -> `rm -rf 'a b'`);
 * - anything else (a number, an object, an array holding a non-string, an empty argv, no command at all):
 *   unreadable;
 * - a NUL or another control character a shell does not treat as whitespace (everything below U+0020 but tab and
 *   newline, DEL, U+0080-U+009F): unreadable. bash drops NUL bytes from a script, so `rm\0 -rf x` would run
 *   `rm -rf x` while a rule reads the word `rm\0`.
 */
export type ShellCommandReading = { command: string } | { unreadable: string };

/** Control characters a shell reads as part of a word (tab and newline are its whitespace and separator). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what this looks for
export const UNREADABLE_CHARACTER = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
/**
 * Whether `text` holds a character `UNREADABLE_CHARACTER` matches (U+0000-U+0008, U+000B-U+001F, U+007F-U+009F).
 * Every shell call's command goes through it: the pattern's compiled scan costs about half the instructions per
 * character of a `charCodeAt` loop in optimised JavaScript (callgrind, Node 20: ~16 against ~30 on a 55-character
 * line); property-tested against a char-code definition.
 */
export function hasUnreadableCharacter(text: string): boolean {
  // a single-spaced plain line (most agent commands) is printable ASCII; the tokeniser then finds it in one comparison
  return !isSingleSpacedLine(text) && UNREADABLE_CHARACTER.test(text);
}

/** Words that need no quoting in a POSIX shell. */
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** One argv word as a POSIX shell would need it written to pass it unchanged. */
export function quoteShellWord(word: string): string {
  if (PLAIN_WORD.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

function readValue(value: unknown, name: string): ShellCommandReading {
  if (typeof value === "string") {
    return hasUnreadableCharacter(value)
      ? { unreadable: `its ${name} holds a control character (a NUL, a carriage return, an escape, ...)` }
      : { command: value };
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return { unreadable: `its ${name} is an empty argv array` };
    const words: string[] = [];
    for (const word of value) {
      if (typeof word !== "string") return { unreadable: `its ${name} argv array holds a ${kindOf(word)}` };
      if (hasUnreadableCharacter(word)) {
        return { unreadable: `its ${name} argv array holds a control character (a NUL, a carriage return, ...)` };
      }
      words.push(quoteShellWord(word));
    }
    return { command: words.join(" ") };
  }
  return { unreadable: `its ${name} is a ${kindOf(value)}, not a string or an argv array of strings` };
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

export function readShellCommand(input: unknown): ShellCommandReading {
  // the two fields read by name (one property load each, not a lookup by a variable name)
  const record =
    typeof input === "object" && input !== null && !Array.isArray(input)
      ? (input as { command?: unknown; cmd?: unknown })
      : undefined;
  const command = record?.command;
  const cmd = record?.cmd;
  if (command === undefined && cmd === undefined) return { unreadable: "it has no command (nor cmd) field" };
  const reading = command === undefined ? readValue(cmd, "cmd") : readValue(command, "command");
  if (command === undefined || cmd === undefined || "unreadable" in reading) return reading;
  const other = readValue(cmd, "cmd");
  return "command" in other && other.command === reading.command
    ? reading
    : { unreadable: "it has both a command and a cmd field, and they differ" };
}
