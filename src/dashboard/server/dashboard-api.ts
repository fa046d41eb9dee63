import { ToolgateError } from "../../core/errors.js";
import { SESSION_STATUSES, type SessionStatus } from "../../core/figures.js";
import type { DenialStore } from "../../store/ports.js";
import { EXPORT_TABLES, type ExportRecord, exportFile, exportRecords, isExportTable } from "../export-tables.js";
import { parseDashboardFilters } from "./dashboard-filters.js";
import { queryFilterOptions } from "./filter-options-query.js";
import { queryOverview } from "./overview-query.js";
import { queryPolicy } from "./policy-query.js";
import { queryProjects, sessionInfoOf, withSessionInfo } from "./session-info-query.js";
import { querySessionTimeline } from "./session-timeline-query.js";
import {
  querySessionFigures,
  querySessions,
  SESSION_SORTS,
  type SessionListFilter,
  type SessionSort,
} from "./sessions-query.js";
import type { SqlReader } from "./sql-reader.js";

export interface DashboardData {
  reader: SqlReader;
  /** the store's denial port: its `report` is the one `toolgate report` prints */
  denials: Pick<DenialStore, "report">;
  /** the window when the URL names none (`30d`) */
  defaultSince: string;
  /** the configured redaction, applied to suggested rules */
  redactText: (text: string) => string;
  /**
   * whether the configured policy lets an allow rule grant this call (false: a deny rule in the settings still wins,
   * so no allow rule is suggested for it); absent, only the stored denials say whether a deny rule refused a call
   */
  canGrant?: (call: { tool: string; input: unknown }) => boolean;
  now?: () => number;
}

export const SESSIONS_PAGE_SIZE = 50;
const TOP = 10;
/** the longest overview lists a page may ask for (`top=`, the overview's "see all") */
export const OVERVIEW_TOP_MAX = 500;
const POLICY_TOP = 50;

/**
 * Every JSON endpoint of the dashboard, as one function of a path and its query, so the server and the
 * self-contained HTML report (`toolgate analyze --html`) answer the same requests the same way. Unknown paths
 * return undefined; bad parameters throw INPUT_INVALID.
 */
export async function answerApi(
  data: DashboardData,
  request: {
    path: string;
    query: URLSearchParams;
    /** rows per page of the sessions table: larger for an export (`SESSIONS_PAGE_SIZE` otherwise) */
    sessionsPageSize?: number;
  },
): Promise<unknown> {
  const { path, query } = request;
  const now = (data.now ?? Date.now)();
  const filters = () => parseDashboardFilters(query, { now, defaultSince: data.defaultSince });
  switch (path) {
    case "/api/overview":
      return {
        window: windowOf(filters(), now),
        ...(await queryOverview({ ...data, filters: filters(), top: overviewTop(query) })),
      };
    case "/api/filters":
      return queryFilterOptions({ reader: data.reader, since: filters().since });
    case "/api/sessions": {
      const sort = query.get("sort") || "last";
      if (!Object.hasOwn(SESSION_SORTS, sort))
        throw invalid(`sort takes one of ${Object.keys(SESSION_SORTS).join(", ")} (got "${sort}").`);
      const dir = query.get("dir") || "desc";
      if (dir !== "asc" && dir !== "desc") throw invalid(`dir takes asc or desc (got "${dir}").`);
      const page = Number(query.get("page") || "0");
      if (!Number.isInteger(page) || page < 0 || page > 100_000) throw invalid("page takes a whole number from 0.");
      const list = sessionListFilter(query);
      const pageSize = request.sessionsPageSize ?? SESSIONS_PAGE_SIZE;
      const ask = (wanted: number) =>
        querySessions({
          reader: data.reader,
          filters: filters(),
          sort: sort as SessionSort,
          descending: dir === "desc",
          page: wanted,
          list,
          pageSize,
        });
      const first = await ask(page);
      // a page past the last (`page=99` of 2) answers the last page, which says which page it is
      const last = Math.max(0, Math.ceil(first.total / pageSize) - 1);
      const answer = first.rows.length === 0 && page > last ? await ask(last) : first;
      // each row's project and first prompt line, and the projects to narrow by: two small queries of session_info
      const [rows, projects] = await Promise.all([
        withSessionInfo({ reader: data.reader, rows: answer.rows }),
        request.sessionsPageSize === undefined ? queryProjects(data.reader) : Promise.resolve(undefined),
      ]);
      return { ...answer, rows, ...(projects === undefined ? {} : { projects }) };
    }
    case "/api/session": {
      const id = query.get("id");
      if (!id) throw invalid("session takes id=<session id>.");
      const [timeline, info, figures] = await Promise.all([
        querySessionTimeline({ reader: data.reader, sessionId: id }),
        sessionInfoOf({ reader: data.reader, sessionId: id }),
        querySessionFigures({ reader: data.reader, sessionId: id }),
      ]);
      return { ...timeline, ...info, figures };
    }
    case "/api/policy":
      return queryPolicy({
        reader: data.reader,
        denials: data.denials,
        filters: filters(),
        top: POLICY_TOP,
        redactText: data.redactText,
        now,
        ...(data.canGrant === undefined ? {} : { canGrant: data.canGrant }),
      });
    default:
      return undefined;
  }
}

