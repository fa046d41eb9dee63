import { SESSION_STATUSES, type SessionFigures, type SessionStatus, sessionFigures } from "../../core/figures.js";
import { compare } from "../../store/compute-report.js";
import { queryFigureFacts } from "../../store/figure-facts-sql.js";
import { fillCallCounts, SUMMARY_REST_LIMIT, summarySessions } from "../../store/session-summary-sql.js";
import { callsFromFilters, type DashboardFilters, reportCovers } from "./dashboard-filters.js";
import { onlyProject, projectSessionIds } from "./session-info-query.js";
import type { SqlReader } from "./sql-reader.js";
import { SqlBuilder } from "./sql-reader.js";

/** sorts the list offers: the SQL ones sort and page in the database; the figure ones after core/figures.ts */
export const SESSION_SORTS = {
  last: "last_at",
  first: "first_at",
  denials: "denials",
  session: "session_id",
  host: "coalesce(max(host), '')",
  status: null,
  loops: null,
  aborts: null,
  wasted: null,
  tokens: null,
} as const;
export type SessionSort = keyof typeof SESSION_SORTS;

/** how the list may be narrowed besides the dashboard's filters: a status, and at least so many of each figure */
export interface SessionListFilter {
  /** any of these statuses */
  status?: SessionStatus[];
  minDenials?: number;
  minLoops?: number;
  minAborts?: number;
  minWasted?: number;
  minTokens?: number;
  /** only the sessions of this project (session_info's exact path: session-info-query.ts) */
  project?: string;
}

export interface SessionRow {
  sessionId: string;
  host: string | null;
  parentSessionId: string | null;
  firstAt: number;
  lastAt: number;
  denials: number;
  tools: number;
  subagents: number;
  /** loops, waste, saved calls and status: core/figures.ts */
  loops: number;
  aborts: number;
  wastedCalls: number;
  wastedTokens: number | null;
  savedCalls: number;
  status: SessionStatus;
}

/**
 * One page of sessions with denials under the filters. Sorted by a column of the denials (last, first, denials,
 * session, host) and without a figure filter, the page is sorted and cut in SQL and the figures are read for its
 * sessions only; sorted or filtered by a figure (status, loops, aborts, wasted calls or tokens), every session of
 * the window gets its figures (the overview's own query) and the list is sorted and cut here. Ties by session id.
 * Both read the `denial_daily_calls` rollup for whole days (callsFromFilters).
 */
export async function querySessions(options: {
  reader: SqlReader;
  filters: DashboardFilters;
  sort: SessionSort;
  descending: boolean;
  page: number;
  pageSize: number;
  list?: SessionListFilter;
}): Promise<{ total: number; page: number; pageSize: number; rows: SessionRow[] }> {
  const { reader, filters } = options;
  const list = options.list ?? {};
  const column = SESSION_SORTS[options.sort];
  const byFigure =
    column === null || Object.entries(list).some(([key, value]) => key !== "minDenials" && key !== "project" && value);
  const direction = options.descending ? "DESC" : "ASC";
  const builder = new SqlBuilder(reader);
  const from = onlyProject({ from: callsFromFilters({ filters, builder, reader }), project: list.project, builder });
  const having = list.minDenials ? ` HAVING sum(n) >= ${builder.value(list.minDenials)}` : "";
  const select = `SELECT session_id, max(host) AS host, max(parent_session_id) AS parent, min(first_at) AS first_at,
      max(last_at) AS last_at, sum(n) AS denials, count(DISTINCT tool) AS tools, count(DISTINCT agent_id) AS subagents
     FROM ${from} GROUP BY session_id${having}`;
  if (!byFigure) {
    const limit = builder.value(options.pageSize);
    const offset = builder.value(options.page * options.pageSize);
    const countBuilder = new SqlBuilder(reader);
    const countFrom = onlyProject({
      from: callsFromFilters({ filters, builder: countBuilder, reader }),
      project: list.project,
      builder: countBuilder,
    });
    const countHaving = list.minDenials ? ` HAVING sum(n) >= ${countBuilder.value(list.minDenials)}` : "";
    const [rows, counted] = await Promise.all([
      reader.all(
        `${select} ORDER BY ${column} ${direction}, session_id ${direction} LIMIT ${limit} OFFSET ${offset}`,
        builder.params,
      ),
      reader.all(
        `SELECT count(*) AS n FROM (SELECT session_id FROM ${countFrom} GROUP BY session_id${countHaving}) AS s`,
        countBuilder.params,
      ),
    ]);
    const ids = rows.map((row) => String(row.session_id));
    const figures = await figuresOf({ reader, filters, sessionIds: ids });
    return {
      total: Number(counted[0]?.n ?? 0),
      page: options.page,
      pageSize: options.pageSize,
      rows: rows.map((row) => sessionRow(row, figures.get(String(row.session_id)))),
    };
  }
  // the per-session summary knows no project: the list is narrowed to the project's sessions here
  const [rows, inProject] = await Promise.all([
    figureRows({ reader, filters, select, params: builder.params, minDenials: list.minDenials }),
    list.project === undefined ? undefined : projectSessionIds(reader, list.project),
  ]);
  const all = rows.filter(
    (row) =>
      (inProject === undefined || inProject.has(row.sessionId)) &&
      (list.status === undefined || list.status.includes(row.status)) &&
      row.loops >= (list.minLoops ?? 0) &&
      row.aborts >= (list.minAborts ?? 0) &&
      row.wastedCalls >= (list.minWasted ?? 0) &&
      (row.wastedTokens ?? 0) >= (list.minTokens ?? 0),
  );
  const key = sortKey(options.sort);
  const sign = options.descending ? -1 : 1;
  all.sort((a, b) => {
    const x = key(a);
    const y = key(b);
    const order = typeof x === "number" && typeof y === "number" ? x - y : compare(String(x), String(y));
    return sign * (order || compare(a.sessionId, b.sessionId));
  });
  const start = options.page * options.pageSize;
  const page = all.slice(start, start + options.pageSize);
  await fillCallCounts(
    reader,
    page.filter((row) => summarized.has(row)),
  );
  return { total: all.length, page: options.page, pageSize: options.pageSize, rows: page };
}

