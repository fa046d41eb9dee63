/**
 * The "claude-code" defaults preset: what Claude Code 2.1.330 does for a call that no rule matches, as observed in
 * test/fixtures/conformance/claude-code-rules.json and documented in docs/rules.md ("Defaults preset").
 * - read-only shell commands run without approval when every path they name is inside the working directories;
 * - Read/Grep/Glob/LS inside the working directories run without approval;
 * - in acceptEdits mode, file edits, `mkdir`/`touch`/`mv`/`cp`/`rm`/`rmdir`/`sed -i` and output redirections of
 *   read-only commands inside the working directories run;
 * - tools that need no permission in Claude Code (TodoWrite, Task, ...) run;
 * - everything else asks (the mode then decides).
 * The preset is data so it can be read, tested and turned off (`--claude-settings off` / `defaults: "none"`).
 */
export interface DefaultsPreset {
  name: string;
  /** programs whose every invocation only reads (paths checked against the working directories) */
  readOnlyCommands: ReadonlySet<string>;
  /** read-only git subcommands */
  readOnlyGitSubcommands: ReadonlySet<string>;
  /** flags that make an otherwise read-only program write or execute (`find -delete`, `sed -i`) */
  unsafeFlags: Readonly<Record<string, readonly string[]>>;
  /** programs acceptEdits runs inside the working directories */
  acceptEditsCommands: ReadonlySet<string>;
  /** tools that never need approval */
  noPermissionTools: ReadonlySet<string>;
  /** whether read-family tools inside the working directories run without approval */
  readInsideWorkingDirectories: boolean;
}

export const CLAUDE_CODE_DEFAULTS: DefaultsPreset = {
  name: "claude-code",
  readOnlyCommands: new Set([
    "ls",
    "cat",
    "echo",
    "printf",
    "pwd",
    "head",
    "tail",
    "grep",
    "egrep",
    "fgrep",
    "rg",
    "find",
    "wc",
    "which",
    "whereis",
    "type",
    "diff",
    "cmp",
    "stat",
    "du",
    "df",
    "cd",
    "file",
    "tree",
    "sort",
    "uniq",
    "cut",
    "tr",
    "nl",
    "basename",
    "dirname",
    "realpath",
    "readlink",
    "date",
    "whoami",
    "id",
    "uname",
    "hostname",
    "true",
    "false",
    "test",
    "[",
    "sed",
    "jq",
    "less",
    "more",
    "od",
    "hexdump",
    "xxd",
    "strings",
    "md5sum",
    "sha1sum",
    "sha256sum",
    "sha512sum",
    "cksum",
    "column",
    "paste",
    "comm",
    "fold",
    "fmt",
    "rev",
    "tac",
    "expr",
    "seq",
    "sleep",
    "uptime",
    "free",
    "ps",
    "pgrep",
    "groups",
    "locale",
    "tty",
    "printenv",
    "git",
  ]),
  readOnlyGitSubcommands: new Set([
    "status",
    "log",
    "diff",
    "show",
    "blame",
    "ls-files",
    "ls-tree",
    "rev-parse",
    "describe",
    "shortlog",
    "grep",
    "reflog",
    "cat-file",
    "merge-base",
    "rev-list",
    "name-rev",
    "whatchanged",
    "show-ref",
    "branch",
    "tag",
    "remote",
    "config",
    "stash",
  ]),
  unsafeFlags: {
    find: ["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"],
    sed: ["-i", "--in-place"],
    sort: ["-o", "--output"],
    tree: ["-o"],
    rg: ["--pre"],
    date: ["-s", "--set"],
    hostname: ["*"],
    "git branch": [
      "-d",
      "-D",
      "-m",
      "-M",
      "-c",
      "-C",
      "--delete",
      "--move",
      "--copy",
      "-u",
      "--set-upstream-to",
      "-f",
      "--force",
    ],
    "git tag": ["-d", "--delete", "-a", "-s", "-f", "-m", "--force"],
    "git remote": ["add", "remove", "rm", "rename", "set-url", "set-head", "prune", "update"],
    "git config": [
      "--add",
      "--unset",
      "--unset-all",
      "--replace-all",
      "--edit",
      "-e",
      "--rename-section",
      "--remove-section",
    ],
    "git stash": ["push", "pop", "apply", "drop", "clear", "save", "create", "store", "branch"],
  },
  // observed with 2.1.330 in acceptEdits: these ran inside the working directories; tee, ln, chmod, truncate asked
  acceptEditsCommands: new Set(["mkdir", "touch", "mv", "cp", "rm", "rmdir", "sed"]),
  noPermissionTools: new Set([
    "Task",
    "Agent",
    "TodoWrite",
    "TodoRead",
    "TaskOutput",
    "BashOutput",
    "KillShell",
    "TaskStop",
    "ExitPlanMode",
    "EnterPlanMode",
    "AskUserQuestion",
    "ListMcpResourcesTool",
    "ReadMcpResourceTool",
    "ToolSearch",
  ]),
  readInsideWorkingDirectories: true,
};

/** No defaults: every call no rule matches asks (the mode then decides). */
export const NO_DEFAULTS: DefaultsPreset = {
  name: "none",
  readOnlyCommands: new Set(),
  readOnlyGitSubcommands: new Set(),
  unsafeFlags: {},
  acceptEditsCommands: new Set(),
  noPermissionTools: new Set(),
  readInsideWorkingDirectories: false,
};
