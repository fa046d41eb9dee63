/**
 * Codex's execpolicy `.rules` files (`$CODEX_HOME/rules/*.rules`, `<project>/.codex/rules/*.rules`), read without
 * running Starlark. `prefix_rule` is read in every form Codex's own parser (`codex-rs/execpolicy/src/parser.rs`)
 * accepts for literal values: positional arguments in Codex's order `prefix_rule(pattern, decision, match, not_match,
 * justification)`, keyword arguments, a mix of both (positional first), the default decision `allow`, a trailing
 * comma, parentheses, `+` between strings or between lists, strings in single, double or triple quotes with Starlark's
 * escapes (`\n`, `\x41`, `\101`, `\u00e9`, ...), raw `r"..."` and f-strings without placeholders, and `;` between
 * statements. `match` / `not_match` examples are read and ignored. Anything else (variables, loops, `load`, other
 * functions, `*args`, a placeholder, an argument Codex refuses) is reported as a problem with its line, never silently
 * treated as allow.
 */

export type ExecpolicyDecision = "allow" | "prompt" | "forbidden";

export interface ExecpolicyRule {
  /** one entry per argv word: the word itself, or the alternatives it may be */
  pattern: (string | string[])[];
  decision: ExecpolicyDecision;
  justification?: string;
  /** where the rule was written: `file:line` */
  source: string;
}

export interface ExecpolicyProblem {
  source: string;
  message: string;
}

export interface ParsedExecpolicy {
  rules: ExecpolicyRule[];
  problems: ExecpolicyProblem[];
}

type Token =
  /** `literal` is false for a string Codex reads as something else (bytes, an f-string with a placeholder) */
  | { kind: "string"; value: string; line: number; literal: boolean; why?: string }
  | { kind: "name"; value: string; line: number }
  | { kind: "punct"; value: string; line: number };

/** Bounds: the files are small; anything past these is reported instead of read. */
const MAX_TEXT = 1024 * 1024;
const MAX_RULES = 5000;

/** The string prefixes Codex's Starlark dialect accepts (raw, f-string, raw f-string); others are refused there. */
const STRING_PREFIXES = new Set(["", "r", "f", "fr"]);
const SIMPLE_ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  a: "\u0007",
  b: "\b",
  f: "\f",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
};

/** One escape after a backslash at `at` (the backslash's index) in a non-raw string: the text and its length. */
function readEscape(text: string, at: number): { value: string; length: number } {
  const next = text[at + 1] as string;
  if (next === "\n") return { value: "", length: 2 };
  if (next === "\r" && text[at + 2] === "\n") return { value: "", length: 3 };
  const simple = SIMPLE_ESCAPES[next];
  if (simple !== undefined) return { value: simple, length: 2 };
  const octal = /^[0-7]{1,3}/.exec(text.slice(at + 1, at + 4));
  if (octal !== null) return { value: String.fromCodePoint(Number.parseInt(octal[0], 8)), length: 1 + octal[0].length };
  const digits = next === "x" ? 2 : next === "u" ? 4 : next === "U" ? 8 : 0;
  if (digits > 0) {
    const hex = text.slice(at + 2, at + 2 + digits);
    const code = /^[0-9A-Fa-f]+$/.test(hex) && hex.length === digits ? Number.parseInt(hex, 16) : Number.NaN;
    if (code <= 0x10ffff) return { value: String.fromCodePoint(code), length: 2 + digits };
  }
  // Starlark keeps an unknown escape as written (`\d` is a backslash and a d)
  return { value: `\\${next}`, length: 2 };
}

/** An f-string's text as Codex reads it when it has no placeholder (`{{` and `}}` stand for braces). */
function fStringText(value: string): string | undefined {
  let text = "";
  for (let at = 0; at < value.length; at += 1) {
    const char = value[at] as string;
    if (char !== "{" && char !== "}") text += char;
    else if (value[at + 1] === char) {
      text += char;
      at += 1;
    } else return undefined;
  }
  return text;
}

