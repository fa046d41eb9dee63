import { plural } from "../core/plural.js";
import { allowRuleSuggestion } from "../policy/grants/allow-rule-suggestion.js";
import type { CountByPattern, CountBySignature, DenialReport } from "./ports.js";

export interface SuggestedRule {
  tool: string;
  signature: string;
  count: number;
  /**
   * the narrowest allow rule for the most-denied call, in the host's rule language (`language`); null when none
   * would change the outcome (a deny rule wins, only the OS, a sandbox or toolgate refused it) or it is a heredoc
   */
  rule: string | null;
  /** where the rule goes; or, without a rule, why there is none */
  language?: string;
  why?: string;
  example: string;
}

/** the allow rule for one variant, or why there is none */
export type VariantSuggestion = { rule: string; language: string } | { rule: null; why: string };

/** The report as plain text for a terminal. */
export function formatReport(options: {
  report: DenialReport;
  /** allow rules for the top signatures (already redacted), used where a variant is one of them */
  suggestions: SuggestedRule[];
  location: string;
  window: string;
  /** the allow rule for other variants (default: allowRuleSuggestion in toolgate's rules, on the stored input) */
  suggest?: (variant: CountBySignature) => VariantSuggestion;
}): string {
  const { report } = options;
  const out: string[] = [];
  out.push(
    `toolgate report: ${plural(report.total, "denial", "denials")} in ${plural(report.sessions, "session", "sessions")} (${options.window}; ${options.location})`,
  );
  if (report.total === 0) {
    out.push("", "No denials recorded in this window.");
    return `${out.join("\n")}\n`;
  }
  const { figures } = report;
  out.push(
    `Loops ${figures.loops} in ${plural(figures.sessionsWithLoops, "session", "sessions")}; wasted calls ${figures.wastedCalls}${figures.wastedTokens === null ? "" : ` (${figures.wastedTokens} tokens)`}; calls toolgate saved ${figures.savedCalls}`,
  );
  const width = (values: string[]) => Math.min(48, Math.max(4, ...values.map((value) => value.length)));
  out.push("", "Top tools");
  // one row per canonical tool across hosts, with the host names behind it: `shell (Bash, exec_command)`
  const toolLabels = report.topTools.map((row) => toolWithHostNames(row.tool, row.hostTools ?? [row.tool]));
  const toolWidth = width(toolLabels);
  for (const [index, row] of report.topTools.entries())
    out.push(`  ${(toolLabels[index] as string).padEnd(toolWidth)}  ${String(row.count).padStart(7)}`);
  out.push("", "Most-denied patterns, variants folded under each (a deny rule wins over any allow rule)");
  const rules = new Map(
    options.suggestions.map((row): [string, VariantSuggestion] => [
      `${row.tool}\u0000${row.signature}`,
      row.rule === null
        ? { rule: null, why: row.why ?? "no allow rule changes this" }
        : { rule: row.rule, language: row.language ?? "toolgate permissions.allow" },
    ]),
  );
  const suggest =
    options.suggest ??
    ((variant: CountBySignature) =>
      allowRuleSuggestion({
        tool: variant.tool,
        input: variant.sample.input,
        sources: [variant.source],
        denyRuleWins: variant.deniedByRule,
      }));
  for (const row of report.topPatterns) out.push(...patternLines({ row, rules, suggest }));
  out.push("", "Sessions with loops, aborts or blocked calls");
  if (report.incidents.length === 0) out.push("  none");
  for (const row of report.incidents)
    out.push(`  ${row.sessionId}  ${row.status}  loops ${row.loops}  aborts ${row.aborts}  denials ${row.denials}`);
  out.push("", "Denials per day (UTC)");
  const most = Math.max(...report.perDay.map((row) => row.count));
  for (const row of report.perDay) {
    const bar = "#".repeat(Math.max(1, Math.round((row.count / most) * 40)));
    out.push(`  ${row.day}  ${String(row.count).padStart(7)}  ${bar}`);
  }
  return `${out.join("\n")}\n`;
}

/**
 * One pattern: its count and variant count, then the deny rules that won (name the rule to narrow or remove; an
 * allow rule would not help), then each variant with its count and either the deny rule that denied it or the
 * minimal allow rule that would let it run.
 */
function patternLines(options: {
  row: CountByPattern;
  rules: Map<string, VariantSuggestion>;
  suggest: (variant: CountBySignature) => VariantSuggestion;
}): string[] {
  const { row } = options;
  const more = row.variantCount > row.variants.length ? `, ${row.variants.length} shown` : "";
  const lines = [
    `  ${String(row.count).padStart(7)}  ${row.tool}  ${clip(row.pattern, 60)}  (${row.variantCount} variant${row.variantCount === 1 ? "" : "s"}${more})`,
  ];
  for (const deny of row.denyRules) {
    const rule = deny.rule ?? "A deny rule the host did not name";
    lines.push(
      `           ${rule} denied ${deny.count}: a deny rule wins over any allow rule; narrow or remove ${deny.rule === null ? "it" : "it where it is defined"} to let these calls run.`,
    );
  }
  for (const variant of row.variants) {
    lines.push(`           ${String(variant.count).padStart(7)}  ${clip(variant.sample.inputSummary, 70)}`);
    if (variant.deniedByRule) {
      // with one deny rule the line above names it; with several, say which one denied this call
      if (row.denyRules.length > 1)
        lines.push(`                    denied by ${variant.denyRule ?? "an unnamed deny rule"}`);
      continue;
    }
    const suggestion = options.rules.get(`${variant.tool}\u0000${variant.signature}`) ?? options.suggest(variant);
    if (suggestion.rule === null) lines.push(`                    no allow rule: ${suggestion.why}`);
    else
      lines.push(`                    allow rule (${suggestion.language}): ${suggestion.rule.replaceAll("\n", " ")}`);
  }
  return lines;
}

function clip(text: string, length: number): string {
  const flat = text.replace(/\s+/g, " ");
  return flat.length > length ? `${flat.slice(0, length - 1)}…` : flat;
}

/** a canonical tool with the host names behind it: `shell (Bash, exec_command)`; just `shell` when it is the only name */
export function toolWithHostNames(tool: string, hostTools: readonly string[]): string {
  return hostTools.every((name) => name === tool) ? tool : `${tool} (${hostTools.join(", ")})`;
}
