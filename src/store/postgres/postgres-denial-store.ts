import type { Pool } from "pg";
import type { DenialRecord } from "../../core/records.js";
import { utcDay } from "../compute-report.js";
import {
  DENIAL_COLUMNS,
  type DenialRowValues,
  denialRowValues,
  EVENT_COLUMNS,
  eventRowValues,
  parsedJson,
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
import { postgresSafe } from "./postgres-safe.js";

const DENIAL_TYPES = [
  "text",
  "int",
  "text",
  "text",
  "int",
  "text",
  "text",
  "text",
  "text",
  "text",
  "text",
  "text",
  "text",
  "text",
  "jsonb",
  "bigint",
  "text",
  "text",
  "text",
  "jsonb",
  "text",
  "text",
];
const EVENT_TYPES = ["text", "text", "text", "int", "bigint", "text", "text", "jsonb", "text"];
const CHUNK = 500;
const DAY = 86_400_000;

/** `INSERT ... SELECT * FROM unnest($1::text[], ...)`: one statement per batch, one array per column. */
function unnestInsert(table: string, columns: readonly string[], types: string[], conflict: string): string {
  const arrays = types.map((type, index) => `$${index + 1}::${type}[]`).join(", ");
  return `INSERT INTO ${table} (${columns.join(", ")}) SELECT * FROM unnest(${arrays}) ${conflict}`;
}
/**
 * one statement: insert the batch (a record whose identity (session_id, seq, at, tool_use_id) is stored already is a
 * replay and skipped; see migration 0003), then add what was really inserted to the daily rollups
 */
const insertDenials = `WITH inserted AS (
  ${unnestInsert("denials", DENIAL_COLUMNS, DENIAL_TYPES, "ON CONFLICT (md5(session_id), seq, at, md5(tool_use_id)) DO NOTHING RETURNING id, day, tool, signature, session_id, canonical_tool")}
), daily AS (
  INSERT INTO denial_daily (day, tool, signature, total, first_id, canonical_tool)
  SELECT day, tool, signature, count(*), min(id), min(canonical_tool) FROM inserted GROUP BY day, tool, signature
  ORDER BY day, tool, signature
  ON CONFLICT (day, tool, signature) DO UPDATE
    SET total = denial_daily.total + excluded.total, first_id = LEAST(denial_daily.first_id, excluded.first_id)
)
INSERT INTO denial_daily_sessions (day, tool, session_id, total, canonical_tool)
SELECT day, tool, session_id, count(*), min(canonical_tool) FROM inserted GROUP BY day, tool, session_id
ORDER BY day, tool, session_id
ON CONFLICT (day, tool, session_id) DO UPDATE SET total = denial_daily_sessions.total + excluded.total`;
/** an event whose event_key is stored already is a replay: skipped (NULL keys never conflict) */
const insertEvents = unnestInsert("audit_events", EVENT_COLUMNS, EVENT_TYPES, "ON CONFLICT (event_key) DO NOTHING");

function columnArrays(rows: DenialRowValues[], width: number): unknown[][] {
  const arrays: unknown[][] = Array.from({ length: width }, () => []);
  for (const row of rows) for (let column = 0; column < width; column++) arrays[column]!.push(row[column]);
  return arrays;
}

const placeholder = (index: number) => `$${index}`;
const upsertSessionInfo = upsertSessionInfoSql({ placeholders: ["$1", "$2", "$3", "$4"], least: "LEAST" });

export function createPostgresDenialStore(options: { pool: Pool }): DenialStore {
  const { pool } = options;
  return {
    async append(records: readonly DenialRecord[]) {
      if (records.length === 0) return;
      const rows = records.map((record) => denialRowValues(postgresSafe(record)));
      await pool.query(insertDenials, columnArrays(rows, DENIAL_COLUMNS.length));
    },
    async appendEvents(all: readonly KeyedAuditEvent[]) {
      const { events, infos } = splitSessionInfo(all);
      for (const info of infos) {
        const safe = postgresSafe(info);
        await pool.query(upsertSessionInfo, [safe.sessionId, safe.project, safe.firstPrompt, safe.at]);
      }
      if (events.length === 0) return;
      const rows = events.map((event) => eventRowValues(postgresSafe(event)));
      await pool.query(insertEvents, columnArrays(rows, EVENT_COLUMNS.length));
    },
    async sessionInfo(sessionIds: readonly string[]) {
      const ids = [...new Set(sessionIds)].map((id) => postgresSafe(id));
      if (ids.length === 0) return [];
      const result = await pool.query(`${selectSessionInfoSql(ids.length, placeholder)} COLLATE "C"`, ids);
      return result.rows.map(rowToSessionInfo);
    },
    async query(query: DenialQuery = {}) {
      const where = whereClause({ query, placeholder, extra: { afterId: query.afterId } });
      const limit = query.limit === undefined ? "" : ` LIMIT ${Math.floor(query.limit)}`;
      const order = query.order === "desc" ? "DESC" : "ASC";
      const result = await pool.query(`SELECT * FROM denials ${where.sql} ORDER BY id ${order}${limit}`, where.params);
      return result.rows.map((row) => rowToDenial(row, parsedJson));
    },
    async queryEvents(query: DenialQuery & { kinds?: readonly string[] } = {}) {
      const where = whereClause({ query, placeholder, extra: { afterId: query.afterId }, table: "audit_events" });
      let sql = where.sql;
      const params: unknown[] = [...where.params];
      if (query.kinds) {
        params.push([...query.kinds]);
        sql += `${sql ? " AND" : "WHERE"} kind = ANY($${params.length}::text[])`;
      }
      const limit = query.limit === undefined ? "" : ` LIMIT ${Math.floor(query.limit)}`;
      const order = query.order === "desc" ? "DESC" : "ASC";
      const result = await pool.query(`SELECT * FROM audit_events ${sql} ORDER BY id ${order}${limit}`, params);
      return result.rows.map((row) => rowToEvent(row, parsedJson));
    },
    async sessionIds(query: SessionIdQuery) {
      const limit = Math.max(0, Math.floor(query.limit));
      const result = await pool.query(
        `SELECT session_id FROM (
           SELECT session_id FROM denials WHERE left(session_id, length($1::text)) = $1::text
           UNION SELECT session_id FROM audit_events WHERE left(session_id, length($1::text)) = $1::text
         ) AS ids ORDER BY session_id COLLATE "C" LIMIT $2`,
        [postgresSafe(query.prefix), limit],
      );
      return result.rows.map((row) => String(row.session_id));
    },
    async report(query: ReportQuery = {}) {
      return sqlReport({
        all: async (sql, params) => (await pool.query(sql, params)).rows,
        placeholder,
        decodeJson: parsedJson,
        query,
      });
    },
    async scrub(redact) {
      let changed = 0;
      let afterId = 0;
      for (;;) {
        const { rows } = await pool.query("SELECT * FROM denials WHERE id > $1 ORDER BY id LIMIT $2", [afterId, CHUNK]);
        if (rows.length === 0) return changed;
        afterId = Number(rows.at(-1).id);
        const ids: number[] = [];
        const updated: DenialRowValues[] = [];
        for (const row of rows) {
          const { id, ...record } = rowToDenial(row, parsedJson);
          const after = denialRowValues(postgresSafe(redact(record)));
          if (JSON.stringify(denialRowValues(record)) === JSON.stringify(after)) continue;
          ids.push(id);
          updated.push(after);
        }
        if (ids.length === 0) continue;
        const arrays = columnArrays(updated, DENIAL_COLUMNS.length);
        const sets = DENIAL_COLUMNS.map((column) => `${column} = u.${column}`).join(", ");
        const unnest = DENIAL_TYPES.map((type, index) => `$${index + 2}::${type}[]`).join(", ");
        await pool.query(
          `UPDATE denials SET ${sets} FROM (SELECT * FROM unnest($1::bigint[], ${unnest}) AS t(id, ${DENIAL_COLUMNS.join(", ")})) AS u WHERE denials.id = u.id`,
          [ids, ...arrays],
        );
        changed += ids.length;
      }
    },
    async scrubSessionInfo(redactText) {
      let changed = 0;
      let after = "";
      for (;;) {
        const { rows } = await pool.query(
          // the key's own order (its index): `>` and ORDER BY agree whatever the collation
          "SELECT * FROM session_info WHERE session_id > $1 ORDER BY session_id LIMIT $2",
          [after, CHUNK],
        );
        if (rows.length === 0) return changed;
        after = String(rows.at(-1).session_id);
        const updates = rows.flatMap((row) => scrubbedSessionInfo(rowToSessionInfo(row), redactText) ?? []);
        if (updates.length === 0) continue;
        await pool.query(
          `UPDATE session_info SET project = u.project, first_prompt = u.first_prompt
           FROM unnest($1::text[], $2::text[], $3::text[]) AS u(session_id, project, first_prompt)
           WHERE session_info.session_id = u.session_id`,
          [
            updates.map((info) => info.sessionId),
            updates.map((info) => (info.project === null ? null : postgresSafe(info.project))),
            updates.map((info) => (info.firstPrompt === null ? null : postgresSafe(info.firstPrompt))),
          ],
        );
        changed += updates.length;
      }
    },
    async prune(before: number) {
      const day = utcDay(before);
      const dayStart = Math.floor(before / DAY) * DAY;
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const denials = await client.query("DELETE FROM denials WHERE at < $1", [before]);
        const events = await client.query("DELETE FROM audit_events WHERE at < $1", [before]);
        await client.query("DELETE FROM session_info WHERE at < $1", [before]);
        // Rollups: whole days before the cut go; the cut's own day is recounted from the rows left.
        await client.query("DELETE FROM denial_daily WHERE day <= $1", [day]);
        await client.query("DELETE FROM denial_daily_sessions WHERE day <= $1", [day]);
        await client.query(
          "INSERT INTO denial_daily (day, tool, signature, total, first_id, canonical_tool) SELECT day, tool, signature, count(*), min(id), min(canonical_tool) FROM denials WHERE at >= $1 AND at < $2 GROUP BY day, tool, signature",
          [dayStart, dayStart + DAY],
        );
        await client.query(
          "INSERT INTO denial_daily_sessions (day, tool, session_id, total, canonical_tool) SELECT day, tool, session_id, count(*), min(canonical_tool) FROM denials WHERE at >= $1 AND at < $2 GROUP BY day, tool, session_id",
          [dayStart, dayStart + DAY],
        );
        await client.query("COMMIT");
        return { denials: denials.rowCount ?? 0, events: events.rowCount ?? 0 };
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async close() {},
  };
}
