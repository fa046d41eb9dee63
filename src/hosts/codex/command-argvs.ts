import { parseShellCommand } from "../../policy/shell/parse-shell-command.js";
import { quoteShellWord } from "../../policy/shell/read-shell-command.js";

/**
 * The argv lists Codex's execpolicy checks for one shell call. Codex runs the model's `cmd` as
 * `/bin/bash -lc <cmd>` and matches rules against each simple command of a plain script (`a && b; c | d`), and
 * against the whole `bash -lc` argv otherwise; toolgate checks both, so a rule Codex would apply is never missed.
 */
export function commandArgvs(command: string): string[][] {
  const argvs: string[][] = [];
  const parsed = parseShellCommand(command);
  for (const simple of parsed.commands) {
    const words = simple.words.map((word) => word.value);
    if (words.length > 0) argvs.push(words);
  }
  argvs.push(["/bin/bash", "-lc", command], ["bash", "-lc", command]);
  return argvs;
}

/** The shell command of a Codex tool call (`Bash` / `exec_command` / `shell` / `local_shell`), if it is one. */
export function shellCommandOf(tool: string, input: unknown): string | undefined {
  if (!["Bash", "exec_command", "shell", "local_shell", "shell_command"].includes(tool)) return undefined;
  if (typeof input !== "object" || input === null) return undefined;
  const record = input as Record<string, unknown>;
  const value = record["command"] ?? record["cmd"];
  if (typeof value === "string") return value;
  if (Array.isArray(value) && value.every((part) => typeof part === "string")) {
    const parts = value as string[];
    // `["bash", "-lc", "script"]`: the script is the command
    if (parts.length === 3 && /(^|\/)(ba)?sh$/.test(parts[0] as string) && /^-l?c$/.test(parts[1] as string)) {
      return parts[2];
    }
    // joined with shell quoting, so parsing it back gives the same words (`["rm", "a b"]` is not `rm a b`)
    return parts.map(quoteShellWord).join(" ");
  }
  return undefined;
}
