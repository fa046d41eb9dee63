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
 * Where `parsePlainWords` writes each command's place in the line (`spans[2k]`, `spans[2k + 1]`): one array for every
 * line, read by `plainSubcommands` before `analyzeShellCommand` returns (nothing in between analyses another line), so
 * no array is grown for each line.
 */
const spans: number[] = [];

/**
 * Splits a command line into the subcommands it would run (compound commands, subshells, substitutions), with
 * `VAR=1` prefixes and wrappers removed. Pure and unmemoised: callers that need one call's analysis several
 * times (pattern, decision, suggested rule) compute it once and pass it along (`ToolCallInput.shell`).
 */
export function analyzeShellCommand(command: string): ShellAnalysis {
  const plain = parsePlainWords(command, spans);
  if (plain !== undefined) return new Analysis(command, plainSubcommands(plain, { line: command, spans }), true);
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
 * The redirections of a plain line's subcommand (it has none): one shared, frozen array, which also marks the
 * subcommand as read from a plain line (`isPlainSubcommand`).
 */
const PLAIN_REDIRECTS = Object.freeze([]) as readonly ShellRedirect[] as ShellRedirect[];

/**
 * Whether `sub` was read from a plain line (`parsePlainWords`): then its text holds only plain word characters
 * (letters, digits and `_-./:=,+@%`) and spaces, so no `$`, backtick, `<`, `>` or `(` (no expansion, substitution or
 * redirection to look for).
 */
export function isPlainSubcommand(sub: Subcommand): boolean {
  return sub.redirects === PLAIN_REDIRECTS;
}

/**
 * The subcommands of a plain line (`parsePlainWords`): every word is its own value and there are no redirections,
 * so the words are matched as they are (no word objects, no quote removal); the same subcommands the general path
 * builds from the same line (property-tested against it).
 */
function plainSubcommands(
  simple: readonly string[][],
  /** `spans`: where each command of `simple` begins and ends in `line` (`parsePlainWords`) */
  read: { line: string; spans: readonly number[] },
): Subcommand[] {
  const { line, spans } = read;
  /** a line without a tab: a command's span is its joined text when the span's length leaves one space per gap */
  const noTab = line.indexOf("\t") < 0;
  if (simple.length === 1) {
    // most lines: one command, in an array of its own size (one grown by `push` from empty has room for 16)
    const only = plainSubcommand(simple[0] as string[], {
      line,
      start: spans[0] as number,
      end: spans[1] as number,
      noTab,
    });
    return only === undefined ? [] : [only];
  }
  const subcommands: Subcommand[] = [];
  for (let command = 0; command < simple.length; command++) {
    const sub = plainSubcommand(simple[command] as string[], {
      line,
      start: spans[2 * command] as number,
      end: spans[2 * command + 1] as number,
      noTab,
    });
    if (sub !== undefined) subcommands.push(sub);
  }
  return subcommands;
}

/** One command of a plain line (`plainSubcommands`), or undefined when nothing of it runs (`done`, a lone `VAR=1`). */
function plainSubcommand(
  all: string[],
  /** where the command begins and ends in `line`, and whether the line holds no tab */
  place: { line: string; start: number; end: number; noTab: boolean },
): Subcommand | undefined {
  const { line, start, end, noTab } = place;
  let words: string[];
  let wrappers: string[];
  /** the command's words joined by single spaces, when its span in the line is that text */
  let spanText: string | undefined;
  if (stripsNothing(all[0] as string)) {
    // most commands: no wrapper, keyword or assignment to remove (the same as `stripWrapperWords` finds)
    // the words are the argv (nothing changes either array once the subcommand is built)
    words = all;
    wrappers = [];
    if (noTab && isJoinedBySpaces(end - start, words)) {
      // a line that is this one command: the line itself is the text (no slice)
      spanText = start === 0 && end === line.length ? line : line.slice(start, end);
    }
  } else {
    const stripped = stripWrapperWords(all, all);
    words = stripped.structure ? [] : stripped.start === 0 ? all : all.slice(stripped.start);
    wrappers = stripped.wrappers;
  }
  if (words.length === 0) return undefined;
  const text = spanText ?? words.join(" ");
  // a plain word holds no space: the first word is the text up to its first space
  const head = words[0] as string;
  return {
    text,
    plain: text,
    head,
    plainHead: head,
    words,
    argv: all,
    redirects: PLAIN_REDIRECTS,
    wrappers,
  };
}

/**
 * Whether a command's span of `spanLength` characters in a line without tabs is exactly `words.join(" ")`, for the
 * words `parsePlainWords` read from that span: they come in order, separated by runs of spaces, so the span is their
 * join when its length leaves one character per gap.
 */
function isJoinedBySpaces(spanLength: number, words: readonly string[]): boolean {
  let length = words.length - 1;
  for (const word of words) length += word.length;
  return length === spanLength;
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

/**
 * One analysis kept alive for as long as the module: its object shape (reached from the class's initial one through
 * the fields the constructor adds, which V8 holds only weakly) then outlives every major garbage collection. Without
 * a live instance a collection drops that shape, and the optimised code of `analyzeShellCommand` and every caller
 * that inlines it (`evaluateShell`) is thrown away with it ("weak objects"), so the next few hundred shell calls run
 * unoptimised and are compiled again (callgrind: about 1,800 instructions per first-seen decision over the 80,000
 * after a collection, bench/policy.callgrind.mjs). Tested in analyze-shell-command.test.ts.
 */
export const KEPT_ANALYSIS_SHAPE: ShellAnalysis = new Analysis("", [], true);

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
