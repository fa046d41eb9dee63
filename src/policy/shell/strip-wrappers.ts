import type { ShellWord } from "./parse-shell-command.js";

/**
 * Removes what Claude Code removes before matching a subcommand: `VAR=value` prefixes, shell keywords that only
 * introduce a command (`then`, `do`, `!`, braces) and the wrappers `timeout`, `time`, `nice`, `nohup`, `stdbuf`
 * and a bare `xargs` (one with flags stays `xargs`). Environment runners (`npx`, `docker exec`, `env`) are not
 * wrappers and stay.
 */

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

const WRAPPERS = new Map<string, WrapperSpec>([
  ["timeout", { valueOptions: new Set(["-s", "--signal", "-k", "--kill-after"]), positional: 1 }],
  ["time", { valueOptions: new Set(["-f", "--format", "-o", "--output"]), positional: 0 }],
  ["nice", { valueOptions: new Set(["-n", "--adjustment"]), positional: 0 }],
  ["nohup", { valueOptions: new Set(), positional: 0 }],
  ["stdbuf", { valueOptions: new Set(["-i", "-o", "-e", "--input", "--output", "--error"]), positional: 0 }],
]);

export interface StrippedCommand {
  /** the words that are matched against rules */
  words: ShellWord[];
  /** the wrappers removed, outermost first */
  wrappers: string[];
  /** `VAR=value` prefixes removed */
  assignments: string[];
}

export function stripWrappers(words: readonly ShellWord[]): StrippedCommand {
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
  // nothing removed (most commands): the words themselves, not a copy (callers never change them)
  const rest = index === 0 ? (words as ShellWord[]) : words.slice(index);
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
  const spec = WRAPPERS.get(name);
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
