import type { AuditEvent, DenialRecord } from "../../core/records.js";
import {
  DENIAL_COLUMNS,
  denialRowValues,
  EVENT_COLUMNS,
  eventRowValues,
  parseJson,
  rowToDenial,
  rowToEvent,
} from "../denial-row.js";
import type { DenialQuery, DenialReport, DenialStore, ReportQuery } from "../ports.js";
import { INCIDENT_KINDS, whereClause } from "../report-sql.js";
import type { SqliteDriver } from "./driver.js";

const CHUNK = 500;
const insertDenial = `INSERT OR IGNORE INTO denials (${DENIAL_COLUMNS.join(", ")}) VALUES (${DENIAL_COLUMNS.map(() => "?").join(", ")})`;
const insertEvent = `INSERT INTO audit_events (${EVENT_COLUMNS.join(", ")}) VALUES (${EVENT_COLUMNS.map(() => "?").join(", ")})`;
const placeholder = () => "?";

/** DenialStore over a SQLite driver: prepared statements, one transaction per batch. */
export function createSqliteDenialStore(options: {
  driver: SqliteDriver;
  /** wraps each write in the store's lock retry */
  write: <T>(operation: () => T) => Promise<T>;
}): DenialStore {
  const { driver, write } = options;
  const all = (sql: string, params: (string | number)[]) => driver.prepare(sql).all(...params);
  return {
    async append(records: readonly DenialRecord[]) {
      if (records.length === 0) return;
      const rows = records.map(denialRowValues);
      await write(() =>
        driver.transaction(
          () => {
            const statement = driver.prepare(insertDenial);
            for (const row of rows) statement.run(...row);
          },
          { immediate: true },
        ),
      );
    },
    async appendEvents(events: readonly AuditEvent[]) {
      if (events.length === 0) return;
      const rows = events.map(eventRowValues);
      await write(() =>
        driver.transaction(
          () => {
            const statement = driver.prepare(insertEvent);
            for (const row of rows) statement.run(...row);
          },
          { immediate: true },
        ),
      );
    },
    async query(query: DenialQuery = {}) {
      const where = whereClause({ query, placeholder, extra: { afterId: query.afterId } });
      const limit = query.limit === undefined ? "" : ` LIMIT ${Math.floor(query.limit)}`;
      const order = query.order === "desc" ? "DESC" : "ASC";
      return all(`SELECT * FROM denials ${where.sql} ORDER BY id ${order}${limit}`, where.params).map((row) => rowToDenial(row));
    },
    async queryEvents(query: DenialQuery & { kinds?: readonly string[] } = {}) {
      const where = whereClause({ query, placeholder, extra: { afterId: query.afterId } });
      let sql = where.sql;
      const params = [...where.params];
      if (query.kinds) {
        sql += `${sql ? " AND" : "WHERE"} kind IN (${query.kinds.map(() => "?").join(", ") || "NULL"})`;
        params.push(...query.kinds);
      }
      const limit = query.limit === undefined ? "" : ` LIMIT ${Math.floor(query.limit)}`;
      const order = query.order === "desc" ? "DESC" : "ASC";
      return all(`SELECT * FROM audit_events ${sql} ORDER BY id ${order}${limit}`, params).map((row) => rowToEvent(row));
    },
    async report(query: ReportQuery = {}) {
      return sqliteReport({ all, query });
    },
    async scrub(redact) {
      let changed = 0;
      let afterId = 0;
      for (;;) {
        const rows = all("SELECT * FROM denials WHERE id > ? ORDER BY id LIMIT ?", [afterId, CHUNK]);
        if (rows.length === 0) return changed;
        afterId = Number(rows.at(-1)!.id);
        const updates: { id: number; values: (string | number | null)[] }[] = [];
        for (const row of rows) {
          const { id, ...record } = rowToDenial(row);
          const before = denialRowValues(record);
          const after = denialRowValues(redact(record));
          if (JSON.stringify(before) !== JSON.stringify(after)) updates.push({ id, values: after });
        }
        if (updates.length === 0) continue;
        const sets = DENIAL_COLUMNS.map((column) => `${column} = ?`).join(", ");
        await write(() =>
          driver.transaction(
            () => {
              for (const update of updates)
                driver.prepare(`UPDATE denials SET ${sets} WHERE id = ?`).run(...update.values, update.id);
            },
            { immediate: true },
          ),
        );
        changed += updates.length;
      }
    },
    async prune(before: number) {
      return write(() =>
        driver.transaction(
          () => ({
            denials: driver.prepare("DELETE FROM denials WHERE at < ?").run(before).changes,
            events: driver.prepare("DELETE FROM audit_events WHERE at < ?").run(before).changes,
          }),
          { immediate: true },
        ),
      );
    },
    async close() {},
  };
}

function sqliteReport(options: {
  all: (sql: string, params: (string | number)[]) => Record<string, unknown>[];
  query: ReportQuery;
}): DenialReport {
  const { all, query } = options;
  const top = Math.floor(query.top ?? 10);
  const where = whereClause({ query, placeholder });
  const totals = all(`SELECT count(*) AS total, count(DISTINCT session_id) AS sessions FROM denials ${where.sql}`, where.params)[0]!;
  const topTools = all(
    `SELECT tool, count(*) AS count FROM denials ${where.sql} GROUP BY tool ORDER BY count DESC, tool LIMIT ${top}`,
    where.params,
  ).map((row) => ({ tool: String(row.tool), count: Number(row.count) }));
  const signatureRows = all(
    `SELECT signature, count(*) AS count, min(id) AS first_id FROM denials ${where.sql} GROUP BY signature ORDER BY count DESC, signature LIMIT ${top}`,
    where.params,
  );
  const topSignatures = signatureRows.map((row) => {
    const sample = all("SELECT tool, input_summary, tool_input FROM denials WHERE id = ?", [Number(row.first_id)])[0]!;
    return {
      tool: String(sample.tool),
      signature: String(row.signature),
      count: Number(row.count),
      sample: { inputSummary: String(sample.input_summary), input: parseJson(sample.tool_input) },
    };
  });
  const perDay = all(`SELECT day, count(*) AS count FROM denials ${where.sql} GROUP BY day ORDER BY day`, where.params).map(
    (row) => ({ day: String(row.day), count: Number(row.count) }),
  );
  const eventWhere = whereClause({ query: { ...query, tool: undefined }, placeholder });
  const incidentRows = all(
    `SELECT session_id, sum(CASE WHEN kind = ? THEN 1 ELSE 0 END) AS loops, sum(CASE WHEN kind = ? THEN 1 ELSE 0 END) AS aborts
     FROM audit_events ${eventWhere.sql ? `${eventWhere.sql} AND` : "WHERE"} kind IN (?, ?)
     GROUP BY session_id ORDER BY loops + aborts DESC, session_id LIMIT ${top}`,
    [INCIDENT_KINDS[0], INCIDENT_KINDS[1], ...eventWhere.params, ...INCIDENT_KINDS],
  );
  const incidents = incidentRows.map((row) => {
    const sessionWhere = whereClause({ query: { ...query, sessionId: String(row.session_id) }, placeholder });
    const denials = all(`SELECT count(*) AS count FROM denials ${sessionWhere.sql}`, sessionWhere.params)[0]!;
    return {
      sessionId: String(row.session_id),
      loops: Number(row.loops),
      aborts: Number(row.aborts),
      denials: Number(denials.count),
    };
  });
  return { total: Number(totals.total), sessions: Number(totals.sessions), topTools, topSignatures, perDay, incidents };
}