/** the rows read from the per-session summary (their tools and subagents are added for the page shown) */
const summarized = new WeakSet<SessionRow>();

/**
 * Every session of the window with its figures, for a sort or filter by a figure. Without a tool filter, the
 * sessions wholly in the window (and wholly in or out of the host and label filters) come from the per-session
 * summary (summarySessions), the few others from their denials as before; with a tool filter, or more than
 * SUMMARY_REST_LIMIT others, every session from its denials.
 */
async function figureRows(options: {
  reader: SqlReader;
  filters: DashboardFilters;
  select: string;
  params: (string | number)[];
  minDenials: number | undefined;
}): Promise<SessionRow[]> {
  const { reader, filters } = options;
  const fromDenials = async (sessionIds?: string[]) => {
    if (sessionIds !== undefined && sessionIds.length === 0) return [];
    let select = options.select;
    const params = [...options.params];
    if (sessionIds !== undefined) {
      const builder = new SqlBuilder(reader);
      const from = callsFromFilters({ filters, builder, reader });
      const ids = sessionIds.map((id) => builder.value(id)).join(", ");
      const having = options.minDenials ? ` HAVING sum(n) >= ${builder.value(options.minDenials)}` : "";
      select = `SELECT session_id, max(host) AS host, max(parent_session_id) AS parent, min(first_at) AS first_at,
          max(last_at) AS last_at, sum(n) AS denials, count(DISTINCT tool) AS tools,
          count(DISTINCT agent_id) AS subagents
         FROM ${from} WHERE session_id IN (${ids}) GROUP BY session_id${having}`;
      params.splice(0, params.length, ...builder.params);
    }
    const [rows, figures] = await Promise.all([
      reader.all(select, params),
      figuresOf({ reader, filters, ...(sessionIds === undefined ? {} : { sessionIds }) }),
    ]);
    return rows.map((row) => sessionRow(row, figures.get(String(row.session_id))));
  };
  if (filters.tool !== undefined) return fromDenials();
  const summary = await summarySessions({ reader, filters });
  if (summary.rest.length > SUMMARY_REST_LIMIT) return fromDenials();
  const whole = summary.rows
    .filter((row) => row.denials >= (options.minDenials ?? 0))
    .map(
      // in SessionRow's order, so the JSON is the same whichever way a row was counted
      (row) =>
        ({
          sessionId: row.sessionId,
          host: row.host,
          parentSessionId: row.parentSessionId,
          firstAt: row.firstAt,
          lastAt: row.lastAt,
          denials: row.denials,
          tools: 0,
          subagents: 0,
          loops: row.loops,
          aborts: row.aborts,
          wastedCalls: row.wastedCalls,
          wastedTokens: row.wastedTokens,
          savedCalls: row.savedCalls,
          status: row.status,
        }) satisfies SessionRow,
    );
  for (const row of whole) summarized.add(row);
  return [...whole, ...(await fromDenials(summary.rest))];
}