function tokenize(text: string): { tokens: Token[]; error?: { line: number; message: string } } {
  const tokens: Token[] = [];
  let line = 1;
  let at = 0;
  while (at < text.length) {
    const char = text[at] as string;
    if (char === "\n") {
      line += 1;
      at += 1;
    } else if (char === " " || char === "\t" || char === "\r" || char === "\f") {
      at += 1;
    } else if (char === "\\" && (text[at + 1] === "\n" || text.startsWith("\r\n", at + 1))) {
      // an explicit line joining
      at += text[at + 1] === "\n" ? 2 : 3;
      line += 1;
    } else if (char === "#") {
      while (at < text.length && text[at] !== "\n") at += 1;
    } else if (/[A-Za-z_]/.test(char) || char === '"' || char === "'") {
      let end = at;
      while (end < text.length && /[A-Za-z0-9_]/.test(text[end] as string)) end += 1;
      const prefix = text.slice(at, end);
      const quoteChar = text[end];
      const isString = (quoteChar === '"' || quoteChar === "'") && /^[A-Za-z]{0,2}$/.test(prefix);
      if (!isString) {
        tokens.push({ kind: "name", value: prefix, line });
        at = end;
        continue;
      }
      const raw = prefix.includes("r");
      const triple = text.startsWith(quoteChar.repeat(3), end);
      const quote = triple ? quoteChar.repeat(3) : quoteChar;
      const startLine = line;
      at = end + quote.length;
      let value = "";
      let closed = false;
      while (at < text.length) {
        if (text.startsWith(quote, at)) {
          at += quote.length;
          closed = true;
          break;
        }
        const current = text[at] as string;
        if (current === "\n") {
          if (!triple) break;
          line += 1;
        }
        if (current === "\\" && at + 1 < text.length) {
          if (text[at + 1] === "\n") line += 1;
          if (raw) {
            // a raw string keeps the backslash, and the character after it never closes the string
            value += text.slice(at, at + 2);
            at += 2;
            continue;
          }
          const escaped = readEscape(text, at);
          value += escaped.value;
          at += escaped.length;
          continue;
        }
        value += current;
        at += 1;
      }
      if (!closed) return { tokens, error: { line: startLine, message: "a string is not closed" } };
      if (!STRING_PREFIXES.has(prefix)) {
        tokens.push({ kind: "string", value, line: startLine, literal: false, why: `a string, not ${prefix}"..."` });
      } else if (prefix.includes("f")) {
        const fText = fStringText(value);
        if (fText === undefined) {
          tokens.push({
            kind: "string",
            value,
            line: startLine,
            literal: false,
            why: "an f-string without placeholders",
          });
        } else tokens.push({ kind: "string", value: fText, line: startLine, literal: true });
      } else tokens.push({ kind: "string", value, line: startLine, literal: true });
    } else {
      tokens.push({ kind: "punct", value: char, line });
      at += 1;
    }
  }
  return { tokens };
}

class Reader {
  at = 0;
  constructor(readonly tokens: Token[]) {}
  peek(offset = 0): Token | undefined {
    return this.tokens[this.at + offset];
  }
  next(): Token | undefined {
    return this.tokens[this.at++];
  }
  isPunct(value: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token?.kind === "punct" && token.value === value;
  }
  /** skips to just after the `)` closing the call whose `(` was already read */
  skipCall(): void {
    let depth = 1;
    while (this.at < this.tokens.length && depth > 0) {
      const token = this.next() as Token;
      if (token.kind !== "punct") continue;
      if ("([{".includes(token.value)) depth += 1;
      if (")]}".includes(token.value)) depth -= 1;
    }
  }
  /** skips the rest of a statement that is not a call: to the end of its (bracketed) lines, or a `;` */
  skipStatement(line: number): void {
    let depth = 0;
    let last = line;
    while (this.at < this.tokens.length) {
      const token = this.peek() as Token;
      if (depth === 0 && token.line !== last) return;
      if (token.kind === "punct") {
        if (depth === 0 && token.value === ";") return;
        if ("([{".includes(token.value)) depth += 1;
        if (")]}".includes(token.value)) depth = Math.max(0, depth - 1);
      }
      last = token.line;
      this.at += 1;
    }
  }
}

class NotLiteral extends Error {}

/** A literal value as Starlark evaluates it: a string, or a list of them (nested). */
type Value = string | Value[];

function readAtom(reader: Reader): Value {
  const token = reader.next();
  if (token === undefined) throw new NotLiteral("a value");
  if (token.kind === "string") {
    if (!token.literal) throw new NotLiteral(token.why ?? "a string literal");
    return token.value;
  }
  if (token.kind === "punct" && token.value === "[") {
    const items: Value[] = [];
    while (!reader.isPunct("]")) {
      if (reader.peek() === undefined) throw new NotLiteral("a closed list");
      items.push(readExpression(reader));
      if (reader.isPunct(",")) reader.next();
      else if (!reader.isPunct("]")) throw new NotLiteral("a comma between list items");
    }
    reader.next();
    return items;
  }
  if (token.kind === "punct" && token.value === "(") {
    if (reader.isPunct(")")) throw new NotLiteral("a list, not a tuple");
    const inner = readExpression(reader);
    if (!reader.isPunct(")")) throw new NotLiteral("a list, not a tuple");
    reader.next();
    return inner;
  }
  if (token.kind === "name") throw new NotLiteral(`string literals (or lists of them), not the name ${token.value}`);
  throw new NotLiteral(`string literals (or lists of them), not ${token.value}`);
}

