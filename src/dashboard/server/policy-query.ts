import { ruleLanguageForTool } from "../../analyze/formats.js";
import { allowRuleSuggestion } from "../../policy/grants/allow-rule-suggestion.js";
import { compare } from "../../store/compute-report.js";
import type { CountBySignature, DenialStore } from "../../store/ports.js";
import { ATTACK_RISK, type AttackKind, attackKind } from "./attack-signals.js";
import { type DashboardFilters, denialWhere, reportCovers } from "./dashboard-filters.js";
import { queryRankedCalls } from "./ranked-calls-query.js";
import { SqlBuilder, type SqlReader } from "./sql-reader.js";

/** an allow rule for the call in one host's rule language */
export interface AllowRule {
  /** the host's tool name the rule is for */
  tool: string;
  rule: string;
  /** where the rule goes, as the host's rule language names it */
  language: string;
}

export interface PolicyRow {
  /** the host tool name with the most denials of this call (one of `tools`) */
  tool: string;
  /** every host's name for the tool under which this call was denied, in byte order (as Top tools lists them) */
  tools: string[];
  /** its canonical tool (core/tool-families.ts): one row per call across hosts */
  canonicalTool: string;
  /** the stored signature with the most denials (a signature is one host's call) */
  signature: string;
  /** every stored signature folded into this row */
  signatures: string[];
  count: number;
  /** the call as stored (its redacted summary): the row's identity with the canonical tool */
  example: string;
  /** first and last denial of the call in the window (epoch ms) */
  firstAt: number;
  lastAt: number;
  /** denials of the call in the window just before this one, of the same length: the trend */
  previousCount: number;
  /** sessions that hit this call in the window, and the most recent of them (at most 10) */
  sessionCount: number;
  sessions: { sessionId: string; host: string | null; count: number; lastAt: number }[];
  /**
   * the narrowest allow rule in the rule language of the row's first host tool (redacted); null when none would
   * change the outcome (only the OS, a sandbox or toolgate refused it, a deny rule wins) or it is a shell heredoc:
   * `noRule` says why
   */
  allowRule: string | null;
  ruleLanguage: string | null;
  /** the allow rule for the row's host tools, one per rule text (`language` names each language that reads it) */
  allowRules: AllowRule[];
  /** why no allow rule is offered; null when one is */
  noRule: string | null;
  /** denials of this call per source in the window, most first */
  sources: { source: string; count: number }[];
  /**
   * an explicit deny rule refused it (some of its denials), or one in the settings would still win over an allow rule
   * for it: adding an allow rule would change nothing (deny wins)
   */
  denyRuleWins: boolean;
  denyRule: string | null;
  /** what the call would do if it ran, when that is risky (attack-signals.ts), whoever refused it */
  risk: AttackKind | null;
  /** set when a deny rule refused something risky (its stored denials say so): the "looks like an attack" list */
  attack: AttackKind | null;
}

/** host calls (signatures) ranked before they are folded into calls across hosts */
export const POLICY_SIGNATURE_POOL = 500;
const SESSIONS_PER_ROW = 10;

/**
 * Policy tuning: the most-denied calls of the window, one row per call across hosts (its canonical tool and its
 * stored summary: `rm -rf build` denied as one host's `Bash` and another's `exec_command` is one row), each with
 * first and last seen, the count of the window before (trend), the sessions behind it, and the narrowest allow
 * rule in each host's rule language where one would change the outcome. Split into attack-like denials (a deny
 * rule refused a risky call), worst risk first, and the rest (a policy that may be too tight), most denials first.
 *
 * The host calls are ranked by the store's report (the same ranking as `toolgate report`) or, under a host or label
 * filter, by the same ranking in SQL; the 500 most-denied are folded into calls across hosts, and every figure of a
 * row is then counted in SQL over its signatures (`signature IN (...)`, the signature index).
 */
