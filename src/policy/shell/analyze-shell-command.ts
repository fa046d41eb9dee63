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

const cache = new Map<string, ShellAnalysis>();
const CACHE_LIMIT = 512;

/**
 * Splits a command line into the subcommands it would run (compound commands, subshells, substitutions), with
 * `VAR=1` prefixes and wrappers removed. Results are memoised (bounded) because agents repeat commands.
 */
export function analyzeShellCommand(command: string): ShellAnalysis {
  const cached = cache.get(command);
  if (cached !== undefined) return cached;
  const parsed = parseShellCommand(command);
  const subcommands: Subcommand[] = [];
  for (const simple of parsed.commands) {
    const stripped = stripWrappers(simple.words);
    if (stripped.words.length === 0 && simple.redirects.length === 0) continue;
    const text = stripped.words.map((word) => word.raw).join(" ");
    const plain = stripped.words.map((word) => word.value).join(" ");
    subcommands.push({
      text,
      plain,
      head: text.split(" ", 1)[0] ?? "",
      plainHead: plain.split(" ", 1)[0] ?? "",
      words: stripped.words.map((word) => word.value),
      redirects: simple.redirects,
      wrappers: stripped.wrappers,
    });
  }
  let normalized: string | undefined;
  const analysis: ShellAnalysis = {
    subcommands,
    complete: parsed.complete,
    get normalized() {
      normalized ??= command.trim().replace(/\s+/g, " ");
      return normalized;
    },
  };
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(command, analysis);
  return analysis;
}

/** The script of `bash -c "..."` (also sh, zsh, dash), or undefined. */
export function shellScriptOf(subcommand: Subcommand): string | undefined {
  const [program, ...rest] = subcommand.words;
  if (program === undefined || !/^(?:\/(?:usr\/)?bin\/)?(?:ba|z|da|k)?sh$/.test(program)) return undefined;
  const flagIndex = rest.findIndex((word) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(word));
  if (flagIndex < 0) return undefined;
  return rest[flagIndex + 1];
}
