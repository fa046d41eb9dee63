import type { DenialRecord } from "../../core/records.js";
import { utcDay } from "../compute-report.js";
import {
  CANONICAL_TOOL_COLUMN,
  DAY_COLUMN,
  DENIAL_COLUMNS,
  denialRowValues,
  EVENT_COLUMNS,
  eventRowValues,
  parseJson,
  rowToDenial,
  rowToEvent,
} from "../denial-row.js";
import type { DenialQuery, DenialStore, KeyedAuditEvent, ReportQuery, SessionIdQuery } from "../ports.js";
import { whereClause } from "../report-sql.js";
import {
  rowToSessionInfo,
  scrubbedSessionInfo,
  selectSessionInfoSql,
  splitSessionInfo,
  upsertSessionInfoSql,
} from "../session-info-row.js";
import { sqlReport } from "../sql-report.js";
import { tally } from "../tally.js";
import type { SqliteDriver } from "./driver.js";

const CHUNK = 500;
/** a record whose identity (session_id, seq, at, tool_use_id) is stored already is a replay: skipped */
const insertDenial = `INSERT INTO denials (${DENIAL_COLUMNS.join(", ")}) VALUES (${DENIAL_COLUMNS.map(() => "?").join(", ")}) ON CONFLICT DO NOTHING`;
/** an event whose event_key is stored already is a replay: skipped (NULL keys never conflict) */
const insertEvent = `INSERT INTO audit_events (${EVENT_COLUMNS.join(", ")}) VALUES (${EVENT_COLUMNS.map(() => "?").join(", ")}) ON CONFLICT DO NOTHING`;
const placeholder = () => "?";
const upsertDaily = `INSERT INTO denial_daily (day, tool, signature, total, first_id, canonical_tool) VALUES (?, ?, ?, ?, ?, ?)
  ON CONFLICT (day, tool, signature) DO UPDATE SET total = total + excluded.total, first_id = min(first_id, excluded.first_id)`;
const upsertDailySessions = `INSERT INTO denial_daily_sessions (day, tool, session_id, total, canonical_tool) VALUES (?, ?, ?, ?, ?)
  ON CONFLICT (day, tool, session_id) DO UPDATE SET total = total + excluded.total`;
const DAY = 86_400_000;
const upsertSessionInfo = upsertSessionInfoSql({ placeholders: ["?", "?", "?", "?"], least: "min" });

