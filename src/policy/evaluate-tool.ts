import type { CompiledRule } from "./compile-rule.js";
import type { EvaluationContext } from "./evaluation-context.js";
import { hostOf } from "./match/domain-specifier.js";
import { matchingPathRules } from "./match/path-rule-index.js";
import {
  allowOutcome,
  fromOrigin,
  grantOutcome,
  makeOutcome,
  type Outcome,
  ruleOutcome,
  shareOutcome,
} from "./outcome.js";
import { isInsideAny, resolvePath } from "./paths.js";
import { pickWinningRule, preferredRule } from "./precedence.js";
import { pathOf, toolFamily, urlOf } from "./tool-families.js";
import { matchingDomainRules, type ToolRules } from "./tool-rules.js";

/** What a rule of each kind tests for one call: its absolute path or its host (both fields always present). */
interface Subject {
  readonly path: string | undefined;
  readonly host: string | undefined;
}

/**
 * The subject a rule of each kind tests for one call. Every subject has one object shape (both fields, in one
 * order), so the reads of `subject.path` and `subject.host` on the hot path stay monomorphic.
 */
function subjects(tool: string, input: unknown, context: EvaluationContext): Subject {
  const family = toolFamily(tool);
  if (family === "read" || family === "edit") {
    const path = pathOf(input);
    if (path !== undefined) return { path: resolvePath(path, context.pathContext), host: undefined };
    return family === "read" ? { path: context.workingDirectories[0] as string, host: undefined } : NO_SUBJECT;
  }
  if (family === "web") {
    const url = urlOf(input);
    const host = url === undefined ? undefined : hostOf(url);
    return host === undefined ? NO_SUBJECT : { path: undefined, host };
  }
  return NO_SUBJECT;
}

const NO_SUBJECT: Subject = { path: undefined, host: undefined };

function ruleMatches(rule: CompiledRule, input: unknown, subject: Subject): boolean {
  switch (rule.kind) {
    case "tool":
      return true;
    case "parameter":
      return rule.testInput(input);
    case "path":
      return subject.path !== undefined && rule.test(subject.path);
    case "domain":
      return subject.host !== undefined && rule.test(subject.host);
    default:
      return false;
  }
}

/** Evaluates a non-shell call: rules by precedence, then session grants, then the defaults preset. */
export function evaluateTool(options: {
  tool: string;
  input: unknown;
  rules: ToolRules;
  context: EvaluationContext;
  neverGrant: readonly CompiledRule[];
}): Outcome {
  const { tool, input, rules, context } = options;
  const subject = subjects(tool, input, context);
  // the winner kept as the matching rules are found (no list of them): the order they are found in does not change
  // it (ties go by rule order)
  let winner = pickWinningRule(rules.whole);
  for (const rule of rules.parameter) if (rule.testInput(input)) winner = preferredRule(winner, rule);
  // path rules through their index (only those whose directory holds the path are tested), then domain rules
  if (subject.path !== undefined && rules.pathIndex.rules.length > 0) {
    for (const rule of matchingPathRules(rules.pathIndex, subject.path)) winner = preferredRule(winner, rule);
  }
  if (subject.host !== undefined) {
    for (const rule of matchingDomainRules(rules, subject.host)) winner = preferredRule(winner, rule);
  }
  if (winner?.behavior === "deny") return ruleOutcome(winner, deniedText(tool, subject, winner));
  const forbidden =
    options.neverGrant.length > 0 && options.neverGrant.some((rule) => ruleMatches(rule, input, subject));
  const grant =
    forbidden || context.grants.length === 0
      ? undefined
      : context.grants.find((rule) => ruleMatches(rule, input, subject));
  if (grant !== undefined) {
    return grantOutcome(grant.rule);
  }
  if (winner !== undefined) {
    if (winner.behavior !== "ask") return allowOutcome(winner);
    return ruleOutcome(winner, `The rule ${winner.rule}${fromOrigin(winner)} requires approval for ${tool}.`);
  }
  return defaultForTool(tool, subject, context);
}

function defaultForTool(tool: string, subject: Subject, context: EvaluationContext): Outcome {
  const { defaults, mode } = context;
  const family = toolFamily(tool);
  if (defaults.noPermissionTools.has(tool)) {
    return makeOutcome({
      behavior: "allow",
      source: "default",
      reason: `${tool} needs no approval (${defaults.name} defaults).`,
    });
  }
  const inside = subject.path !== undefined && isInsideAny(subject.path, context.workingDirectories);
  if (family === "read" && inside && defaults.readInsideWorkingDirectories) {
    return READS_INSIDE;
  }
  if (family === "edit" && inside && mode === "acceptEdits") {
    return makeOutcome({
      behavior: "allow",
      source: "mode",
      reason: "Edits inside the working directories are allowed in acceptEdits mode.",
    });
  }
  if (family === "read" && subject.path !== undefined) {
    return makeOutcome({
      behavior: undefined,
      source: "default",
      reason: `Reading ${subject.path} needs approval: it is outside the working directories.`,
    });
  }
  if (family === "edit" && subject.path !== undefined) {
    return makeOutcome({
      behavior: undefined,
      source: "default",
      reason: `Writing to ${subject.path} needs approval.`,
    });
  }
  return makeOutcome({ behavior: undefined, source: "default", reason: `Using ${tool} needs approval.` });
}

/** reads inside the working directories (shared) */
const READS_INSIDE: Outcome = shareOutcome({
  behavior: "allow",
  source: "default",
  reason: "Reads inside the working directories need no approval.",
});

function deniedText(tool: string, subject: Subject, rule: CompiledRule): string {
  const target = subject.path ?? (subject.host === undefined ? undefined : `domain:${subject.host}`);
  const what = target === undefined ? tool : `${tool} on ${target}`;
  return `Permission to use ${what} has been denied by the rule ${rule.rule}${fromOrigin(rule)}.`;
}
