import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyzeShellCommand, type Subcommand } from "./analyze-shell-command.js";
import { parseShellCommand } from "./parse-shell-command.js";
import { stripWrappers } from "./strip-wrappers.js";

/** The subcommands as the word-by-word concatenation built them (the reference for the joined form). */
function referenceSubcommands(command: string): Subcommand[] {
  const subcommands: Subcommand[] = [];
  for (const simple of parseShellCommand(command).commands) {
    const stripped = stripWrappers(simple.words);
    if (stripped.words.length === 0 && simple.redirects.length === 0) continue;
    let text = "";
    let plain = "";
    let bare = true;
    const words: string[] = [];
    for (const word of stripped.words) {
      text = text === "" ? word.raw : `${text} ${word.raw}`;
      if (bare && word.value !== word.raw) {
        bare = false;
        plain = words.join(" ");
      }
      if (!bare) plain = words.length === 0 ? word.value : `${plain} ${word.value}`;
      words.push(word.value);
    }
    if (bare) plain = text;
    const first = (value: string) => (value.indexOf(" ") < 0 ? value : value.slice(0, value.indexOf(" ")));
    subcommands.push({
      text,
      plain,
      head: first(text),
      plainHead: first(plain),
      words,
      argv: simple.words.map((word) => word.value),
      redirects: simple.redirects,
      wrappers: stripped.wrappers,
    });
  }
  return subcommands;
}

const unit = fc.constantFrom(
  ...["git", "status", "rm", "-rf", "ls", "cat", ".env", "VAR=1", "A=", "env", "timeout", "5", "-s", "KILL", "nice"],
  ...["-n", "xargs", "bash", "-c", "then", "!", "{", "}", "done", "for", "time", "nohup", "stdbuf", "-o", "--", "é"],
  ...[" ", " ", "  ", "\t", "&&", "||", "|", ";", "&", "\n", "#", "'", '"', "\\", "$", "$(", ")", "`", "''", '""'],
  ...["<", ">", ">>", "2>&1", "<<", "(", "=", "*", "a b", "'a b'", '"$X"', "\\ "],
);

describe("analyzeShellCommand", () => {
  it("builds each subcommand's text, plain form, heads, words and argv as the word-by-word reference does", () => {
    fc.assert(
      fc.property(
        fc.array(unit, { minLength: 1, maxLength: 30 }).map((units) => units.join("")),
        (command) => {
          expect(analyzeShellCommand(command).subcommands).toStrictEqual(referenceSubcommands(command));
        },
      ),
      { numRuns: 20000 },
    );
  });
});
