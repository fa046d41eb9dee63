import type { AuditEvent } from "../core/records.js";

/** A session's project and first prompt line as stored (core/session-info.ts made both: redacted, bounded). */
export interface StoredSessionInfo {
  sessionId: string;
  project: string | null;
  firstPrompt: string | null;
  /** epoch ms when the session was first described */
  at: number;
}

/** The `session_info` row a `session.info` audit event describes; undefined for any other event, or an empty one. */
export function sessionInfoRow(event: AuditEvent): StoredSessionInfo | undefined {
  if (event.kind !== "session.info") return undefined;
  const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);
  const project = text(event.detail["project"]);
  const firstPrompt = text(event.detail["firstPrompt"]);
  if (project === null && firstPrompt === null) return undefined;
  return { sessionId: event.sessionId, project, firstPrompt, at: event.at };
}

/** Splits a batch: `session.info` events become session_info rows (stored there only), the rest stay events. */
export function splitSessionInfo<E extends AuditEvent>(
  events: readonly E[],
): { events: E[]; infos: StoredSessionInfo[] } {
  const rest: E[] = [];
  const infos: StoredSessionInfo[] = [];
  for (const event of events) {
    if (event.kind !== "session.info") {
      rest.push(event);
      continue;
    }
    const info = sessionInfoRow(event);
    if (info !== undefined) infos.push(info);
  }
  return { events: rest, infos };
}

/** A stored description with `redactText` applied to its texts, or undefined when nothing changes. */
export function scrubbedSessionInfo(
  info: StoredSessionInfo,
  redactText: (text: string) => string,
): StoredSessionInfo | undefined {
  const project = info.project === null ? null : redactText(info.project);
  const firstPrompt = info.firstPrompt === null ? null : redactText(info.firstPrompt);
  if (project === info.project && firstPrompt === info.firstPrompt) return undefined;
  return { ...info, project, firstPrompt };
}

/** Merges a later description into the stored one: the first value of each fact wins, the earliest `at` stays. */
export function mergeSessionInfo(stored: StoredSessionInfo | undefined, next: StoredSessionInfo): StoredSessionInfo {
  if (stored === undefined) return next;
  return {
    sessionId: stored.sessionId,
    project: stored.project ?? next.project,
    firstPrompt: stored.firstPrompt ?? next.firstPrompt,
    at: Math.min(stored.at, next.at),
  };
}

/** Upsert with the same merge as mergeSessionInfo (`least` is `min` on SQLite, `LEAST` on Postgres). */
export function upsertSessionInfoSql(options: {
  placeholders: [string, string, string, string];
  least: string;
}): string {
  const [id, project, prompt, at] = options.placeholders;
  return `INSERT INTO session_info (session_id, project, first_prompt, at) VALUES (${id}, ${project}, ${prompt}, ${at})
  ON CONFLICT (session_id) DO UPDATE SET project = coalesce(session_info.project, excluded.project),
  first_prompt = coalesce(session_info.first_prompt, excluded.first_prompt), at = ${options.least}(session_info.at, excluded.at)`;
}

/** The stored descriptions of some sessions (the ones stored), with placeholders `mark(1..n)`. */
export function selectSessionInfoSql(count: number, mark: (index: number) => string): string {
  const list = Array.from({ length: count }, (_, index) => mark(index + 1)).join(", ");
  return `SELECT session_id, project, first_prompt, at FROM session_info WHERE session_id IN (${list}) ORDER BY session_id`;
}

export function rowToSessionInfo(row: Record<string, unknown>): StoredSessionInfo {
  return {
    sessionId: String(row.session_id),
    project: row.project == null ? null : String(row.project),
    firstPrompt: row.first_prompt == null ? null : String(row.first_prompt),
    at: Number(row.at),
  };
}
