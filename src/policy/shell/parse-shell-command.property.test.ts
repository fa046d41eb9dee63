import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyzeShellCommand } from "./analyze-shell-command.js";
import {
  parseFullShellCommand,
  parsePlainShellCommand,
  parsePlainWords,
  parseShellCommand,
} from "./parse-shell-command.js";

const shellish = fc.string({
  unit: fc.constantFrom(..."ab -;&|()<>$`'\"\\\n\t#{}=*0123".split(""), "&&", "||", "$(", "<<", "2>&1", "<(", "EOF"),
  maxLength: 40,
});

describe("parseShellCommand on arbitrary text", () => {
  it("always terminates without throwing, and every word comes from the text", () => {
    fc.assert(
      fc.property(shellish, (text) => {
        const parsed = parseShellCommand(text);
        // inside backticks, escapes are removed before the script is parsed, so words come from that script
        if (text.includes("`")) return;
        for (const command of parsed.commands) {
          for (const word of command.words) expect(text).toContain(word.raw);
        }
      }),
      { numRuns: 5000 },
    );
  });
  it("a command joined to a denied one by any separator is always found", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("&&", "||", ";", "|", "|&", "&", "\n"),
        fc.constantFrom("echo ok", "ls -la", "(cd x"),
        (separator, first) => {
          const analysis = analyzeShellCommand(`${first} ${separator} rm -rf target`);
          const found = analysis.subcommands.some((sub) => sub.text === "rm -rf target");
          expect(found || !analysis.complete).toBe(true);
        },
      ),
    );
  });
});

describe("analyzeShellCommand", () => {
  it("each subcommand's plain text is its words joined by one space, and its heads are their first tokens", () => {
    const firstToken = (text: string) => text.split(" ")[0];
    fc.assert(
      fc.property(shellish, (text) => {
        for (const sub of analyzeShellCommand(text).subcommands) {
          expect(sub.plain).toBe(sub.words.join(" "));
          expect(sub.plainHead).toBe(firstToken(sub.plain));
          expect(sub.head).toBe(firstToken(sub.text));
        }
      }),
      { numRuns: 5000 },
    );
  });
});

describe("parsePlainShellCommand (the fast path) against the full parser", () => {
  const unit = fc.constantFrom(
    ...["git", "status", "-la", "--flag=x", "a/b.c", "VAR=1", "x+y@z%", "é", "日本", "1", "2", "0"],
    ...["sudo", "env", "timeout", "10", "nice", "-n", "xargs", "time", "nohup", "bash", "-c", "then", "do", "!"],
    ...[" ", "  ", "\t", "&&", "||", "|", ";", "&", "|&", ";;", "\n", "\r\n", "\\\n", "#", "~", "{", "}"],
    ...["'", '"', "\\", "$", "$(", "`", "(", ")", "<", ">", ">>", "2>", "&>", "<<", "<(", "*", "?", "[", "]"],
  );
  const line = fc.array(unit, { maxLength: 30 }).map((units) => units.join(""));
  const corpus = [
    "",
    " ",
    "git status --short 12",
    "cd /repo && zz task5 --flag value5 | grep ok5",
    "npm test;npm run build||echo failed&&true",
    "a&&b||c|d;e",
    "a & b",
    "a &> out",
    "a |& b",
    "case x in a) ;; esac",
    "FOO=1 BAR=2 timeout 10 nice -n 5 npm test",
    "sudo rm -rf /",
    "env A=1 rm -rf x",
    "echo $(rm -rf x)",
    "echo `rm -rf x`",
    "cat <<EOF\nrm -rf x\nEOF",
    "ls # comment && rm -rf x",
    "a\nb",
    "x 2>&1",
    "ls\u00a0-la",
    `git ${"a ".repeat(5000)}`,
    `${"x".repeat(20000)} && ${"y ".repeat(3000)}`,
  ];

  it("reads every command it accepts exactly as the full parser does", () => {
    let accepted = 0;
    const check = (text: string) => {
      const fast = parsePlainShellCommand(text);
      if (fast === undefined) return;
      accepted++;
      expect(fast).toEqual(parseFullShellCommand(text));
    };
    for (const text of corpus) check(text);
    fc.assert(fc.property(line, check), { numRuns: 30000 });
    // the comparison must actually run on many inputs
    expect(accepted).toBeGreaterThan(3000);
  });

  it("places each command it reads in the line: from its first word's start to its last word's end", () => {
    let placed = 0;
    /** one array for every line, as `analyzeShellCommand` passes it: a line's spans must not depend on the last's */
    const reused: number[] = [];
    const check = (text: string) => {
      const spans: number[] = [];
      const commands = parsePlainWords(text, spans);
      if (commands === undefined) return;
      expect(spans.length).toBe(2 * commands.length);
      parsePlainWords(text, reused);
      expect(reused.slice(0, spans.length)).toEqual(spans);
      commands.forEach((words, index) => {
        const span = text.slice(spans[2 * index], spans[2 * index + 1]);
        // the span is the words with the blanks between them, nothing before the first or after the last
        expect(span.split(/[ \t]+/)).toEqual(words);
        placed++;
      });
    };
    for (const text of corpus) check(text);
    fc.assert(fc.property(line, check), { numRuns: 30000 });
    expect(placed).toBeGreaterThan(2000);
  });

  it("takes the plain commands agents send, and leaves everything with quotes, expansions or redirections", () => {
    expect(parsePlainShellCommand("cd /repo && npm test | grep ok")?.commands.length).toBe(3);
    expect(parsePlainShellCommand("git status --short")).toBeDefined();
    for (const text of ["echo 'a'", 'echo "a"', "echo $HOME", "echo `x`", "a > b", "a & b", "a\nb", "ls #x"]) {
      expect(parsePlainShellCommand(text)).toBeUndefined();
    }
  });
});
