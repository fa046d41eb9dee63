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

export function recognizeOpencodeDenial(error: string, tool?: string): OpencodeDenialText | undefined {
  const text = error.trim();
  if (text.startsWith(RULE)) {
    const rule = denyRuleIn(text.slice(RULE.length), tool);
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

/** The last `deny` rule in the JSON list opencode appends ("Here are some of the relevant rules [...]"). */
function denyRuleIn(rest: string, tool: string | undefined): string | undefined {
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
  const forTool = denies.filter((rule) => tool === undefined || rule.permission === tool || rule.permission === "*");
  const chosen = forTool.at(-1) ?? denies.at(-1);
  if (chosen === undefined) return undefined;
  return `${String(chosen.permission)} ${JSON.stringify(chosen.pattern)}: deny`;
}
