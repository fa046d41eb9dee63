import { ruleLanguageForTool } from "../../analyze/formats.js";
import { allowRuleSuggestion } from "../../policy/grants/allow-rule-suggestion.js";
import type { DenialStore } from "../../store/ports.js";
import { type AttackKind, attackKind } from "./attack-signals.js";
import { callsFromFilters, type DashboardFilters, reportCovers } from "./dashboard-filters.js";
import { queryRankedCalls } from "./ranked-calls-query.js";
import { SqlBuilder, type SqlReader } from "./sql-reader.js";

export interface PolicyRow {
  /** the host's tool name (one ranked call is one host's signature) */
  tool: string;
  /** its canonical tool (core/tool-families.ts) */
  canonicalTool: string;
  signature: string;
  count: number;
  example: string;
  /**
   * the narrowest allow rule for this call in the host's rule language (redacted); null when none would change the
   * outcome (only the OS, a sandbox or toolgate refused it, a deny rule wins) or it is a shell heredoc: `noRule` says why
   */
  allowRule: string | null;
  /** where the rule goes, as the host's rule language names it; null without a rule */
  ruleLanguage: string | null;
  /** why no allow rule is offered; null when one is */
  noRule: string | null;
  /** denials of this call per source in the window, most first */
  sources: { source: string; count: number }[];
  /** an explicit deny rule refused it: adding the allow rule would change nothing (deny wins) */
  denyRuleWins: boolean;
  denyRule: string | null;
  /** set when a deny rule refused something destructive or exfiltrating */
  attack: AttackKind | null;
}

/**
 * Policy tuning: the most-denied calls of the window (the store's report, so the same calls and counts as
 * `toolgate report`), each with the minimal allow rule, marked when a deny rule still wins, and split into
 * attack-like denials (a deny rule refused a destructive or exfiltrating call) and the rest (a policy that may be
 * too tight). With a host or label filter the same ranking is made in SQL over the narrowed rows.
 */
export async function queryPolicy(options: {
  reader: SqlReader;
  denials: Pick<DenialStore, "report">;
  filters: DashboardFilters;
  top: number;
  redactText: (text: string) => string;
}) {
  const { filters } = options;
  const report = reportCovers(filters)
    ? await options.denials.report({
        since: filters.since,
        top: options.top,
        ...(filters.until === undefined ? {} : { until: filters.until }),
        ...(filters.tool === undefined ? {} : { tool: filters.tool }),
      })
    : await queryRankedCalls({ reader: options.reader, filters, top: options.top }).then((ranked) => ({
        total: ranked.total,
        topSignatures: ranked.calls,
      }));
  const sources = await sourcesOf({ ...options, signatures: report.topSignatures.map((row) => row.signature) });
  const rows: PolicyRow[] = [];
  for (const row of report.topSignatures) {
    const suggestion = allowRuleSuggestion({
      tool: row.tool,
      input: row.sample.input,
      sources: (sources.get(row.signature) ?? []).map((entry) => entry.source),
      denyRuleWins: row.deniedByRule,
      language: await ruleLanguageForTool(row.tool),
    });
    rows.push({
      tool: row.tool,
      canonicalTool: row.canonicalTool,
      signature: row.signature,
      count: row.count,
      example: row.sample.inputSummary,
      allowRule: suggestion.rule === null ? null : options.redactText(suggestion.rule),
      ruleLanguage: suggestion.rule === null ? null : suggestion.language,
      noRule: suggestion.rule === null ? suggestion.why : null,
      sources: sources.get(row.signature) ?? [],
      denyRuleWins: row.deniedByRule,
      denyRule: row.denyRule,
      attack: row.deniedByRule ? (attackKind(row.tool, row.sample.input) ?? null) : null,
    });
  }
  return {
    total: report.total,
    attacks: rows.filter((row) => row.attack !== null),
    tooTight: rows.filter((row) => row.attack === null),
  };
}

/** how each ranked call was denied in the window: one GROUP BY over the ranked signatures */
async function sourcesOf(options: { reader: SqlReader; filters: DashboardFilters; signatures: string[] }) {
  const result = new Map<string, { source: string; count: number }[]>();
  if (options.signatures.length === 0) return result;
  const { reader, filters } = options;
  const builder = new SqlBuilder(reader);
  const from = callsFromFilters({ filters, builder, reader });
  const list = options.signatures.map((signature) => builder.value(signature)).join(", ");
  const rows = await reader.all(
    `SELECT signature, source, sum(n) AS n FROM ${from} WHERE signature IN (${list}) GROUP BY signature, source`,
    builder.params,
  );
  for (const row of rows) {
    const entries = result.get(String(row.signature)) ?? [];
    entries.push({ source: String(row.source), count: Number(row.n) });
    result.set(String(row.signature), entries);
  }
  for (const entries of result.values()) entries.sort((a, b) => b.count - a.count || (a.source < b.source ? -1 : 1));
  return result;
}
