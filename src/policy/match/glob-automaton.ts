/**
 * A linear-time matcher for the path globs toolgate's Read/Edit/Write rules compile to (picomatch's POSIX syntax with
 * `dot: true`): literals and `\`-escapes, `?`, `*` (within one segment), `**` as a whole segment (zero or more
 * segments), `[...]` classes (ranges, `!`/`^` negation) and `{a,b}` alternatives. The glob becomes a small
 * nondeterministic automaton that is run over the path once, keeping the set of live states, so a match costs
 * O(path × glob) whatever the number of stars: a regex with many `*` in one segment backtracks (0.97 s on a
 * 100-character segment before this matcher).
 *
 * Three readings differ from picomatch 4, on purpose, each matching more, never less: `[!a]` is a negated class
 * (as in gitignore and fnmatch; picomatch reads it as the set of `!` and `a`); a globstar segment at the root
 * matches zero segments (the root glob for `.env` also matches the file `.env` at the root, as the glob for
 * `/repo` plus `.env` matches `/repo/.env` in both); and a trailing globstar after a `*` segment also matches
 * zero segments (as `/repo` plus a trailing globstar matches `/repo` in both).
 *
 * Returns undefined for what it does not model (extglobs such as `!(x)` or `+(x)`, POSIX classes, numeric ranges
 * `{1..3}`, more than 64 brace alternatives): the caller then keeps picomatch for that one pattern.
 */
export type GlobTest = (path: string) => boolean;

interface State {
  /** consuming edges: a character test and the next state */
  edges: { accepts: (code: number) => boolean; to: State }[];
  /** epsilon edges */
  next: State[];
  accepting: boolean;
  id: number;
}

type Token =
  | { kind: "char"; code: number }
  | { kind: "one" }
  | { kind: "star" }
  | { kind: "class"; accepts: (code: number) => boolean }
  | { kind: "globstar" };

const SLASH = 47;
const MAX_ALTERNATIVES = 64;
const notSlash = (code: number) => code !== SLASH;
const anything = () => true;

export function compileGlobAutomaton(glob: string): GlobTest | undefined {
  // `a//b` names the same path as `a/b` (paths arrive normalised), as picomatch reads it
  const alternatives = expandBraces(glob.replace(/\/{2,}/g, "/"));
  if (alternatives === undefined) return undefined;
  const starts: State[] = [];
  let counter = 0;
  const state = (): State => ({ edges: [], next: [], accepting: false, id: counter++ });
  for (const alternative of alternatives) {
    const tokens = tokenize(alternative);
    if (tokens === undefined) return undefined;
    const start = state();
    buildStates(tokens, start, state).accepting = true;
    starts.push(start);
  }
  const size = counter;
  return (path) => run({ starts, path, size });
}

/** Runs the automaton: one pass over the path with the set of live states (epsilon-closed). */
function run(options: { starts: State[]; path: string; size: number }): boolean {
  let live = closure(options.starts, options.size);
  for (let index = 0; index < options.path.length && live.length > 0; index++) {
    const code = options.path.charCodeAt(index);
    const moved: State[] = [];
    for (const current of live) {
      for (const edge of current.edges) if (edge.accepts(code)) moved.push(edge.to);
    }
    live = closure(moved, options.size);
  }
  return live.some((current) => current.accepting);
}

function closure(states: State[], size: number): State[] {
  const seen = new Uint8Array(size);
  const result: State[] = [];
  const stack = [...states];
  while (stack.length > 0) {
    const current = stack.pop() as State;
    if (seen[current.id] === 1) continue;
    seen[current.id] = 1;
    result.push(current);
    for (const next of current.next) stack.push(next);
  }
  return result;
}

/** Chains the tokens' states after `start`; returns the last state. */
function buildStates(tokens: Token[], start: State, state: () => State): State {
  let current = start;
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index] as Token;
    const following = tokens[index + 1];
    const previous = tokens[index - 1];
    if (token.kind === "globstar") {
      current = globstar({ from: current, atStart: previous === undefined, slashAfter: following, state });
      if (following !== undefined) index++; // the slash after it is part of the construction
      continue;
    }
    if (token.kind === "char" && token.code === SLASH && following?.kind === "globstar") {
      const afterGlobstar = tokens[index + 2];
      if (afterGlobstar === undefined) {
        // `/**` at the end: nothing, or a slash and anything
        const end = state();
        const rest = state();
        current.next.push(end);
        current.edges.push({ accepts: (code) => code === SLASH, to: rest });
        rest.edges.push({ accepts: anything, to: rest });
        rest.next.push(end);
        return end;
      }
      // `/**/`: one slash, or a slash, anything, a slash
      const end = state();
      const middle = state();
      current.edges.push({ accepts: (code) => code === SLASH, to: end });
      current.edges.push({ accepts: (code) => code === SLASH, to: middle });
      middle.edges.push({ accepts: anything, to: middle });
      middle.edges.push({ accepts: (code) => code === SLASH, to: end });
      current = end;
      index += 2; // the globstar and the slash after it
      continue;
    }
    const next = state();
    if (token.kind === "star") {
      current.next.push(next);
      current.edges.push({ accepts: notSlash, to: current });
    } else {
      const accepts =
        token.kind === "char" ? (code: number) => code === token.code : token.kind === "one" ? notSlash : token.accepts;
      current.edges.push({ accepts, to: next });
    }
    current = next;
  }
  return current;
}

