import { parsePlainWords, parseShellCommand, type ShellRedirect, type ShellWord } from "./parse-shell-command.js";
import { stripsNothing, stripWrappers, stripWrapperWords } from "./strip-wrappers.js";

/** One subcommand of a command line, ready for matching. */
export interface Subcommand {
  /** the words as written, joined by one space (whitespace normalised) */
  text: string;
  /** the words after quote removal, joined by one space */
  plain: string;
  /** the words after quote removal */
  words: string[];
  /** the whole simple command's words after quote removal, wrappers and `VAR=value` prefixes included */
  argv: string[];
  /** the first word of `text` and of `plain` (rule index keys) */
  head: string;
  plainHead: string;
  redirects: ShellRedirect[];
  wrappers: string[];
}

export interface ShellAnalysis {
  subcommands: Subcommand[];
  /** false when part of the text could not be parsed; callers must not allow such a command */
  complete: boolean;
  /** the whole command with whitespace runs collapsed (computed on first use) */
  readonly normalized: string;
}

/**
 * Splits a command line into the subcommands it would run (compound commands, subshells, substitutions), with
 * `VAR=1` prefixes and wrappers removed. Pure and unmemoised: callers that need one call's analysis several
 * times (pattern, decision, suggested rule) compute it once and pass it along (`ToolCallInput.shell`).
 */
export function analyzeShellCommand(command: string): ShellAnalysis {
  const plain = parsePlainWords(command);
  if (plain !== undefined) return new Analysis(command, plainSubcommands(plain, command), true);
  const parsed = parseShellCommand(command);
  const subcommands: Subcommand[] = [];
  for (const simple of parsed.commands) {
    const stripped = stripWrappers(simple.words);
    const count = stripped.words.length;
    if (count === 0 && simple.redirects.length === 0) continue;
    // the words as written and after quote removal, each joined once (one flat string, not a chain of concatenations)
    const raws: string[] = new Array(count);
    const words: string[] = new Array(count);
    /** whether every word is its own value (nothing to remove): then `plain` is `text` */
    let bare = true;
    for (let index = 0; index < count; index++) {
      const word = stripped.words[index] as ShellWord;
      raws[index] = word.raw;
      words[index] = word.value;
      if (word.value !== word.raw) bare = false;
    }
    const text = raws.join(" ");
    const plain = bare ? text : words.join(" ");
    const head = firstToken(text);
    const all = simple.words;
    let argv: string[];
    if (count === all.length) argv = words.slice();
    else {
      argv = new Array(all.length);
      for (let index = 0; index < all.length; index++) argv[index] = (all[index] as ShellWord).value;
    }
    subcommands.push({
      text,
      plain,
      head,
      plainHead: bare ? head : firstToken(plain),
      words,
      argv,
      redirects: simple.redirects,
      wrappers: stripped.wrappers,
    });
  }
  return new Analysis(command, subcommands, parsed.complete);
}

/**
 * The subcommands of a plain line (`parsePlainWords`): every word is its own value and there are no redirections,
 * so the words are matched as they are (no word objects, no quote removal); the same subcommands the general path
 * builds from the same line (property-tested against it).
 */
function plainSubcommands(simple: readonly string[][], line: string): Subcommand[] {
  const subcommands: Subcommand[] = [];
  for (const all of simple) {
    let words: string[];
    let wrappers: string[];
    if (stripsNothing(all[0] as string)) {
      // most commands: no wrapper, keyword or assignment to remove (the same as `stripWrapperWords` finds)
      words = all.slice();
      wrappers = [];
      // a line that is this one command, its words separated by single spaces: the line is the joined text
      if (simple.length === 1 && isJoinedBySpaces(line, words)) {
        subcommands.push({
          text: line,
          plain: line,
          head: words[0] as string,
          plainHead: words[0] as string,
          words,
          argv: all as string[],
          redirects: [],
          wrappers,
        });
        continue;
      }
    } else {
      const stripped = stripWrapperWords(all, all);
      words = stripped.structure ? [] : stripped.start === 0 ? all.slice() : all.slice(stripped.start);
      wrappers = stripped.wrappers;
    }
    if (words.length === 0) continue;
    const text = words.join(" ");
    // a plain word holds no space: the first word is the text up to its first space
    const head = words[0] as string;
    subcommands.push({
      text,
      plain: text,
      head,
      plainHead: head,
      words,
      argv: all as string[],
      redirects: [],
      wrappers,
    });
  }
  return subcommands;
}

/**
 * Whether `line` is exactly `words.join(" ")`, for the words `parsePlainWords` read from it as one command: they
 * come in order, separated by runs of blanks, so the line is their join when its length leaves one character per gap
 * and none of them is a tab.
 */
function isJoinedBySpaces(line: string, words: readonly string[]): boolean {
  let length = words.length - 1;
  for (const word of words) length += word.length;
  return length === line.length && line.indexOf("\t") < 0;
}

class Analysis implements ShellAnalysis {
  #normalized: string | undefined;
  constructor(
    private readonly command: string,
    readonly subcommands: Subcommand[],
    readonly complete: boolean,
  ) {}
  get normalized(): string {
    this.#normalized ??= this.command.trim().replace(/\s+/g, " ");
    return this.#normalized;
  }
}

/** The text up to the first space: the key rules are indexed by (a rule's first whitespace-separated word). */
function firstToken(text: string): string {
  const space = text.indexOf(" ");
  return space < 0 ? text : text.slice(0, space);
}

const SHELL_PROGRAM = /^(?:\/(?:usr\/)?bin\/)?(?:ba|z|da|k)?sh$/;

/** The script of `bash -c "..."` (also sh, zsh, dash), or undefined. */
export function shellScriptOf(subcommand: Subcommand): string | undefined {
  const program = subcommand.words[0];
  // every name the pattern accepts ends in `sh`: most programs are ruled out without running it
  if (program === undefined || !program.endsWith("sh") || !SHELL_PROGRAM.test(program)) return undefined;
  const rest = subcommand.words.slice(1);
  const flagIndex = rest.findIndex((word) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(word));
  if (flagIndex < 0) return undefined;
  return rest[flagIndex + 1];
}
