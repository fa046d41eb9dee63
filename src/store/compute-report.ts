import { byteOrder, factsFromRecords } from "../core/figures.js";
import { type AuditEvent, type DenialRecord, withToolIdentity } from "../core/records.js";
import { canonicalTool } from "../core/tool-families.js";
import type { CountBySignature, DenialQuery, DenialReport, ReportQuery } from "./ports.js";
import { rankPatterns, type SignatureFacts } from "./rank-patterns.js";
import { reportFigures } from "./report-figures.js";

/**
 * The reference semantics of `DenialStore.report`, over plain arrays. The memory store uses it directly; the SQL
 * stores implement the same ordering in SQL and the contract suite checks they agree.
 * Orderings: counts descending, ties by name ascending. Days are UTC.
 */
export function computeReport(options: {
  records: readonly DenialRecord[];
  events: readonly AuditEvent[];
  query: ReportQuery;
}): DenialReport {
  const { query } = options;
  const top = query.top ?? 10;
  const records = options.records.map(withToolIdentity).filter((record) => matchesQuery(record, query));
  const tools = new Map<string, { count: number; hostTools: Set<string> }>();
  const signatures = new Map<string, CountBySignature>();
  const facts = new Map<string, SignatureFacts>();
  const days = new Map<string, number>();
  const sessions = new Set<string>();
  for (const record of records) {
    sessions.add(record.sessionId);
    const tool = tools.get(record.canonicalTool) ?? { count: 0, hostTools: new Set<string>() };
    tool.count += 1;
    tool.hostTools.add(record.tool);
    tools.set(record.canonicalTool, tool);
    const day = utcDay(record.at);
    days.set(day, (days.get(day) ?? 0) + 1);
    const known = signatures.get(record.signature);
    if (known) {
      known.count += 1;
      (facts.get(record.signature) as SignatureFacts).count += 1;
      continue;
    }
    // the first denial of a call in the window speaks for it (the SQL stores keep the first row id per signature)
    const deniedByRule = record.source === "rule";
    const denyRule = deniedByRule ? (record.rule ?? null) : null;
    signatures.set(record.signature, {
      tool: record.tool,
      canonicalTool: record.canonicalTool,
      signature: record.signature,
      count: 1,
      sample: { inputSummary: record.inputSummary, input: record.input },
      deniedByRule,
      denyRule,
      source: record.source,
    });
    facts.set(record.signature, {
      tool: record.tool,
      canonicalTool: record.canonicalTool,
      signature: record.signature,
      pattern: record.pattern,
      count: 1,
      deniedByRule,
      denyRule,
      source: record.source,
    });
  }
  // loops, waste and status as core/figures.ts defines them: the events of the window (of the sessions with a
  // matching denial when a tool filter narrows the denials)
  const { figures, incidents } = reportFigures(
    factsFromRecords({
      records,
      events: options.events.filter(
        (event) =>
          matchesQuery(event, { ...query, tool: undefined }) &&
          (query.tool === undefined || sessions.has(event.sessionId)),
      ),
    }),
    { top },
  );
  return {
    total: records.length,
    sessions: sessions.size,
    topTools: [...tools]
      .map(([tool, entry]) => ({ tool, count: entry.count, hostTools: [...entry.hostTools].sort(compare) }))
      .sort((a, b) => b.count - a.count || compare(a.tool, b.tool))
      .slice(0, top),
    topSignatures: [...signatures.values()]
      .sort((a, b) => b.count - a.count || compare(a.signature, b.signature))
      .slice(0, top),
    topPatterns: rankPatterns({ signatures: facts.values(), top }).map((pattern) => ({
      ...pattern,
      variants: pattern.variants.map((fact) => signatures.get(fact.signature) as CountBySignature),
    })),
    perDay: [...days].map(([day, count]) => ({ day, count })).sort((a, b) => compare(a.day, b.day)),
    incidents,
    figures,
  };
}

/**
 * whether a record or event falls inside a query's window and filters. A tool filter names a tool the canonical way
 * or any host's way (`shell`, `Bash`, `exec_command`): it matches a record by canonical tool, so every host's shell
 * tool; an audit event (which has no canonical tool) by its raw name.
 */
export function matchesQuery(
  item: { at: number; sessionId: string; tool?: string; canonicalTool?: string },
  query: Pick<DenialQuery, "since" | "until" | "sessionId" | "tool">,
): boolean {
  if (query.since !== undefined && item.at < query.since) return false;
  if (query.until !== undefined && item.at >= query.until) return false;
  if (query.sessionId !== undefined && item.sessionId !== query.sessionId) return false;
  if (query.tool !== undefined) {
    if (item.canonicalTool !== undefined) return item.canonicalTool === canonicalTool(query.tool);
    if (item.tool !== query.tool) return false;
  }
  return true;
}

/** UTC day of an epoch-ms time, YYYY-MM-DD (the `day` column of the stores) */
export function utcDay(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/** byte-order comparison, the same as SQL `COLLATE "C"` / SQLite BINARY */
export const compare = byteOrder;