/** A literal that is not computed further (`"a b".split()`, `["a"][0]`, `x if y else z`). */
function readComputed(reader: Reader): Value {
  const value = readAtom(reader);
  const after = reader.peek();
  if (reader.isPunct(".") || reader.isPunct("[") || reader.isPunct("(") || after?.kind === "name")
    throw new NotLiteral(`a literal value, not one computed with ${after?.value}`);
  return value;
}

/** A literal, or literals of one kind joined with `+` (strings, or lists). */
function readExpression(reader: Reader): Value {
  let value = readComputed(reader);
  while (reader.isPunct("+")) {
    reader.next();
    const right = readComputed(reader);
    if (typeof value === "string" && typeof right === "string") value = value + right;
    else if (Array.isArray(value) && Array.isArray(right)) value = [...value, ...right];
    else throw new NotLiteral("`+` between two strings or two lists");
  }
  return value;
}

const DECISIONS: readonly string[] = ["allow", "prompt", "forbidden"];
/** Codex's parameters in its order: `prefix_rule(pattern, decision, match, not_match, justification)`. */
const PARAMETERS = ["pattern", "decision", "match", "not_match", "justification"] as const;
type Parameter = (typeof PARAMETERS)[number];

/** The arguments of a call whose `(` was read, by parameter, as Starlark binds them. */
function readArguments(reader: Reader): Map<Parameter, Value> {
  const bound = new Map<Parameter, Value>();
  let position = 0;
  let keywords = false;
  while (!reader.isPunct(")")) {
    if (reader.peek() === undefined) throw new NotLiteral("a closed call");
    if (reader.isPunct("*")) throw new NotLiteral("arguments written out, not *args or **kwargs");
    let parameter: Parameter;
    const token = reader.peek() as Token;
    if (token.kind === "name" && reader.isPunct("=", 1) && !reader.isPunct("=", 2)) {
      reader.next();
      reader.next();
      if (!(PARAMETERS as readonly string[]).includes(token.value))
        throw new NotLiteral(`known arguments (${PARAMETERS.join(", ")}), not ${token.value}`);
      parameter = token.value as Parameter;
      keywords = true;
    } else {
      if (keywords) throw new NotLiteral("positional arguments before keyword arguments (Codex refuses this too)");
      if (position >= PARAMETERS.length) throw new NotLiteral(`at most ${PARAMETERS.length} arguments`);
      parameter = PARAMETERS[position] as Parameter;
      position += 1;
    }
    if (bound.has(parameter)) throw new NotLiteral(`${parameter} given once (Codex refuses it twice)`);
    bound.set(parameter, readExpression(reader));
    if (reader.isPunct(",")) reader.next();
    else if (!reader.isPunct(")")) throw new NotLiteral("a comma between arguments");
  }
  reader.next();
  return bound;
}

function patternOf(value: Value | undefined): (string | string[])[] {
  if (value === undefined) throw new NotLiteral("a pattern (the first argument, or pattern = [...])");
  if (!Array.isArray(value)) throw new NotLiteral("a pattern that is a list");
  if (value.length === 0) throw new NotLiteral("a non-empty pattern");
  return value.map((part) => {
    if (typeof part === "string") return part;
    if (part.length === 0) throw new NotLiteral("non-empty lists of alternatives");
    if (!part.every((alternative) => typeof alternative === "string"))
      throw new NotLiteral("alternatives that are strings");
    return part.length === 1 ? (part[0] as string) : (part as string[]);
  });
}

function checkExamples(value: Value | undefined, name: string): void {
  if (value === undefined) return;
  const valid =
    Array.isArray(value) &&
    value.every(
      (example) =>
        typeof example === "string" || (example.length > 0 && example.every((word) => typeof word === "string")),
    );
  if (!valid) throw new NotLiteral(`${name} examples that are strings or lists of strings`);
}

function readPrefixRule(reader: Reader, source: string): ExecpolicyRule {
  const bound = readArguments(reader);
  const pattern = patternOf(bound.get("pattern"));
  const decisionValue = bound.get("decision") ?? "allow";
  if (typeof decisionValue !== "string" || !DECISIONS.includes(decisionValue))
    throw new NotLiteral(`decision "allow", "prompt" or "forbidden" (got ${JSON.stringify(decisionValue)})`);
  const justification = bound.get("justification");
  if (justification !== undefined && (typeof justification !== "string" || justification.trim() === ""))
    throw new NotLiteral("a justification that is a non-empty string");
  checkExamples(bound.get("match"), "match");
  checkExamples(bound.get("not_match"), "not_match");
  return {
    pattern,
    decision: decisionValue as ExecpolicyDecision,
    source,
    ...(justification === undefined ? {} : { justification }),
  };
}

