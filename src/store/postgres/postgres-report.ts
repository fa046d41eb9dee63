import type { Pool } from "pg";
import type { DenialReport, ReportQuery } from "../ports.js";
import { INCIDENT_KINDS, whereClause } from "../report-sql.js";

const placeholder = (index: number) => `$${index}`;

/** The report in SQL, with the same orderings as `computeReport` (byte order via COLLATE "C"). */
export async function postgresReport(options: { pool: Pool; query: ReportQuery }): Promise<DenialReport> {
  const { pool, query } = options;
  const top = Math.floor(query.top ?? 10);
  const where = whereClause({ query, placeholder });
  const eventWhere = whereClause({ query: { ...query, tool: undefined }, placeholder, startIndex: 3 });
  const [totals, tools, signatures, days, incidentRows] = await Promise.all([
    pool.query(`SELECT count(*) AS total, count(DISTINCT session_id) AS sessions FROM denials ${where.sql}`, where.params),
    pool.query(
      `SELECT tool, count(*) AS count FROM denials ${where.sql} GROUP BY tool ORDER BY count DESC, tool COLLATE "C" LIMIT ${top}`,
      where.params,
    ),
    pool.query(
      `SELECT s.signature, s.count, d.tool, d.input_summary, d.tool_input FROM (
         SELECT signature, count(*) AS count, min(id) AS first_id FROM denials ${where.sql}
         GROUP BY signature ORDER BY count DESC, signature COLLATE "C" LIMIT ${top}) AS s
       JOIN denials AS d ON d.id = s.first_id ORDER BY s.count DESC, s.signature COLLATE "C"`,
      where.params,
    ),
    pool.query(`SELECT day, count(*) AS count FROM denials ${where.sql} GROUP BY day ORDER BY day COLLATE "C"`, where.params),
    pool.query(
      `SELECT session_id, count(*) FILTER (WHERE kind = $1) AS loops, count(*) FILTER (WHERE kind = $2) AS aborts
       FROM audit_events ${eventWhere.sql ? `${eventWhere.sql} AND` : "WHERE"} kind IN ($1, $2)
       GROUP BY session_id ORDER BY count(*) DESC, session_id COLLATE "C" LIMIT ${top}`,
      [...INCIDENT_KINDS, ...eventWhere.params],
    ),
  ]);
  const incidents = await Promise.all(
    incidentRows.rows.map(async (row) => {
      const sessionWhere = whereClause({ query: { ...query, sessionId: String(row.session_id) }, placeholder });
      const denials = await pool.query(`SELECT count(*) AS count FROM denials ${sessionWhere.sql}`, sessionWhere.params);
      return {
        sessionId: String(row.session_id),
        loops: Number(row.loops),
        aborts: Number(row.aborts),
        denials: Number(denials.rows[0].count),
      };
    }),
  );
  return {
    total: Number(totals.rows[0].total),
    sessions: Number(totals.rows[0].sessions),
    topTools: tools.rows.map((row) => ({ tool: String(row.tool), count: Number(row.count) })),
    topSignatures: signatures.rows.map((row) => ({
      tool: String(row.tool),
      signature: String(row.signature),
      count: Number(row.count),
      sample: { inputSummary: String(row.input_summary), input: row.tool_input },
    })),
    perDay: days.rows.map((row) => ({ day: String(row.day), count: Number(row.count) })),
    incidents,
  };
}