export async function queryPolicy(options: {
  reader: SqlReader;
  denials: Pick<DenialStore, "report">;
  filters: DashboardFilters;
  top: number;
  redactText: (text: string) => string;
  now: number;
  /** the configured policy: false when a deny rule in the settings would still win over an allow rule for the call */
  canGrant?: (call: { tool: string; input: unknown }) => boolean;
}) {
  const { filters } = options;
  const report = reportCovers(filters)
    ? await options.denials.report({
        since: filters.since,
        top: POLICY_SIGNATURE_POOL,
        ...(filters.until === undefined ? {} : { until: filters.until }),
        ...(filters.tool === undefined ? {} : { tool: filters.tool }),
      })
    : await queryRankedCalls({ reader: options.reader, filters, top: POLICY_SIGNATURE_POOL }).then((ranked) => ({
        total: ranked.total,
        topSignatures: ranked.calls,
      }));
  const calls = foldAcrossHosts(report.topSignatures).slice(0, options.top);
  const signatures = calls.flatMap((call) => call.members.map((member) => member.signature));
  const end = filters.until ?? options.now;
  const previous: DashboardFilters = { ...filters, since: filters.since - (end - filters.since), until: filters.since };
  const [facts, sessions, before] = await Promise.all([
    signatureFacts({ reader: options.reader, filters, signatures }),
    signatureSessions({ reader: options.reader, filters, signatures }),
    signatureCounts({ reader: options.reader, filters: previous, signatures }),
  ]);
  const rows: PolicyRow[] = [];
  for (const call of calls) {
    const lead = call.members[0] as CountBySignature;
    const bySource = new Map<string, number>();
    let firstAt = Number.POSITIVE_INFINITY;
    let lastAt = 0;
    let denyRule: { rule: string; at: number } | undefined;
    for (const member of call.members) {
      for (const fact of facts.get(member.signature) ?? []) {
        bySource.set(fact.source, (bySource.get(fact.source) ?? 0) + fact.count);
        firstAt = Math.min(firstAt, fact.firstAt);
        lastAt = Math.max(lastAt, fact.lastAt);
        if (fact.source === "rule" && fact.rule !== null && (denyRule === undefined || fact.lastAt > denyRule.at))
          denyRule = { rule: fact.rule, at: fact.lastAt };
      }
    }
    const sources = [...bySource]
      .map(([source, count]) => ({ source, count }))
      .sort((a, b) => b.count - a.count || compare(a.source, b.source));
    // a deny rule refused it (the stored denials say so), or one in the settings would still win (the policy says so)
    const deniedByRule = bySource.has("rule") || call.members.some((member) => member.deniedByRule);
    const settingsDeny = call.members.some(
      (member) => options.canGrant?.({ tool: member.tool, input: member.sample.input }) === false,
    );
    const denyRuleWins = deniedByRule || settingsDeny;
    const tools = [...new Set(call.members.map((member) => member.tool))];
    const allowRules: AllowRule[] = [];
    let noRule: string | null = null;
    for (const tool of tools) {
      const sample = call.members.find((member) => member.tool === tool) as CountBySignature;
      const suggestion = allowRuleSuggestion({
        tool,
        input: sample.sample.input,
        sources: sources.map((entry) => entry.source),
        denyRuleWins,
        language: await ruleLanguageForTool(tool),
      });
      if (suggestion.rule === null) noRule ??= suggestion.why;
      else {
        // one entry per rule text: hosts whose languages write it alike share it (`in A or B`)
        const rule = options.redactText(suggestion.rule);
        const same = allowRules.find((entry) => entry.rule === rule);
        if (same === undefined) allowRules.push({ tool, rule, language: suggestion.language });
        else if (!same.language.split(" or ").includes(suggestion.language))
          same.language = `${same.language} or ${suggestion.language}`;
      }
    }
    const risk = attackKind(lead.tool, lead.sample.input) ?? null;
    const hit = sessions.get(call.members.map((member) => member.signature));
    rows.push({
      tool: lead.tool,
      tools: [...tools].sort(compare),
      canonicalTool: lead.canonicalTool,
      signature: lead.signature,
      signatures: call.members.map((member) => member.signature),
      count: call.count,
      example: lead.sample.inputSummary,
      firstAt: Number.isFinite(firstAt) ? firstAt : 0,
      lastAt,
      previousCount: call.members.reduce((sum, member) => sum + (before.get(member.signature) ?? 0), 0),
      sessionCount: hit.count,
      sessions: hit.recent,
      allowRule: allowRules[0]?.rule ?? null,
      ruleLanguage: allowRules[0]?.language ?? null,
      allowRules,
      noRule: allowRules.length === 0 ? (noRule ?? "no allow rule changes this") : null,
      sources,
      denyRuleWins,
      denyRule: denyRule?.rule ?? (lead.deniedByRule ? lead.denyRule : null),
      risk,
      attack: deniedByRule ? risk : null,
    });
  }
  const attacks = rows
    .filter((row) => row.attack !== null)
    .sort(
      (a, b) =>
        ATTACK_RISK[b.attack as AttackKind] - ATTACK_RISK[a.attack as AttackKind] ||
        b.count - a.count ||
        compare(a.example, b.example),
    );
  return { total: report.total, attacks, tooTight: rows.filter((row) => row.attack === null) };
}

interface FoldedCall {
  count: number;
  /** its host calls, most denials first */
  members: CountBySignature[];
}