/** A `**` segment at the start (`**` alone, or `**` + `/`): anything, or anything ending with a slash. */
function globstar(options: {
  from: State;
  atStart: boolean;
  slashAfter: Token | undefined;
  state: () => State;
}): State {
  const end = options.state();
  const loop = options.state();
  options.from.next.push(options.slashAfter === undefined ? loop : end);
  options.from.edges.push({ accepts: anything, to: loop });
  loop.edges.push({ accepts: anything, to: loop });
  if (options.slashAfter === undefined) loop.next.push(end);
  else loop.edges.push({ accepts: (code) => code === SLASH, to: end });
  return end;
}

/**
 * The glob as tokens; `**` becomes a globstar only as a whole segment (else it is one `*`). Undefined for syntax
 * this matcher does not model.
 */
function tokenize(glob: string): Token[] | undefined {
  const tokens: Token[] = [];
  let index = 0;
  while (index < glob.length) {
    const character = glob[index] as string;
    const nextCharacter = glob[index + 1];
    if (character === "\\") {
      if (nextCharacter === undefined) return undefined;
      tokens.push({ kind: "char", code: glob.charCodeAt(index + 1) });
      index += 2;
      continue;
    }
    if (nextCharacter === "(" && "!+@*?".includes(character)) return undefined; // extglob
    if ("()|".includes(character)) return undefined;
    if (character === "!" && index === 0) return undefined; // negated glob
    if (character === "*") {
      let end = index;
      while (glob[end] === "*") end++;
      const alone = (index === 0 || glob[index - 1] === "/") && (end === glob.length || glob[end] === "/");
      const last = tokens[tokens.length - 1];
      if (alone && end - index >= 2) tokens.push({ kind: "globstar" });
      else if (alone)
        tokens.push({ kind: "one" }, { kind: "star" }); // a segment that is only `*` is not empty
      else if (last?.kind !== "star") tokens.push({ kind: "star" });
      index = end;
      continue;
    }
    if (character === "?") {
      tokens.push({ kind: "one" });
      index++;
      continue;
    }
    if (character === "[") {
      const parsed = parseClass(glob, index);
      if (parsed === undefined) return undefined;
      tokens.push({ kind: "class", accepts: parsed.accepts });
      index = parsed.end;
      continue;
    }
    tokens.push({ kind: "char", code: glob.charCodeAt(index) });
    index++;
  }
  return tokens;
}

/** `[abc]`, `[a-z]`, `[!a]`, `[^a]`; never matches a slash. Undefined for POSIX classes or an unclosed bracket. */
function parseClass(glob: string, open: number): { accepts: (code: number) => boolean; end: number } | undefined {
  let index = open + 1;
  const negated = glob[index] === "!" || glob[index] === "^";
  if (negated) index++;
  const ranges: [number, number][] = [];
  let first = true;
  while (index < glob.length) {
    let character = glob[index] as string;
    if (character === "]" && !first) {
      const accepts = (code: number) =>
        code !== SLASH && ranges.some(([low, high]) => code >= low && code <= high) !== negated;
      return { accepts, end: index + 1 };
    }
    if (character === "[" && glob[index + 1] === ":") return undefined;
    if (character === "\\") {
      index++;
      character = glob[index] ?? "";
      if (character === "") return undefined;
    }
    const low = character.charCodeAt(0);
    if (glob[index + 1] === "-" && glob[index + 2] !== undefined && glob[index + 2] !== "]") {
      const high = glob.charCodeAt(index + 2);
      if (high < low) return undefined;
      ranges.push([low, high]);
      index += 3;
    } else {
      ranges.push([low, low]);
      index++;
    }
    first = false;
  }
  return undefined;
}

/** `{a,b}` alternatives, expanded (nested too); undefined for ranges, unbalanced braces or too many alternatives. */
function expandBraces(glob: string): string[] | undefined {
  const open = findUnescaped(glob, "{", 0);
  if (open < 0) return findUnescaped(glob, "}", 0) < 0 ? [glob] : undefined;
  let depth = 0;
  const commas: number[] = [];
  let close = -1;
  for (let index = open; index < glob.length; index++) {
    const character = glob[index];
    if (character === "\\") {
      index++;
      continue;
    }
    if (character === "{") depth++;
    else if (character === "}") {
      depth--;
      if (depth === 0) {
        close = index;
        break;
      }
    } else if (character === "," && depth === 1) commas.push(index);
  }
  if (close < 0 || commas.length === 0) return undefined;
  const prefix = glob.slice(0, open);
  const suffix = glob.slice(close + 1);
  const bounds = [open, ...commas, close];
  const results: string[] = [];
  for (let part = 0; part + 1 < bounds.length; part++) {
    const inner = glob.slice((bounds[part] as number) + 1, bounds[part + 1]);
    const expanded = expandBraces(`${prefix}${inner}${suffix}`);
    if (expanded === undefined) return undefined;
    results.push(...expanded);
    if (results.length > MAX_ALTERNATIVES) return undefined;
  }
  return results;
}

function findUnescaped(text: string, wanted: string, from: number): number {
  for (let index = from; index < text.length; index++) {
    if (text[index] === "\\") index++;
    else if (text[index] === wanted) return index;
  }
  return -1;
}
