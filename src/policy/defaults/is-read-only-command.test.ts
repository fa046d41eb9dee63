import { describe, expect, it } from "vitest";
import { analyzeShellCommand } from "../shell/analyze-shell-command.js";
import { isReadOnlyCommand } from "./is-read-only-command.js";
import { NO_DEFAULTS, READ_ONLY_DEFAULTS } from "./read-only-defaults.js";

function readOnly(command: string, preset = READ_ONLY_DEFAULTS): boolean {
  const [sub] = analyzeShellCommand(command).subcommands;
  if (sub === undefined) throw new Error(`no subcommand in ${command}`);
  return isReadOnlyCommand(sub, preset);
}

describe("isReadOnlyCommand (read-only defaults)", () => {
  it.each([
    "ps aux",
    "ps -ef",
    "ps -eLf",
    "ps -p 1 -u root",
    "ps --sort=-pcpu",
    "pgrep -af node",
    "lsof -i :3000",
    "lsof -p1",
    "netstat -an",
    "ss -tunap",
    "hostname -I",
    "date +%Y-%m-%d",
    "date -u",
    "date --date=yesterday +%s",
    "uniq -c",
    "rg -n -e foo --glob '*.ts'",
    "sed -n 1,5p README.md",
    "sed -n '/start/,/end/p' notes.txt",
    "sed -ne '$p' log.txt",
    "sed 10q README.md",
    "man ls",
    "history 20",
    "ifconfig eth0",
    "node --version",
    "ip addr",
    "docker ps -a",
    "timeout 5 ls",
    "pwd",
    "tput cols",
  ])("%s is read-only", (command) => {
    expect(readOnly(command)).toBe(true);
  });

  it.each([
    ["date 010100002030", "an operand that is not +FORMAT sets the clock"],
    ["date -s tomorrow", "-s sets the clock"],
    ["hostname evil", "an operand sets the host name"],
    ["ps eww", "BSD e shows environments"],
    ["ps -e -o pid,comm", "-o is not a listing flag Claude Code knows"],
    ["ps -e -p 1", "-e with a selection flag"],
    ["ss -K dst 10.0.0.1", "-K closes sockets"],
    ["netstat -tlnp", "BSD netstat flags only"],
    ["uniq in.txt out.txt", "a second operand is written"],
    ["rg --pre ./run.sh foo", "--pre runs a program per file"],
    ["rg --files", "not in the allowlist"],
    ["sed 's/a/b/w out.txt' README.md", "s can write a file"],
    ["sed -n '1e id' README.md", "e runs a command"],
    ["sed -e 1p -e 's/x/y/' f", "every -e script is checked"],
    ["sed -i 1p README.md", "-i edits in place"],
    ["man -P 'sh -c id' ls", "-P runs a pager of the caller's choice"],
    ["printf -v name x", "-v sets a variable"],
    ["pwd -P", "pwd only without arguments"],
    ["nohup ls", "nohup is not a read-only wrapper"],
    ["node -e 1", "only exact version forms"],
    ["ip link set eth0 down", "only ip addr"],
    ["fd -x rm", "-x runs a command"],
    ["sort -o out.txt in.txt", "-o writes"],
    ["jq -f prog.jq data.json", "-f reads a program"],
    ["printenv", "asks in Claude Code 2.1.330"],
    ["git branch -D", "git branch's -D deletes a branch"],
    ["git tag -d", "git tag's -d deletes a tag"],
    ["git -C . tag --delete", "git tag's --delete, after a global option"],
  ])("%s is not read-only (%s)", (command) => {
    expect(readOnly(command)).toBe(false);
  });

  it("reads each table of a preset on its own: a program only another table names is not read-only", () => {
    // every program one table names is looked up once for all tables: a program `unsafeFlags` names (or a
    // no-argument one given arguments) must not pass for a read-only command
    const preset = {
      ...NO_DEFAULTS,
      name: "custom",
      readOnlyCommands: new Set(["cat"]),
      unsafeFlags: { find: ["-delete"], cat: ["-v"] },
      noArgumentCommands: new Set(["pwd"]),
      flagAllowlists: {},
    };
    expect(readOnly("cat notes.txt", preset)).toBe(true);
    expect(readOnly("cat -v notes.txt", preset)).toBe(false);
    expect(readOnly("find .", preset)).toBe(false);
    expect(readOnly("find", preset)).toBe(false);
    expect(readOnly("pwd", preset)).toBe(true);
    expect(readOnly("pwd -P", preset)).toBe(false);
    expect(readOnly("ls", preset)).toBe(false);
  });

  it("no defaults: nothing is read-only", () => {
    expect(readOnly("ps aux", NO_DEFAULTS)).toBe(false);
    expect(readOnly("pwd", NO_DEFAULTS)).toBe(false);
  });
});
