import { canonicalTool } from "../core/tool-families.js";
import { callsFrom } from "./calls-source.js";
import { compare } from "./compute-report.js";
import type { JsonDecoder } from "./denial-row.js";
import { queryFigureFacts } from "./figure-facts-sql.js";
import type { CountBySignature, DenialReport, ReportQuery } from "./ports.js";
import { rankPatterns, type SignatureFacts } from "./rank-patterns.js";
import { type CountedSession, countSession, figuresOfSessions } from "./report-figures.js";
import { splitReportWindow } from "./report-window.js";
import { SUMMARY_REST_LIMIT, summarySessions } from "./session-summary-sql.js";

type Row = Record<string, unknown>;
/** ids per `IN (...)` lookup, well under SQLite's and Postgres's parameter limits */
const ID_CHUNK = 500;
type Params = (string | number)[];

/**
 * `DenialStore.report` in SQL, for both engines: whole days come from the daily rollups (migration 0002), the
 * partial edge days and any per-session query from `denials`. Parts are merged and ranked here with the same
 * orderings as `computeReport` (counts descending, ties in byte order), so every engine returns identical rows.
 */
export async function sqlReport(options: {
  all: (sql: string, params: Params) => Promise<Row[]>;
  /** renders the n-th (1-based) parameter: `?` for SQLite, `$n` for Postgres */
  placeholder: (index: number) => string;
  decodeJson: JsonDecoder;
  query: ReportQuery;
}): Promise<DenialReport> {
  const { all, query, placeholder } = options;
  const top = Math.floor(query.top ?? 10);
  const tool = query.tool === undefined ? undefined : canonicalTool(query.tool);
  const conditions = (parts: [string, string | number | undefined][]) => {
    const params: Params = [];
    const sql: string[] = [];
    for (const [condition, value] of parts) {
      if (value === undefined) continue;
      params.push(value);
      sql.push(condition.replace("?", placeholder(params.length)));
    }
    return { where: sql.length === 0 ? "" : `WHERE ${sql.join(" AND ")}`, params };
  };
  const sources: {
    table: string;
    sessionTable: string;
    count: string;
    firstId: string;
    where: string;
    params: Params;
  }[] = [];
  const window =
    query.sessionId === undefined
      ? splitReportWindow(query)
      : { raw: [{ since: query.since, until: query.until }] as { since?: number; until?: number }[] };
  if (window.days) {
    const { where, params } = conditions([
      ["day >= ?", window.days.from],
      ["day <= ?", window.days.to],
      ["canonical_tool = ?", tool],
    ]);
    sources.push({
      table: "denial_daily",
      sessionTable: "denial_daily_sessions",
      count: "sum(total)",
      firstId: "min(first_id)",
      where,
      params,
    });
  }
  for (const range of window.raw) {
    const { where, params } = conditions([
      ["at >= ?", range.since],
      ["at < ?", range.until],
      ["session_id = ?", query.sessionId],
      ["canonical_tool = ?", tool],
    ]);
    sources.push({ table: "denials", sessionTable: "denials", count: "count(*)", firstId: "min(id)", where, params });
  }

  const tools = new Map<string, { count: number; hostTools: Set<string> }>();
  const days = new Map<string, number>();
  const signatures = new Map<string, { count: number; firstId: number }>();
  const sessions = new Set<string>();
  const add = (map: Map<string, number>, key: string, value: number) => map.set(key, (map.get(key) ?? 0) + value);
  await Promise.all(
    sources.map(async (source) => {
      const [byDayAndTool, bySignature, sessionRows] = await Promise.all([
        // grouped in the primary key's order (day, tool): SQLite then reads the window's days as one range of
        // `denial_daily`; grouped by (day, canonical_tool) it walked the whole canonical-tool index instead
        all(
          `SELECT day, canonical_tool, tool, ${source.count} AS n FROM ${source.table} ${source.where} GROUP BY day, tool, canonical_tool`,
          source.params,
        ),
        all(
          `SELECT signature, ${source.count} AS n, ${source.firstId} AS first_id FROM ${source.table} ${source.where} GROUP BY signature`,
          source.params,
        ),
        all(`SELECT DISTINCT session_id FROM ${source.sessionTable} ${source.where}`, source.params),
      ]);
      for (const row of byDayAndTool) {
        const canonical = row.canonical_tool == null ? canonicalTool(String(row.tool)) : String(row.canonical_tool);
        const entry = tools.get(canonical) ?? { count: 0, hostTools: new Set<string>() };
        entry.count += Number(row.n);
        entry.hostTools.add(String(row.tool));
        tools.set(canonical, entry);
        add(days, String(row.day), Number(row.n));
      }
      for (const row of bySignature) {
        const known = signatures.get(String(row.signature));
        const count = Number(row.n);
        const firstId = Number(row.first_id);
        if (known) {
          known.count += count;
          known.firstId = Math.min(known.firstId, firstId);
        } else signatures.set(String(row.signature), { count, firstId });
      }
      for (const row of sessionRows) sessions.add(String(row.session_id));
    }),
  );

  // what each signature's first row in the window says: its pattern and whether a deny rule denied it
  const firstRows = new Map<number, Row>();
  const firstIds = [...signatures.values()].map((entry) => entry.firstId);
  for (let start = 0; start < firstIds.length; start += ID_CHUNK) {
    const ids = firstIds.slice(start, start + ID_CHUNK);
    const rows = await all(
      `SELECT id, tool, canonical_tool, pattern, source, rule FROM denials WHERE id IN (${ids.map((_, index) => placeholder(index + 1)).join(", ")})`,
      ids,
    );
    for (const row of rows) firstRows.set(Number(row.id), row);
  }
  const facts = new Map<string, SignatureFacts & { firstId: number }>();
  for (const [signature, entry] of signatures) {
    const row = firstRows.get(entry.firstId) ?? {};
    const deniedByRule = row.source === "rule";
    facts.set(signature, {
      tool: String(row.tool),
      canonicalTool: row.canonical_tool == null ? canonicalTool(String(row.tool)) : String(row.canonical_tool),
      signature,
      pattern: String(row.pattern),
      count: entry.count,
      deniedByRule,
      denyRule: deniedByRule && typeof row.rule === "string" ? row.rule : null,
      source: String(row.source),
      firstId: entry.firstId,
    });
  }

  const ranked = [...facts.values()]
    .sort((a, b) => b.count - a.count || compare(a.signature, b.signature))
    .slice(0, top);
  const patternRows = rankPatterns({ signatures: facts.values(), top });
  const shown = new Map<number, SignatureFacts>();
  for (const fact of ranked) shown.set(fact.firstId, fact);
  for (const pattern of patternRows) {
    for (const variant of pattern.variants) shown.set(variant.firstId, variant);
  }
  const samples = new Map<number, Row>();
  const sampleIds = [...shown.keys()];
  for (let start = 0; start < sampleIds.length; start += ID_CHUNK) {
    const ids = sampleIds.slice(start, start + ID_CHUNK);
    const rows = await all(
      `SELECT id, input_summary, tool_input FROM denials WHERE id IN (${ids.map((_, index) => placeholder(index + 1)).join(", ")})`,
      ids,
    );
    for (const row of rows) samples.set(Number(row.id), row);
  }
  const toRow = (fact: SignatureFacts & { firstId: number }): CountBySignature => {
    const sample = samples.get(fact.firstId) ?? {};
    return {
      tool: fact.tool,
      canonicalTool: fact.canonicalTool,
      signature: fact.signature,
      count: fact.count,
      sample: { inputSummary: String(sample.input_summary), input: options.decodeJson(sample.tool_input) },
      deniedByRule: fact.deniedByRule,
      denyRule: fact.denyRule,
      source: fact.source,
    };
  };
  const topSignatures = ranked.map(toRow);
  const topPatterns = patternRows.map((pattern) => ({
    ...pattern,
    variants: pattern.variants.map(toRow),
  }));

  // loops, waste and status as core/figures.ts defines them: the sessions wholly in the window from the
  // per-session summary (migration 0009), the others from the calls of the window (rollup and edge rows)
  const engine = placeholder(1) === "?" ? "sqlite" : "postgres";
  const figureFacts = (sessionIds?: string[]) => {
    const events = conditions([
      ["at >= ?", query.since],
      ["at < ?", query.until],
      ["session_id = ?", query.sessionId],
    ]);
    if (sessionIds !== undefined) {
      const ids = sessionIds.map((id) => {
        events.params.push(id);
        return placeholder(events.params.length);
      });
      events.where = `${events.where === "" ? "WHERE" : `${events.where} AND`} session_id IN (${ids.join(", ")})`;
    }
    return queryFigureFacts({
      all,
      placeholder,
      decodeJson: options.decodeJson,
      denials: (add) => {
        const from = callsFrom({
          filter: {
            ...(query.since === undefined ? {} : { since: query.since }),
            ...(query.until === undefined ? {} : { until: query.until }),
            ...(query.sessionId === undefined ? {} : { sessionId: query.sessionId }),
            ...(tool === undefined ? {} : { canonicalTool: tool }),
          },
          engine,
          add,
        });
        return sessionIds === undefined ? from : `${from} WHERE session_id IN (${sessionIds.map(add).join(", ")})`;
      },
      events,
      eventsOfDeniedSessionsOnly: tool !== undefined,
    });
  };
  let counted: CountedSession[] | undefined;
  if (query.sessionId === undefined && tool === undefined) {
    const summary = await summarySessions({
      reader: { all, placeholder, decodeJson: options.decodeJson },
      filters: {
        ...(query.since === undefined ? {} : { since: query.since }),
        ...(query.until === undefined ? {} : { until: query.until }),
      },
    });
    if (summary.rest.length <= SUMMARY_REST_LIMIT) {
      const rest = summary.rest.length === 0 ? [] : await figureFacts(summary.rest);
      counted = [...summary.rows, ...summary.eventOnly, ...rest.map(countSession)];
    }
  }
  counted ??= (await figureFacts()).map(countSession);
  const { figures, incidents } = figuresOfSessions(counted, { top });

  return {
    total: [...tools.values()].reduce((sum, entry) => sum + entry.count, 0),
    sessions: sessions.size,
    topTools: [...tools]
      .map(([tool, entry]) => ({ tool, count: entry.count, hostTools: [...entry.hostTools].sort(compare) }))
      .sort((a, b) => b.count - a.count || compare(a.tool, b.tool))
      .slice(0, top),
    topSignatures,
    topPatterns,
    perDay: [...days].map(([day, count]) => ({ day, count })).sort((a, b) => compare(a.day, b.day)),
    incidents,
    figures,
  };
}