/** Parses one `.rules` file's text. `file` names it in sources and problems. */
export function parseExecpolicyRules(text: string, file: string): ParsedExecpolicy {
  const result: ParsedExecpolicy = { rules: [], problems: [] };
  if (text.length > MAX_TEXT) {
    result.problems.push({ source: file, message: `larger than ${MAX_TEXT} bytes; not read` });
    return result;
  }
  const { tokens, error } = tokenize(text);
  if (error !== undefined) result.problems.push({ source: `${file}:${error.line}`, message: error.message });
  const reader = new Reader(tokens);
  while (reader.peek() !== undefined) {
    if (reader.isPunct(";")) {
      reader.next();
      continue;
    }
    const start = reader.next() as Token;
    const source = `${file}:${start.line}`;
    const isCall = start.kind === "name" && reader.isPunct("(");
    if (!isCall) {
      result.problems.push({ source, message: `not understood (only literal prefix_rule(...) calls are read)` });
      reader.skipStatement(start.line);
      continue;
    }
    reader.next();
    if (start.value === "host_executable") {
      // it only narrows which absolute paths Codex resolves to a rule's program; toolgate resolves every absolute
      // path for a deny or ask and none for an allow, which is at least as strict either way
      reader.skipCall();
      continue;
    }
    if (start.value !== "prefix_rule") {
      result.problems.push({ source, message: `${start.value}(...) is not understood (only prefix_rule is read)` });
      reader.skipCall();
      continue;
    }
    const rewind = reader.at;
    try {
      if (result.rules.length >= MAX_RULES) throw new NotLiteral(`at most ${MAX_RULES} rules`);
      result.rules.push(readPrefixRule(reader, source));
    } catch (problem) {
      if (!(problem instanceof NotLiteral)) throw problem;
      result.problems.push({ source, message: `prefix_rule not understood: expected ${problem.message}` });
      reader.at = rewind;
      reader.skipCall();
    }
  }
  return result;
}

/** A rule as written, for records and messages: `prefix_rule(pattern=["rm"], decision="forbidden")`. */
export function describeExecpolicyRule(rule: ExecpolicyRule): string {
  return `prefix_rule(pattern=${JSON.stringify(rule.pattern)}, decision="${rule.decision}")`;
}

/** A sentence ends with a full stop (a justification may or may not). */
function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/**
 * The reason toolgate records (and the report shows) for a call a Codex rule decides, in Codex's terms: "Codex's
 * rule prefix_rule(...) (file:line) forbids this command: <justification>." A `prompt` rule's ask that nobody can
 * answer (approval never) is a headless denial whose reason the policy extends with that.
 */
export function execpolicyRuleReason(rule: ExecpolicyRule): string {
  const why = rule.justification === undefined ? "" : `: ${rule.justification}`;
  const what =
    rule.decision === "forbidden"
      ? "forbids this command"
      : rule.decision === "prompt"
        ? "asks before running this command"
        : "allows this command";
  return sentence(`Codex's rule ${describeExecpolicyRule(rule)} (${rule.source}) ${what}${why}`);
}

const BEHAVIOR = { forbidden: "deny", prompt: "ask", allow: "allow" } as const satisfies Record<
  ExecpolicyDecision,
  string
>;

/**
 * Codex's execpolicy as policy rules beside toolgate's own (the composition root combines them: the stricter
 * answer wins, so a Codex `allow` never turns toolgate's deny or ask into an allow). Each `prefix_rule` becomes an
 * argv-prefix rule matching what Codex matches: every command of a plain script, and the whole `bash -lc <script>`
 * argv. `forbidden` -> deny, `prompt` -> ask (a headless denial under approval never), `allow` -> allow; among
 * Codex's rules the strictest match decides, as in Codex (equal priorities: deny over ask over allow).
 */
export function execpolicyPolicyRules(parsed: ParsedExecpolicy): {
  rules: {
    rule: string;
    behavior: "deny" | "ask" | "allow";
    origin: string;
    argvPrefix: (string | string[])[];
    reason: string;
  }[];
  warnings: { code: string; message: string }[];
} {
  const rules = parsed.rules.map((rule) => ({
    rule: describeExecpolicyRule(rule),
    behavior: BEHAVIOR[rule.decision],
    origin: `Codex rule, ${rule.source}`,
    argvPrefix: rule.pattern,
    reason: execpolicyRuleReason(rule),
  }));
  const warnings = parsed.problems.map((problem) => ({
    code: "HOST_RULE_UNSUPPORTED",
    message: `${problem.source}: ${problem.message}. Codex CLI may still apply it, but toolgate cannot see its refusals first: they are counted from Codex's rollout.`,
  }));
  return { rules, warnings };
}