/** DenialStore over a SQLite driver: prepared statements, one transaction per batch. */
/** substr/length count characters, so a prefix is compared whole; BINARY collation orders by UTF-8 bytes */
const SESSION_IDS_SQL =
  "SELECT session_id FROM denials WHERE substr(session_id, 1, length(?)) = ? " +
  "UNION SELECT session_id FROM audit_events WHERE substr(session_id, 1, length(?)) = ? ORDER BY 1 LIMIT ?";

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
            const daily = new Map<string, { day: string; tool: string; key: string; total: number; firstId: number }>();
            const sessions = new Map<
              string,
              { day: string; tool: string; key: string; total: number; firstId: number }
            >();
            /** raw tool -> canonical tool of the inserted rows (a function of the tool: one per name) */
            const canonical = new Map<string, string>();
            for (const [index, row] of rows.entries()) {
              const result = statement.run(...row);
              if (result.changes === 0) continue; // already stored (a replay)
              const record = records[index]!;
              const day = row[DAY_COLUMN] as string;
              const id = Number(result.lastInsertRowid);
              canonical.set(record.tool, row[CANONICAL_TOOL_COLUMN] as string);
              tally(daily, { day, tool: record.tool, key: record.signature, id });
              tally(sessions, { day, tool: record.tool, key: record.sessionId, id });
            }
            const dailyStatement = driver.prepare(upsertDaily);
            for (const entry of daily.values())
              dailyStatement.run(
                entry.day,
                entry.tool,
                entry.key,
                entry.total,
                entry.firstId,
                canonical.get(entry.tool) as string,
              );
            const sessionStatement = driver.prepare(upsertDailySessions);
            for (const entry of sessions.values())
              sessionStatement.run(entry.day, entry.tool, entry.key, entry.total, canonical.get(entry.tool) as string);
          },
          { immediate: true },
        ),
      );
    },
    async appendEvents(all: readonly KeyedAuditEvent[]) {
      if (all.length === 0) return;
      const { events, infos } = splitSessionInfo(all);
      const rows = events.map(eventRowValues);
      await write(() =>
        driver.transaction(
          () => {
            const statement = driver.prepare(insertEvent);
            for (const row of rows) statement.run(...row);
            if (infos.length === 0) return;
            const upsert = driver.prepare(upsertSessionInfo);
            for (const info of infos) upsert.run(info.sessionId, info.project, info.firstPrompt, info.at);
          },
          { immediate: true },
        ),
      );
    },
    async query(query: DenialQuery = {}) {
      const where = whereClause({ query, placeholder, extra: { afterId: query.afterId } });
      const limit = query.limit === undefined ? "" : ` LIMIT ${Math.floor(query.limit)}`;
      const order = query.order === "desc" ? "DESC" : "ASC";
      return all(`SELECT * FROM denials ${where.sql} ORDER BY id ${order}${limit}`, where.params).map((row) =>
        rowToDenial(row),
      );
    },
    async queryEvents(query: DenialQuery & { kinds?: readonly string[] } = {}) {
      const where = whereClause({ query, placeholder, extra: { afterId: query.afterId }, table: "audit_events" });
      let sql = where.sql;
      const params = [...where.params];
      if (query.kinds) {
        sql += `${sql ? " AND" : "WHERE"} kind IN (${query.kinds.map(() => "?").join(", ") || "NULL"})`;
        params.push(...query.kinds);
      }
      const limit = query.limit === undefined ? "" : ` LIMIT ${Math.floor(query.limit)}`;
      const order = query.order === "desc" ? "DESC" : "ASC";
      return all(`SELECT * FROM audit_events ${sql} ORDER BY id ${order}${limit}`, params).map((row) =>
        rowToEvent(row),
      );
    },
    async report(query: ReportQuery = {}) {
      return sqlReport({ all: async (sql, params) => all(sql, params), placeholder, decodeJson: parseJson, query });
    },
    async sessionIds(query: SessionIdQuery) {
      const limit = Math.max(0, Math.floor(query.limit));
      return all(SESSION_IDS_SQL, [query.prefix, query.prefix, query.prefix, query.prefix, limit]).map((row) =>
        String(row.session_id),
      );
    },
    async sessionInfo(sessionIds: readonly string[]) {
      const ids = [...new Set(sessionIds)];
      if (ids.length === 0) return [];
      // at most 500 ids per statement (SQLite's parameter limit is far above)
      const rows = [];
      for (let start = 0; start < ids.length; start += CHUNK) {
        const chunk = ids.slice(start, start + CHUNK);
        rows.push(...all(selectSessionInfoSql(chunk.length, placeholder), chunk));
      }
      return rows.map(rowToSessionInfo).sort((a, b) => (a.sessionId < b.sessionId ? -1 : 1));
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
    async scrubSessionInfo(redactText) {
      let changed = 0;
      let after = "";
      for (;;) {
        const rows = all("SELECT * FROM session_info WHERE session_id > ? ORDER BY session_id LIMIT ?", [after, CHUNK]);
        if (rows.length === 0) return changed;
        after = String(rows.at(-1)!.session_id);
        const updates = rows.flatMap((row) => scrubbedSessionInfo(rowToSessionInfo(row), redactText) ?? []);
        if (updates.length === 0) continue;
        await write(() =>
          driver.transaction(
            () => {
              const update = driver.prepare(
                "UPDATE session_info SET project = ?, first_prompt = ? WHERE session_id = ?",
              );
              for (const info of updates) update.run(info.project, info.firstPrompt, info.sessionId);
            },
            { immediate: true },
          ),
        );
        changed += updates.length;
      }
    },
    async prune(before: number) {
      const day = utcDay(before);
      const dayStart = Math.floor(before / DAY) * DAY;
      return write(() =>
        driver.transaction(
          () => {
            const denials = driver.prepare("DELETE FROM denials WHERE at < ?").run(before).changes;
            const events = driver.prepare("DELETE FROM audit_events WHERE at < ?").run(before).changes;
            driver.prepare("DELETE FROM session_info WHERE at < ?").run(before);
            // Rollups: whole days before the cut go; the cut's own day is recounted from the rows left.
            for (const table of ["denial_daily", "denial_daily_sessions"])
              driver.prepare(`DELETE FROM ${table} WHERE day <= ?`).run(day);
            driver
              .prepare(
                "INSERT INTO denial_daily (day, tool, signature, total, first_id, canonical_tool) SELECT day, tool, signature, count(*), min(id), min(canonical_tool) FROM denials WHERE at >= ? AND at < ? GROUP BY day, tool, signature",
              )
              .run(dayStart, dayStart + DAY);
            driver
              .prepare(
                "INSERT INTO denial_daily_sessions (day, tool, session_id, total, canonical_tool) SELECT day, tool, session_id, count(*), min(canonical_tool) FROM denials WHERE at >= ? AND at < ? GROUP BY day, tool, session_id",
              )
              .run(dayStart, dayStart + DAY);
            return { denials, events };
          },
          { immediate: true },
        ),
      );
    },
    async close() {},
  };
}
