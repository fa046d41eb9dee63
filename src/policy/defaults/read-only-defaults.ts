import { type FlagAllowlist, READ_ONLY_FLAG_ALLOWLISTS } from "./flag-allowlists.js";

/**
 * The "read-only" defaults preset (config `permissions.defaults`, every host): what toolgate does for a call that no
 * rule matches. It follows what Claude Code 2.1.330 does, as recorded on the real binary in the conformance fixtures
 * (test/fixtures/conformance) and documented in docs/rules.md ("Defaults preset").
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
  /** programs read-only only when every flag is in their list (an unknown flag asks); checked before the lists above */
  flagAllowlists?: Readonly<Record<string, FlagAllowlist>>;
  /** programs read-only only without arguments (`pwd`, `whoami`) */
  noArgumentCommands?: ReadonlySet<string>;
  /** whole command lines that are read-only as written (`node --version`, `ip addr`) */
  exactCommands?: ReadonlySet<string>;
  /** command prefixes read-only with any arguments after them (`docker ps`) */
  readOnlyPrefixes?: ReadonlySet<string>;
  /** wrappers a read-only command may run under (`timeout 5 ls`); absent: any wrapper */
  readOnlyWrappers?: ReadonlySet<string>;
}

export const READ_ONLY_DEFAULTS: DefaultsPreset = {
  name: "read-only",
  // any arguments (paths checked against the working directories); recorded: printenv, tty, whereis, xxd, less,
  // more, sha512sum, cksum, b2sum, vmstat, lscpu, env ask in Claude Code 2.1.330
  readOnlyCommands: new Set([
    "ls",
    "cat",
    "echo",
    "head",
    "tail",
    "grep",
    "egrep",
    "fgrep",
    "find",
    "fd",
    "fdfind",
    "wc",
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
    "cut",
    "tr",
    "nl",
    "basename",
    "dirname",
    "realpath",
    "readlink",
    "id",
    "uname",
    "true",
    "false",
    "test",
    "[",
    "jq",
    "od",
    "hexdump",
    "strings",
    "md5sum",
    "sha1sum",
    "sha256sum",
    "base64",
    "column",
    "paste",
    "comm",
    "fold",
    "fmt",
    "expand",
    "unexpand",
    "numfmt",
    "tsort",
    "pr",
    "rev",
    "tac",
    "expr",
    "seq",
    "sleep",
    "cal",
    "uptime",
    "free",
    "nproc",
    "groups",
    "locale",
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
    tree: ["-o"],
    fd: ["-x", "--exec", "-X", "--exec-batch"],
    fdfind: ["-x", "--exec", "-X", "--exec-batch"],
    file: ["-C", "--compile"],
    base64: ["-o", "--output"],
    sort: ["-o", "--output", "--compress-program"],
    test: ["-v", "-R", "-a", "-o"],
    "[": ["-v", "-R", "-a", "-o"],
    jq: ["-f", "--from-file", "-L", "--library-path", "--rawfile", "--slurpfile", "--argfile", "--run-tests"],
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
  flagAllowlists: READ_ONLY_FLAG_ALLOWLISTS,
  noArgumentCommands: new Set(["pwd", "whoami"]),
  exactCommands: new Set([
    "node -v",
    "node --version",
    "python --version",
    "python3 --version",
    "ip addr",
    "claude -h",
    "claude --help",
  ]),
  readOnlyPrefixes: new Set(["docker ps", "docker images"]),
  // recorded: `timeout 1 true` and `xargs echo` run, `nohup true` asks
  readOnlyWrappers: new Set(["timeout", "xargs"]),
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
