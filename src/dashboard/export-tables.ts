/**
 * Every table of the dashboard as flat records, and those records as CSV: what "Download CSV / JSON" gives. The
 * server answers `/api/export?table=...&format=csv|json` with them (every row, not one page); a saved report builds
 * the same files in the page from its embedded answers. Shared by the server (node) and the page (browser): no
 * imports. The values are the API's, already redacted as stored (allow rules through the configured redaction).
 */
export const EXPORT_TABLES = {
  "per-day": { path: "/api/overview", title: "Denials per day and source" },
  "top-tools": { path: "/api/overview", title: "Top tools" },
  "top-patterns": { path: "/api/overview", title: "Top patterns" },
  incidents: { path: "/api/overview", title: "Sessions that looped, were aborted or were blocked" },
  sessions: { path: "/api/sessions", title: "Sessions" },
  "policy-attacks": { path: "/api/policy", title: "Looks like an attack" },
  "policy-tuning": { path: "/api/policy", title: "Policy may be too tight" },
  live: { path: "/api/live", title: "Live denials" },
} as const;
export type ExportTable = keyof typeof EXPORT_TABLES;
export type ExportFormat = "csv" | "json";

export type Cell = string | number | boolean | null;
export type ExportRecord = Record<string, Cell>;

export function isExportTable(name: string): name is ExportTable {
  return Object.hasOwn(EXPORT_TABLES, name);
}

const iso = (at: unknown): string | null =>
  typeof at === "number" && Number.isFinite(at) && at > 0 ? new Date(at).toISOString() : null;

interface OverviewAnswer {
  bySource: { days: string[]; sources: string[]; counts: number[][] };
  topTools: { tool: string; count: number; hostTools: string[] }[];
  topPatterns: { tool: string; pattern: string; count: number; variantCount: number }[];
  incidents: { sessionId: string; loops: number; aborts: number; denials: number; status: string }[];
}

interface PolicyRowAnswer {
  risk: string | null;
  attack: string | null;
  canonicalTool: string;
  tools: string[];
  example: string;
  count: number;
  previousCount: number;
  firstAt: number;
  lastAt: number;
  sessionCount: number;
  sessions: { sessionId: string }[];
  sources: { source: string; count: number }[];
  allowRules: { tool: string; rule: string; language: string }[];
  noRule: string | null;
  denyRuleWins: boolean;
  denyRule: string | null;
}

/** the rows of one table from the answer of its endpoint (the sessions table: the rows of every page) */
export function exportRecords(table: ExportTable, answer: unknown): ExportRecord[] {
  switch (table) {
    case "per-day": {
      const { days, sources, counts } = (answer as OverviewAnswer).bySource;
      return days.map((day, index) => {
        const record: ExportRecord = { day };
        sources.forEach((source, s) => {
          record[source] = counts[s]?.[index] ?? 0;
        });
        record.total = sources.reduce((sum, _source, s) => sum + (counts[s]?.[index] ?? 0), 0);
        return record;
      });
    }
    case "top-tools":
      return (answer as OverviewAnswer).topTools.map((row) => ({
        tool: row.tool,
        hostTools: row.hostTools.join(" "),
        denials: row.count,
      }));
    case "top-patterns":
      return (answer as OverviewAnswer).topPatterns.map((row) => ({
        tool: row.tool,
        pattern: row.pattern,
        denials: row.count,
        variants: row.variantCount,
      }));
    case "incidents":
      return (answer as OverviewAnswer).incidents.map((row) => ({
        session: row.sessionId,
        status: row.status,
        denials: row.denials,
        loops: row.loops,
        aborts: row.aborts,
      }));
    case "sessions":
      return (answer as { rows: Record<string, unknown>[] }).rows.map(flatRecord);
    case "policy-attacks":
    case "policy-tuning": {
      const policy = answer as { attacks: PolicyRowAnswer[]; tooTight: PolicyRowAnswer[] };
      return (table === "policy-attacks" ? policy.attacks : policy.tooTight).map((row) => ({
        risk: row.attack ?? row.risk,
        tool: row.canonicalTool,
        hostTools: row.tools.join(" "),
        call: row.example,
        denials: row.count,
        previousWindow: row.previousCount,
        firstSeen: iso(row.firstAt),
        lastSeen: iso(row.lastAt),
        sessions: row.sessionCount,
        recentSessions: row.sessions.map((session) => session.sessionId).join(" "),
        deniedBy: row.sources.map((entry) => `${entry.source} ${entry.count}`).join(", "),
        denyRule: row.denyRuleWins ? (row.denyRule ?? "a deny rule") : null,
        allowRules: row.allowRules.map((entry) => `${entry.language}: ${entry.rule}`).join("\n"),
        noRule: row.noRule,
      }));
    }
    case "live":
      return (answer as Record<string, unknown>[]).map(flatRecord);
  }
}

/** a row's scalar fields as they are, times (`...At`) as ISO dates, nested values as JSON */
function flatRecord(row: Record<string, unknown>): ExportRecord {
  const record: ExportRecord = {};
  for (const [key, value] of Object.entries(row)) {
    if (/At$/.test(key) && typeof value === "number") record[key.replace(/At$/, "")] = iso(value);
    else if (value === null || ["string", "number", "boolean"].includes(typeof value)) record[key] = value as Cell;
    else if (value !== undefined) record[key] = JSON.stringify(value);
  }
  return record;
}

/** cells a spreadsheet would read as a formula (`=HYPERLINK(...)`, `+cmd`, `-2+3`, `@SUM`, a tab or CR first) */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV cell (RFC 4180): a text that starts like a formula gets a leading `'` (a spreadsheet then shows it as
 * text, OWASP's advice against CSV injection), and a cell holding a quote, a comma or a line break is quoted with
 * its quotes doubled. Numbers are written as numbers.
 */
export function csvCell(value: Cell): string {
  if (value === null) return "";
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** records as CSV with a header of every key any record has (in first-seen order), CRLF line ends */
export function toCsv(records: readonly ExportRecord[]): string {
  const columns: string[] = [];
  for (const record of records) for (const key of Object.keys(record)) if (!columns.includes(key)) columns.push(key);
  const lines = [columns.map(csvCell), ...records.map((record) => columns.map((key) => csvCell(record[key] ?? null)))];
  return `${lines.map((cells) => cells.join(",")).join("\r\n")}\r\n`;
}

/** the file of a table: its name, type and text */
export function exportFile(options: {
  table: ExportTable;
  format: ExportFormat;
  records: readonly ExportRecord[];
  /** the day it is made (UTC), in its name */
  day: string;
}) {
  const { table, format, records, day } = options;
  const name = `toolgate-${table}-${day}.${format}`;
  return format === "csv"
    ? { name, type: "text/csv; charset=utf-8", text: toCsv(records) }
    : { name, type: "application/json; charset=utf-8", text: `${JSON.stringify(records, null, 2)}\n` };
}
