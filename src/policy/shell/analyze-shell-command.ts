import { parseShellCommand, type ShellRedirect } from "./parse-shell-command.js";
import { stripWrappers } from "./strip-wrappers.js";

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
  const parsed = parseShellCommand(command);
  const subcommands: Subcommand[] = [];
  for (const simple of parsed.commands) {
    const stripped = stripWrappers(simple.words);
    if (stripped.words.length === 0 && simple.redirects.length === 0) continue;
    let text = "";
    let plain = "";
    /** whether every word is its own value (nothing to remove): then `plain` is `text` */
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
    const head = firstToken(text);
    subcommands.push({
      text,
      plain,
      head,
      plainHead: bare ? head : firstToken(plain),
      words,
      argv: simple.words.map((word) => word.value),
      redirects: simple.redirects,
      wrappers: stripped.wrappers,
    });
  }
  return new Analysis(command, subcommands, parsed.complete);
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

/** The script of `bash -c "..."` (also sh, zsh, dash), or undefined. */
export function shellScriptOf(subcommand: Subcommand): string | undefined {
  const program = subcommand.words[0];
  if (program === undefined || !/^(?:\/(?:usr\/)?bin\/)?(?:ba|z|da|k)?sh$/.test(program)) return undefined;
  const rest = subcommand.words.slice(1);
  const flagIndex = rest.findIndex((word) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(word));
  if (flagIndex < 0) return undefined;
  return rest[flagIndex + 1];
}
