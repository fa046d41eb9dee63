import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hasSubstitution } from "../evaluate-shell-defaults.js";
import { analyzeShellCommand, isPlainSubcommand, type Subcommand } from "./analyze-shell-command.js";
import type { ShellWord } from "./parse-shell-command.js";
import { parsePlainWords, parseShellCommand } from "./parse-shell-command.js";

// ---- the reference: stripWrappers as it was before it worked on word texts (commit 39eff5a) ----
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;
const LEADING_KEYWORDS = new Set(["then", "else", "elif", "do", "if", "while", "until", "!", "{", "}", "time"]);
/** words that make the whole command a structure line with nothing to run (`done`, `fi`, `for x in ...`) */
const STRUCTURE_WORDS = new Set(["done", "fi", "esac", "for", "case", "select", "in", "function"]);

/** Wrapper name -> how many option words it may take before the wrapped command. */
interface WrapperSpec {
  /** options that consume the next word as their value */
  valueOptions: Set<string>;
  /** how many positional words precede the command (timeout's duration) */
  positional: number;
}

const WRAPPERS: Record<string, WrapperSpec> = {
  timeout: { valueOptions: new Set(["-s", "--signal", "-k", "--kill-after"]), positional: 1 },
  time: { valueOptions: new Set(["-f", "--format", "-o", "--output"]), positional: 0 },
  nice: { valueOptions: new Set(["-n", "--adjustment"]), positional: 0 },
  nohup: { valueOptions: new Set(), positional: 0 },
  stdbuf: { valueOptions: new Set(["-i", "-o", "-e", "--input", "--output", "--error"]), positional: 0 },
};

interface StrippedCommand {
  /** the words that are matched against rules */
  words: ShellWord[];
  /** the wrappers removed, outermost first */
  wrappers: string[];
  /** `VAR=value` prefixes removed */
  assignments: string[];
}

function referenceStripWrappers(words: readonly ShellWord[]): StrippedCommand {
  const wrappers: string[] = [];
  const assignments: string[] = [];
  let index = 0;
  for (;;) {
    const word = words[index];
    if (word === undefined) break;
    if (word.raw.includes("=") && ASSIGNMENT.test(word.raw)) {
      assignments.push(word.raw);
      index++;
      continue;
    }
    if (LEADING_KEYWORDS.has(word.raw)) {
      index++;
      continue;
    }
    const next = skipWrapper(words, index);
    if (next === undefined) break;
    wrappers.push(word.value);
    index = next;
  }
  const rest = words.slice(index);
  if (rest.length > 0 && STRUCTURE_WORDS.has(rest[0]?.raw ?? "")) return { words: [], wrappers, assignments };
  return { words: rest, wrappers, assignments };
}

/** The index of the wrapped command when `words[index]` is a wrapper, else undefined. */
function skipWrapper(words: readonly ShellWord[], index: number): number | undefined {
  const name = words[index]?.value ?? "";
  if (name === "xargs") {
    const next = words[index + 1];
    if (next === undefined || next.value.startsWith("-")) return undefined;
    return index + 1;
  }
  const spec = WRAPPERS[name];
  if (spec === undefined) return undefined;
  let at = index + 1;
  while (at < words.length) {
    const value = (words[at] as ShellWord).value;
    if (value === "--") {
      at++;
      break;
    }
    if (!value.startsWith("-") || value === "-") break;
    at += spec.valueOptions.has(value) ? 2 : 1;
  }
  at += spec.positional;
  return at < words.length ? at : undefined;
}

/** The subcommands as the word-by-word concatenation built them (the reference for the joined form). */
function referenceSubcommands(command: string): Subcommand[] {
  const subcommands: Subcommand[] = [];
  for (const simple of parseShellCommand(command).commands) {
    const stripped = referenceStripWrappers(simple.words);
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

  it("marks as plain only the subcommands of a plain line, whose text holds no substitution or redirection", () => {
    // the defaults skip the substitution scan for a plain subcommand: a line that is not plain must never pass
    fc.assert(
      fc.property(
        fc.array(unit, { minLength: 1, maxLength: 30 }).map((units) => units.join("")),
        (command) => {
          const plainLine = parsePlainWords(command) !== undefined;
          for (const sub of analyzeShellCommand(command).subcommands) {
            expect(isPlainSubcommand(sub)).toBe(plainLine);
            if (isPlainSubcommand(sub)) {
              expect(hasSubstitution(sub.text)).toBe(false);
              expect(/[$`<>()]/.test(sub.text)).toBe(false);
            }
          }
        },
      ),
      { numRuns: 20000 },
    );
  });
});
