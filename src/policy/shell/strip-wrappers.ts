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
  const raws = words.map((word) => word.raw);
  const values = words.map((word) => word.value);
  const stripped = stripWrapperWords(raws, values);
  if (stripped.structure) return { words: [], wrappers: stripped.wrappers, assignments: stripped.assignments };
  // nothing removed (most commands): the words themselves, not a copy (callers never change them)
  const rest = stripped.start === 0 ? (words as ShellWord[]) : words.slice(stripped.start);
  return { words: rest, wrappers: stripped.wrappers, assignments: stripped.assignments };
}

/** What `stripWrappers` removes, on the words as written and after quote removal (the same array for plain words). */
export interface StrippedWords {
  /** the index of the first word that is matched against rules */
  start: number;
  /** the wrappers removed, outermost first */
  wrappers: string[];
  /** `VAR=value` prefixes removed */
  assignments: string[];
  /** the rest is a structure line with nothing to run (`done`, `for x in ...`): no words are matched */
  structure: boolean;
}

/**
 * The first words `stripWrapperWords` may remove or read as structure (keywords, structure words, wrappers, a bare
 * `xargs`); a first word outside this set and without `=` leaves a command as it is.
 */
const STRIPPABLE_FIRST = new Set([...LEADING_KEYWORDS, ...STRUCTURE_WORDS, ...WRAPPERS.keys(), "xargs"]);

/**
 * Whether `stripWrapperWords` would remove nothing from words beginning with `first` (start 0, no wrappers, no
 * assignments, no structure): one set lookup instead of a pass that allocates (property-tested against it).
 */
export function stripsNothing(first: string): boolean {
  return !STRIPPABLE_FIRST.has(first) && !first.includes("=");
}

/** `stripWrappers` on word texts: `raws` as written, `values` after quote removal. */
export function stripWrapperWords(raws: readonly string[], values: readonly string[]): StrippedWords {
  const wrappers: string[] = [];
  const assignments: string[] = [];
  let index = 0;
  for (;;) {
    const raw = raws[index];
    if (raw === undefined) break;
    if (raw.includes("=") && ASSIGNMENT.test(raw)) {
      assignments.push(raw);
      index++;
      continue;
    }
    if (LEADING_KEYWORDS.has(raw)) {
      index++;
      continue;
    }
    const next = skipWrapper(values, index);
    if (next === undefined) break;
    wrappers.push(values[index] as string);
    index = next;
  }
  const structure = index < raws.length && STRUCTURE_WORDS.has(raws[index] as string);
  return { start: index, wrappers, assignments, structure };
}

/** The index of the wrapped command when `values[index]` is a wrapper, else undefined. */
function skipWrapper(values: readonly string[], index: number): number | undefined {
  const name = values[index] ?? "";
  if (name === "xargs") {
    const next = values[index + 1];
    if (next === undefined || next.startsWith("-")) return undefined;
    return index + 1;
  }
  const spec = WRAPPERS.get(name);
  if (spec === undefined) return undefined;
  let at = index + 1;
  while (at < values.length) {
    const value = values[at] as string;
    if (value === "--") {
      at++;
      break;
    }
    if (!value.startsWith("-") || value === "-") break;
    at += spec.valueOptions.has(value) ? 2 : 1;
  }
  at += spec.positional;
  return at < values.length ? at : undefined;
}