/** the most rows one export of the sessions table holds */
export const EXPORT_SESSIONS_LIMIT = 100_000;
const EXPORT_PAGE_SIZE = 5_000;

/**
 * One table of the dashboard as a file (`/api/export?table=...&format=csv|json` and the view's filters): every row
 * of the table under the filters (the sessions table: every page, up to 100,000 sessions, in the view's sort).
 * The live table is the page's own list: the server has no export of it.
 */
export async function answerExport(data: DashboardData, query: URLSearchParams) {
  const table = query.get("table") ?? "";
  const format = query.get("format") ?? "csv";
  if (!isExportTable(table) || table === "live")
    throw invalid(
      `table takes one of ${Object.keys(EXPORT_TABLES)
        .filter((name) => name !== "live")
        .join(", ")}.`,
    );
  if (format !== "csv" && format !== "json") throw invalid("format takes csv or json.");
  const { path } = EXPORT_TABLES[table];
  const rest = new URLSearchParams(query);
  for (const key of ["table", "format", "page"]) rest.delete(key);
  let records: ExportRecord[];
  if (table === "sessions") {
    records = [];
    for (let page = 0; records.length < EXPORT_SESSIONS_LIMIT; page += 1) {
      rest.set("page", String(page));
      const answer = (await answerApi(data, { path, query: rest, sessionsPageSize: EXPORT_PAGE_SIZE })) as {
        page: number;
        rows: unknown[];
      };
      if (answer.page !== page) break;
      records.push(...exportRecords(table, answer));
      if (answer.rows.length < EXPORT_PAGE_SIZE) break;
    }
    records = records.slice(0, EXPORT_SESSIONS_LIMIT);
  } else {
    records = exportRecords(table, await answerApi(data, { path, query: rest }));
  }
  const now = (data.now ?? Date.now)();
  return exportFile({ table, format, records, day: new Date(now).toISOString().slice(0, 10) });
}

function windowOf(filters: ReturnType<typeof parseDashboardFilters>, now: number) {
  return {
    since: new Date(filters.since).toISOString(),
    until: filters.until === undefined ? null : new Date(filters.until).toISOString(),
    /** where the window ends: `until`, or the time of the answer (the chart's axis runs from `since` to here) */
    end: new Date(filters.until ?? now).toISOString(),
    tool: filters.tool ?? null,
    host: filters.host ?? null,
    label: filters.label === undefined ? null : `${filters.label.key}:${filters.label.value}`,
  };
}

/** `top`: rows per overview list, 10 unless the page asks for all of them (up to OVERVIEW_TOP_MAX) */
function overviewTop(query: URLSearchParams): number {
  const text = query.get("top");
  if (!text) return TOP;
  const value = Number(text);
  if (!/^\d{1,4}$/.test(text) || value < 1 || value > OVERVIEW_TOP_MAX)
    throw invalid(`top takes a whole number from 1 to ${OVERVIEW_TOP_MAX} (got "${text}").`);
  return value;
}

/**
 * the sessions list's own narrowing: `status` (one or more), `project` (a session's exact project path), and
 * `min_denials`, `min_loops`, `min_aborts`, `min_wasted`, `min_tokens`
 */
function sessionListFilter(query: URLSearchParams): SessionListFilter {
  const list: SessionListFilter = {};
  const project = query.get("project");
  if (project) list.project = project;
  const status = query.get("status");
  if (status) {
    // one status or several, comma-separated (`looped,aborted`)
    const statuses = status.split(",");
    for (const entry of statuses) {
      if (!(SESSION_STATUSES as readonly string[]).includes(entry))
        throw invalid(`status takes one or more of ${SESSION_STATUSES.join(", ")}, comma-separated (got "${status}").`);
    }
    list.status = statuses as SessionStatus[];
  }
  for (const [name, key] of SESSION_MINIMUMS) {
    const text = query.get(name);
    if (!text) continue;
    const value = Number(text);
    if (!/^\d{1,12}$/.test(text) || !Number.isSafeInteger(value))
      throw invalid(`${name} takes a whole number from 0 (got "${text}").`);
    list[key] = value;
  }
  return list;
}

const SESSION_MINIMUMS = [
  ["min_denials", "minDenials"],
  ["min_loops", "minLoops"],
  ["min_aborts", "minAborts"],
  ["min_wasted", "minWasted"],
  ["min_tokens", "minTokens"],
] as const satisfies readonly (readonly [string, keyof SessionListFilter])[];

function invalid(message: string): ToolgateError {
  return new ToolgateError({ code: "INPUT_INVALID", message });
}
