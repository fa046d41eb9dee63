import { describe, expect, it } from "vitest";
import { analyzeShellCommand } from "./analyze-shell-command.js";

const texts = (command: string) => analyzeShellCommand(command).subcommands.map((sub) => sub.text);

describe("analyzeShellCommand", () => {
  it("splits on every separator", () => {
    expect(texts("a && b || c; d | e |& f & g\nh")).toEqual(["a", "b", "c", "d", "e", "f", "g", "h"]);
  });
  it("keeps separators inside quotes", () => {
    expect(texts(`git commit -m "a && b; c"`)).toEqual([`git commit -m "a && b; c"`]);
    expect(analyzeShellCommand(`git commit -m 'x | y'`).subcommands[0]?.plain).toBe("git commit -m x | y");
  });
  it("finds commands in subshells and substitutions", () => {
    expect(texts('(cd x && ls) ; echo $(rm -rf y) `id` "$(whoami)"').sort()).toEqual(
      ["cd x", "ls", "rm -rf y", "id", "whoami", 'echo $(rm -rf y) `id` "$(whoami)"'].sort(),
    );
    expect(texts("diff <(sort a) <(sort b)").sort()).toEqual(["diff <(sort a) <(sort b)", "sort a", "sort b"].sort());
  });
  it("does not parse arithmetic as commands", () => {
    expect(texts("echo $((1 + 2))")).toEqual(["echo $((1 + 2))"]);
  });
  it("strips VAR=1 prefixes and wrappers", () => {
    expect(texts("FOO=1 BAR='x y' npm run test")).toEqual(["npm run test"]);
    expect(texts("timeout 5 nice -n 10 nohup stdbuf -oL zzfake run a")).toEqual(["zzfake run a"]);
    expect(texts("timeout -s KILL 30s make")).toEqual(["make"]);
    expect(texts("time git status")).toEqual(["git status"]);
    expect(texts("find . | xargs rm")).toEqual(["find .", "rm"]);
    expect(texts("find . | xargs -0 rm")).toEqual(["find .", "xargs -0 rm"]);
    expect(texts("npx foo")).toEqual(["npx foo"]);
  });
  it("normalises whitespace", () => {
    expect(texts("npm   run\tbuild")).toEqual(["npm run build"]);
  });
  it("records redirections and skips here-document bodies", () => {
    const analysis = analyzeShellCommand("cat > out.txt <<EOF\nrm -rf /\nEOF\necho done 2>&1");
    expect(analysis.subcommands.map((sub) => sub.text)).toEqual(["cat", "echo done"]);
    expect(analysis.subcommands[0]?.redirects).toEqual([
      { operator: ">", target: "out.txt" },
      { operator: "<<", target: "EOF" },
    ]);
    expect(analysis.complete).toBe(true);
  });
  it("drops shell structure words", () => {
    expect(texts("for f in *.ts; do rm $f; done")).toEqual(["rm $f"]);
    expect(texts("if true; then echo a; else rm b; fi")).toEqual(["true", "echo a", "rm b"]);
  });
  it("reports unfinished input", () => {
    expect(analyzeShellCommand(`echo "abc`).complete).toBe(false);
    expect(analyzeShellCommand("echo $(ls").complete).toBe(false);
    expect(analyzeShellCommand("(ls").complete).toBe(false);
    expect(analyzeShellCommand("echo ok").complete).toBe(true);
  });
});