/** a session's value for a sort; no recorded tokens sort below zero; statuses from clean to aborted */
function sortKey(sort: SessionSort): (row: SessionRow) => number | string {
  switch (sort) {
    case "last":
      return (row) => row.lastAt;
    case "first":
      return (row) => row.firstAt;
    case "denials":
      return (row) => row.denials;
    case "session":
      return (row) => row.sessionId;
    case "host":
      return (row) => row.host ?? "";
    case "status":
      return (row) => SESSION_STATUSES.indexOf(row.status);
    case "loops":
      return (row) => row.loops;
    case "aborts":
      return (row) => row.aborts;
    case "wasted":
      return (row) => row.wastedCalls;
    case "tokens":
      return (row) => row.wastedTokens ?? -1;
  }
}

/** loops, waste and status of the sessions (all of the window's, or the ids given) as core/figures.ts defines them */
/** One session's figures (core/figures.ts) over all its rows, whatever the filters: what its own page shows. */
export async function querySessionFigures(options: {
  reader: SqlReader;
  sessionId: string;
}): Promise<SessionFigureRow> {
  const figures = await figuresOf({ reader: options.reader, filters: { since: 0 }, sessionIds: [options.sessionId] });
  const found = figures.get(options.sessionId);
  return {
    status: found?.status ?? "clean",
    denials: found?.denials ?? 0,
    loops: found?.loops.length ?? 0,
    aborts: found?.aborts ?? 0,
    wastedCalls: found?.wastedCalls ?? 0,
    wastedTokens: found?.wastedTokens ?? null,
    savedCalls: found?.savedCalls ?? 0,
  };
}

/** a session's figures as the sessions list shows them */
export type SessionFigureRow = Pick<
  SessionRow,
  "status" | "denials" | "loops" | "aborts" | "wastedCalls" | "wastedTokens" | "savedCalls"
>;

async function figuresOf(options: { reader: SqlReader; filters: DashboardFilters; sessionIds?: string[] }) {
  const { reader, filters, sessionIds } = options;
  const figures = new Map<string, SessionFigures & { aborts: number }>();
  if (sessionIds !== undefined && sessionIds.length === 0) return figures;
  const events = new SqlBuilder(reader);
  const eventParts = [`at >= ${events.value(filters.since)}`];
  if (filters.until !== undefined) eventParts.push(`at < ${events.value(filters.until)}`);
  if (sessionIds !== undefined)
    eventParts.push(`session_id IN (${sessionIds.map((id) => events.value(id)).join(", ")})`);
  const facts = await queryFigureFacts({
    all: (sql, params) => reader.all(sql, params),
    placeholder: (index) => reader.placeholder(index),
    decodeJson: reader.decodeJson,
    denials: (add) => {
      const from = callsFromFilters({ filters, builder: { value: add }, reader });
      if (sessionIds === undefined) return from;
      return `${from} WHERE session_id IN (${sessionIds.map((id) => add(id)).join(", ")})`;
    },
    events: { where: `WHERE ${eventParts.join(" AND ")}`, params: events.params },
    // the events of sessions with a denial under the filters (the list shows no other session)
    eventsOfDeniedSessionsOnly: sessionIds === undefined && (!reportCovers(filters) || filters.tool !== undefined),
  });
  for (const session of facts) {
    const aborts = session.events.filter((event) => event.kind === "run.aborted").length;
    figures.set(session.sessionId, { ...sessionFigures(session), aborts });
  }
  return figures;
}

function sessionRow(row: Record<string, unknown>, figures: (SessionFigures & { aborts: number }) | undefined) {
  return {
    sessionId: String(row.session_id),
    host: row.host == null ? null : String(row.host),
    parentSessionId: row.parent == null ? null : String(row.parent),
    firstAt: Number(row.first_at),
    lastAt: Number(row.last_at),
    denials: Number(row.denials),
    tools: Number(row.tools),
    subagents: Number(row.subagents),
    loops: figures?.loops.length ?? 0,
    aborts: figures?.aborts ?? 0,
    wastedCalls: figures?.wastedCalls ?? 0,
    wastedTokens: figures?.wastedTokens ?? null,
    savedCalls: figures?.savedCalls ?? 0,
    status: figures?.status ?? "clean",
  } satisfies SessionRow;
}
