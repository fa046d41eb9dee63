import type { SqlBuilder, SqlReader } from "./sql-reader.js";

/** What a person scans a session by (the store's `session_info`, migration 0010): its project and first prompt line. */
export interface SessionInfoFields {
  /** the host's working directory, redacted and bounded by the core; null when no host or transcript named it */
  project: string | null;
  /** the first line of the first prompt, redacted and bounded by the core; null when none was seen */
  firstPrompt: string | null;
}

/** the most projects the sessions list offers to narrow by (the most described sessions first) */
export const PROJECT_CHOICES = 50;

const NONE: SessionInfoFields = { project: null, firstPrompt: null };

/**
 * The descriptions of one page's sessions: a second query by session id (the page's own query stays as it is), so
 * it costs one indexed lookup per row shown. A session with no description gets nulls.
 */
export async function querySessionInfo(options: {
  reader: SqlReader;
  sessionIds: readonly string[];
}): Promise<Map<string, SessionInfoFields>> {
  const found = new Map<string, SessionInfoFields>();
  const ids = [...new Set(options.sessionIds)];
  if (ids.length === 0) return found;
  const marks = ids.map((_, index) => options.reader.placeholder(index + 1)).join(", ");
  const rows = await options.reader.all(
    `SELECT session_id, project, first_prompt FROM session_info WHERE session_id IN (${marks})`,
    ids,
  );
  for (const row of rows) {
    found.set(String(row.session_id), {
      project: row.project == null ? null : String(row.project),
      firstPrompt: row.first_prompt == null ? null : String(row.first_prompt),
    });
  }
  return found;
}

/** Each row with its session's project and first prompt line (nulls when the store has none). */
export async function withSessionInfo<Row extends { sessionId: string }>(options: {
  reader: SqlReader;
  rows: readonly Row[];
}): Promise<(Row & SessionInfoFields)[]> {
  const info = await querySessionInfo({ reader: options.reader, sessionIds: options.rows.map((row) => row.sessionId) });
  return options.rows.map((row) => ({ ...row, ...(info.get(row.sessionId) ?? NONE) }));
}

/** One session's description, or nulls. */
export async function sessionInfoOf(options: { reader: SqlReader; sessionId: string }): Promise<SessionInfoFields> {
  return (
    (await querySessionInfo({ reader: options.reader, sessionIds: [options.sessionId] })).get(options.sessionId) ?? NONE
  );
}

/**
 * The projects the sessions list offers, most described sessions first (at most PROJECT_CHOICES; ties by path).
 * Read from `session_info` alone, not the window: one grouped scan of a table with one row per session.
 */
export async function queryProjects(reader: SqlReader): Promise<string[]> {
  const rows = await reader.all(
    `SELECT project, count(*) AS n FROM session_info WHERE project IS NOT NULL GROUP BY project
     ORDER BY n DESC, project LIMIT ${PROJECT_CHOICES}`,
    [],
  );
  return rows.map((row) => String(row.project));
}

/**
 * The calls of `from` (a `callsFrom` FROM clause) narrowed to the sessions of one project (exact path), the value
 * bound through `builder` after the values `from` already bound (placeholders stay in text order); `from` itself
 * when no project is asked for.
 */
export function onlyProject(options: {
  from: string;
  project: string | undefined;
  builder: Pick<SqlBuilder, "value">;
}): string {
  if (options.project === undefined) return options.from;
  const project = options.builder.value(options.project);
  return `(SELECT * FROM ${options.from} WHERE session_id IN (SELECT session_id FROM session_info WHERE project = ${project})) AS project_calls`;
}

/** The ids of one project's sessions (exact path): what a list built without `onlyProject` is narrowed by. */
export async function projectSessionIds(reader: SqlReader, project: string): Promise<Set<string>> {
  const rows = await reader.all(`SELECT session_id FROM session_info WHERE project = ${reader.placeholder(1)}`, [
    project,
  ]);
  return new Set(rows.map((row) => String(row.session_id)));
}
