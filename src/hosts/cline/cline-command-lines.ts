import { quoteShellWord } from "../../policy/shell/read-shell-command.js";

/**
 * The command lines a Cline `run_commands` call runs, in order, or why they cannot be read. Cline 3.0.65 accepts
 * (`RunCommandsInputUnionSchema`, normalised by its `aZ`):
 * - a string, or an array of strings: shell command lines;
 * - `{ command, args }`: the executable run directly with that argv (no shell). toolgate writes it as the command
 *   line a shell would need to run the same argv, each word shell-quoted (`{ command: "git", args: ["push", "-f"] }`
 *   -> `git push -f`, `"a b"` -> `'a b'`), so a rule reads the words the process gets;
 * - `{ command }` without `args`, `{ cmd }`: a shell command line;
 * - `{ commands }`: an array of entries (a string, or `{ command, args? }` as above) or one such entry;
 * - an array of `{ command, args? }` entries.
 * Cline keeps the first form of its union an input matches and drops the other fields; toolgate reads every one of
 * `commands`, `command` and `cmd` an input holds, so no command it could run goes unread. Anything else (no command,
 * an empty one, a number, `args` that are not strings) cannot be read: the caller refuses the call.
 */
export type CommandLinesReading = { lines: string[] } | { unreadable: string };

export function clineCommandLines(input: unknown): CommandLinesReading {
  const lines: string[] = [];
  const why = readInto(input, lines);
  if (why !== undefined) return { unreadable: why };
  return lines.length === 0 ? { unreadable: "it names no command" } : { lines };
}

/** Reads the top-level input into `lines`; returns why it cannot, or undefined. */
function readInto(input: unknown, lines: string[]): string | undefined {
  if (typeof input === "string" || Array.isArray(input)) return readEntries(input, lines);
  if (typeof input !== "object" || input === null) return `its input is ${kindOf(input)}`;
  const record = input as Record<string, unknown>;
  const fields = ["commands", "command", "cmd"].filter((field) => record[field] !== undefined);
  if (fields.length === 0) return "it has no commands, command or cmd field";
  for (const field of fields) {
    const why =
      field === "commands"
        ? readEntries(record["commands"], lines)
        : field === "command"
          ? readEntry({ command: record["command"], ...("args" in record ? { args: record["args"] } : {}) }, lines)
          : readEntry(record["cmd"], lines);
    if (why !== undefined) return why;
  }
  return undefined;
}

/** One entry, or an array of entries. */
function readEntries(value: unknown, lines: string[]): string | undefined {
  if (!Array.isArray(value)) return readEntry(value, lines);
  for (const entry of value) {
    const why = readEntry(entry, lines);
    if (why !== undefined) return why;
  }
  return undefined;
}

/** A command line (a string), or `{ command, args? }`. */
function readEntry(entry: unknown, lines: string[]): string | undefined {
  if (typeof entry === "string") {
    if (entry.trim() === "") return "a command is empty";
    lines.push(entry);
    return undefined;
  }
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) return `a command is ${kindOf(entry)}`;
  const { command, args } = entry as { command?: unknown; args?: unknown };
  if (typeof command !== "string" || command.trim() === "")
    return "a command's command field is not a non-empty string";
  // no `args`: Cline runs `command` through the shell, as a command line
  if (!("args" in entry)) {
    lines.push(command);
    return undefined;
  }
  if (!Array.isArray(args) || !args.every((arg): arg is string => typeof arg === "string")) {
    return "a command's args are not an array of strings";
  }
  // `args`: Cline runs `command` itself with that argv, no shell; the line a shell would need to run the same
  lines.push([command, ...args].map(quoteShellWord).join(" "));
  return undefined;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "missing";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}
