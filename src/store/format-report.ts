import type { DenialReport } from "./ports.js";

export interface SuggestedRule {
  tool: string;
  signature: string;
  count: number;
  /** the narrowest allow rule for the most-denied call, in Claude Code syntax */
  rule: string;
  example: string;
}

/** The report as plain text for a terminal. */
export function formatReport(options: {
  report: DenialReport;
  suggestions: SuggestedRule[];
  location: string;
  window: string;
}): string {
  const { report } = options;
  const out: string[] = [];
  out.push(
    `toolgate report: ${report.total} denials in ${report.sessions} sessions (${options.window}; ${options.location})`,
  );
  if (report.total === 0) {
    out.push("", "No denials recorded in this window.");
    return `${out.join("\n")}\n`;
  }
  const width = (values: string[]) => Math.min(48, Math.max(4, ...values.map((value) => value.length)));
  out.push("", "Top tools");
  const toolWidth = width(report.topTools.map((row) => row.tool));
  for (const row of report.topTools) out.push(`  ${row.tool.padEnd(toolWidth)}  ${String(row.count).padStart(7)}`);
  out.push("", "Most-denied calls, with the minimal allow rule that would permit each");
  for (const row of options.suggestions) {
    out.push(`  ${String(row.count).padStart(7)}  ${row.tool}  ${clip(row.example, 70)}`);
    out.push(`           allow rule: ${row.rule}`);
  }
  out.push("", "Sessions with loops or aborts");
  if (report.incidents.length === 0) out.push("  none");
  for (const row of report.incidents)
    out.push(`  ${row.sessionId}  loops ${row.loops}  aborts ${row.aborts}  denials ${row.denials}`);
  out.push("", "Denials per day (UTC)");
  const most = Math.max(...report.perDay.map((row) => row.count));
  for (const row of report.perDay) {
    const bar = "#".repeat(Math.max(1, Math.round((row.count / most) * 40)));
    out.push(`  ${row.day}  ${String(row.count).padStart(7)}  ${bar}`);
  }
  return `${out.join("\n")}\n`;
}

function clip(text: string, length: number): string {
  const flat = text.replace(/\s+/g, " ");
  return flat.length > length ? `${flat.slice(0, length - 1)}…` : flat;
}
