/**
 * Codex's execpolicy `.rules` files (`$CODEX_HOME/rules/*.rules`, `<project>/.codex/rules/*.rules`), read without
 * running Starlark: only literal `prefix_rule(pattern = [...], decision = "...", justification = "...")` calls are
 * understood (`match` / `not_match` examples are accepted and ignored). Anything else (variables, loops, `load`,
 * other functions, computed values) is reported as a problem with its line, never silently treated as allow.
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
  | { kind: "string"; value: string; line: number }
  | { kind: "name"; value: string; line: number }
  | { kind: "punct"; value: string; line: number };

/** Bounds: the files are small; anything past these is reported instead of read. */
const MAX_TEXT = 1024 * 1024;
const MAX_RULES = 5000;

function tokenize(text: string): { tokens: Token[]; error?: { line: number; message: string } } {
  const tokens: Token[] = [];
  let line = 1;
  let at = 0;
  while (at < text.length) {
    const char = text[at] as string;
    if (char === "\n") {
      line += 1;
      at += 1;
    } else if (char === " " || char === "\t" || char === "\r") {
      at += 1;
    } else if (char === "#") {
      while (at < text.length && text[at] !== "\n") at += 1;
    } else if (char === '"' || char === "'") {
      const triple = text.startsWith(char.repeat(3), at);
      const quote = triple ? char.repeat(3) : char;
      const startLine = line;
      at += quote.length;
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
          const next = text[at + 1] as string;
          value += next === "n" ? "\n" : next === "t" ? "\t" : next;
          at += 2;
          continue;
        }
        value += current;
        at += 1;
      }
      if (!closed) return { tokens, error: { line: startLine, message: "a string is not closed" } };
      tokens.push({ kind: "string", value, line: startLine });
    } else if (/[A-Za-z_]/.test(char)) {
      let end = at;
      while (end < text.length && /[A-Za-z0-9_.]/.test(text[end] as string)) end += 1;
      tokens.push({ kind: "name", value: text.slice(at, end), line });
      at = end;
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
  peek(): Token | undefined {
    return this.tokens[this.at];
  }
  next(): Token | undefined {
    return this.tokens[this.at++];
  }
  isPunct(value: string): boolean {
    const token = this.peek();
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
  /** skips the rest of a statement that is not a call: to the end of its line */
  skipLine(line: number): void {
    while (this.at < this.tokens.length && (this.peek() as Token).line === line) this.at += 1;
  }
}

class NotLiteral extends Error {}

function readList(reader: Reader, nested: boolean): (string | string[])[] {
  if (!reader.isPunct("[")) throw new NotLiteral("a list literal");
  reader.next();
  const items: (string | string[])[] = [];
  while (!reader.isPunct("]")) {
    const token = reader.peek();
    if (token === undefined) throw new NotLiteral("a closed list");
    if (token.kind === "string") {
      reader.next();
      items.push(token.value);
    } else if (!nested && reader.isPunct("[")) {
      items.push(readList(reader, true) as string[]);
    } else {
      throw new NotLiteral("string literals (or lists of them)");
    }
    if (reader.isPunct(",")) reader.next();
    else if (!reader.isPunct("]")) throw new NotLiteral("a comma between list items");
  }
  reader.next();
  return items;
}

function readString(reader: Reader): string {
  const token = reader.next();
  if (token?.kind !== "string") throw new NotLiteral("a string literal");
  return token.value;
}

const DECISIONS: readonly string[] = ["allow", "prompt", "forbidden"];

function readPrefixRule(reader: Reader, source: string): ExecpolicyRule {
  let pattern: (string | string[])[] | undefined;
  let decision: ExecpolicyDecision = "allow";
  let justification: string | undefined;
  while (!reader.isPunct(")")) {
    const name = reader.next();
    if (name?.kind !== "name" || !reader.isPunct("=")) throw new NotLiteral("keyword arguments (name = value)");
    reader.next();
    if (name.value === "pattern") pattern = readList(reader, false);
    else if (name.value === "decision") {
      const value = readString(reader);
      if (!DECISIONS.includes(value))
        throw new NotLiteral(`decision "allow", "prompt" or "forbidden" (got "${value}")`);
      decision = value as ExecpolicyDecision;
    } else if (name.value === "justification") justification = readString(reader);
    else if (name.value === "match" || name.value === "not_match") readList(reader, false);
    else
      throw new NotLiteral(`known arguments (pattern, decision, justification, match, not_match), not ${name.value}`);
    if (reader.isPunct(",")) reader.next();
    else if (!reader.isPunct(")")) throw new NotLiteral("a comma between arguments");
  }
  reader.next();
  if (pattern === undefined || pattern.length === 0) throw new NotLiteral("a non-empty pattern");
  return { pattern, decision, source, ...(justification === undefined ? {} : { justification }) };
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
    const start = reader.next() as Token;
    const source = `${file}:${start.line}`;
    const isCall = start.kind === "name" && reader.isPunct("(");
    if (!isCall) {
      result.problems.push({ source, message: `not understood (only literal prefix_rule(...) calls are read)` });
      reader.skipLine(start.line);
      continue;
    }
    reader.next();
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