/** ranked host calls as calls across hosts: one per canonical tool and stored summary, most denials first */
export function foldAcrossHosts(ranked: readonly CountBySignature[]): FoldedCall[] {
  const calls = new Map<string, FoldedCall>();
  for (const entry of ranked) {
    const key = `${entry.canonicalTool}\u0000${entry.sample.inputSummary}`;
    const call = calls.get(key) ?? { count: 0, members: [] };
    call.count += entry.count;
    call.members.push(entry);
    calls.set(key, call);
  }
  return [...calls.values()].sort(
    (a, b) =>
      b.count - a.count ||
      compare((a.members[0] as CountBySignature).signature, (b.members[0] as CountBySignature).signature),
  );
}

function inList(builder: SqlBuilder, signatures: readonly string[]): string {
  return signatures.map((signature) => builder.value(signature)).join(", ");
}

/** per signature and source: denials, first and last seen, and a deny rule's text, in one GROUP BY */
async function signatureFacts(options: { reader: SqlReader; filters: DashboardFilters; signatures: string[] }) {
  const result = new Map<
    string,
    { source: string; count: number; firstAt: number; lastAt: number; rule: string | null }[]
  >();
  if (options.signatures.length === 0) return result;
  const { reader, filters } = options;
  const builder = new SqlBuilder(reader);
  const where = denialWhere({ filters, builder, reader });
  const rows = await reader.all(
    `SELECT signature, source, count(*) AS n, min(at) AS first_at, max(at) AS last_at, max(rule) AS rule
     FROM denials ${where} AND signature IN (${inList(builder, options.signatures)})
     GROUP BY signature, source`,
    builder.params,
  );
  for (const row of rows) {
    const entries = result.get(String(row.signature)) ?? [];
    entries.push({
      source: String(row.source),
      count: Number(row.n),
      firstAt: Number(row.first_at),
      lastAt: Number(row.last_at),
      rule: row.rule == null ? null : String(row.rule),
    });
    result.set(String(row.signature), entries);
  }
  return result;
}

/** denials per signature under the filters (the window before, for the trend) */
async function signatureCounts(options: { reader: SqlReader; filters: DashboardFilters; signatures: string[] }) {
  const result = new Map<string, number>();
  if (options.signatures.length === 0) return result;
  const { reader, filters } = options;
  const builder = new SqlBuilder(reader);
  const where = denialWhere({ filters, builder, reader });
  const rows = await reader.all(
    `SELECT signature, count(*) AS n FROM denials ${where} AND signature IN (${inList(builder, options.signatures)})
     GROUP BY signature`,
    builder.params,
  );
  for (const row of rows) result.set(String(row.signature), Number(row.n));
  return result;
}

/** the sessions behind each row: per session and signature, its denials and its last one */
async function signatureSessions(options: { reader: SqlReader; filters: DashboardFilters; signatures: string[] }) {
  const bySignature = new Map<string, { sessionId: string; host: string | null; count: number; lastAt: number }[]>();
  if (options.signatures.length > 0) {
    const { reader, filters } = options;
    const builder = new SqlBuilder(reader);
    const where = denialWhere({ filters, builder, reader });
    const rows = await reader.all(
      `SELECT signature, session_id, max(host) AS host, count(*) AS n, max(at) AS last_at FROM denials ${where}
       AND signature IN (${inList(builder, options.signatures)}) GROUP BY signature, session_id`,
      builder.params,
    );
    for (const row of rows) {
      const entries = bySignature.get(String(row.signature)) ?? [];
      entries.push({
        sessionId: String(row.session_id),
        host: row.host == null ? null : String(row.host),
        count: Number(row.n),
        lastAt: Number(row.last_at),
      });
      bySignature.set(String(row.signature), entries);
    }
  }
  return {
    /** the sessions of a row's signatures together: how many, and the most recent */
    get(signatures: readonly string[]) {
      const sessions = new Map<string, { sessionId: string; host: string | null; count: number; lastAt: number }>();
      for (const signature of signatures) {
        for (const entry of bySignature.get(signature) ?? []) {
          const known = sessions.get(entry.sessionId);
          if (known === undefined) sessions.set(entry.sessionId, { ...entry });
          else {
            known.count += entry.count;
            known.lastAt = Math.max(known.lastAt, entry.lastAt);
          }
        }
      }
      const recent = [...sessions.values()]
        .sort((a, b) => b.lastAt - a.lastAt || compare(a.sessionId, b.sessionId))
        .slice(0, SESSIONS_PER_ROW);
      return { count: sessions.size, recent };
    },
  };
}
