/**
 * Recognises the denial texts opencode 1.18.33 puts in an errored tool part (recorded in test/fixtures/opencode/).
 * Exact prefixes only: an ordinary tool error is never mistaken for a denial.
 */

export interface OpencodeDenialText {
  /** `rule`: a configured deny rule; `rejected`: an ask answered with reject; `unavailable`: a tool not offered */
  kind: "rule" | "rejected" | "unavailable";
  /** the matching deny rule as written in opencode.json (`bash "rm *": deny`) when the text names it */
  rule?: string;
  /** feedback a person gave with the reject */
  feedback?: string;
}

const RULE = "The user has specified a rule which prevents you from using this specific tool call.";
const REJECTED = "The user rejected permission to use this specific tool call.";
const CORRECTED = "The user rejected permission to use this specific tool call with the following feedback:";
const UNAVAILABLE = /Model tried to call unavailable tool '([^']+)'/;

export function recognizeOpencodeDenial(
  error: string,
  call: { tool?: string; input?: unknown } = {},
): OpencodeDenialText | undefined {
  const text = error.trim();
  if (text.startsWith(RULE)) {
    const rule = denyRuleIn(text.slice(RULE.length), call);
    return { kind: "rule", ...(rule === undefined ? {} : { rule }) };
  }
  if (text.startsWith(CORRECTED)) return { kind: "rejected", feedback: text.slice(CORRECTED.length).trim() };
  if (text.startsWith(REJECTED)) return { kind: "rejected" };
  if (UNAVAILABLE.test(text)) return { kind: "unavailable" };
  return undefined;
}

interface Rule {
  permission?: unknown;
  pattern?: unknown;
  action?: unknown;
}

/**
 * The deny rule that matched, from the JSON list opencode appends ("Here are some of the relevant rules [...]"):
 * like opencode, the last rule whose pattern matches one of the call's string inputs wins (`*` any run, `?` one
 * character); without a match, the last deny rule for the tool.
 */
function denyRuleIn(rest: string, call: { tool?: string; input?: unknown }): string | undefined {
  const start = rest.indexOf("[");
  if (start < 0) return undefined;
  let rules: Rule[];
  try {
    const parsed = JSON.parse(rest.slice(start)) as unknown;
    if (!Array.isArray(parsed)) return undefined;
    rules = parsed as Rule[];
  } catch {
    return undefined;
  }
  const denies = rules.filter(
    (rule) => rule.action === "deny" && typeof rule.permission === "string" && typeof rule.pattern === "string",
  );
  const tool = call.tool;
  const forTool = denies.filter((rule) => tool === undefined || rule.permission === tool || rule.permission === "*");
  const values = stringValues(call.input);
  const matching = (forTool.length > 0 ? forTool : denies).filter((rule) =>
    values.some((value) => wildcard(String(rule.pattern)).test(value)),
  );
  const chosen = matching.at(-1) ?? forTool.at(-1) ?? denies.at(-1);
  if (chosen === undefined) return undefined;
  return `${String(chosen.permission)} ${JSON.stringify(chosen.pattern)}: deny`;
}

function stringValues(input: unknown): string[] {
  if (typeof input === "string") return [input];
  if (typeof input !== "object" || input === null) return [];
  return Object.values(input).filter((value): value is string => typeof value === "string");
}

/** opencode's Wildcard.match: `*` matches any run of characters, `?` one character, the rest literally. */
function wildcard(pattern: string): RegExp {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  return new RegExp(`^${source}$`, "s");
}
