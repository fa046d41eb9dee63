import type { SuggestedRule } from "../../store/format-report.js";
import type { CountBySignature, DenialReport } from "../../store/ports.js";

function signatureRow(row: CountBySignature) {
  return {
    tool: row.tool,
    canonicalTool: row.canonicalTool,
    signature: row.signature,
    count: row.count,
    sample: { inputSummary: row.sample.inputSummary, input: row.sample.input ?? null },
    deniedByRule: row.deniedByRule,
    denyRule: row.denyRule,
    source: row.source,
  };
}

/** `toolgate report --json`: every key always present, lists possibly empty. */
export function reportDocument(options: {
  store: string;
  window: { since: string; sessionId: string | null; tool: string | null };
  report: DenialReport;
  suggestions: readonly SuggestedRule[];
}) {
  const { report } = options;
  return {
    store: options.store,
    window: { since: options.window.since, sessionId: options.window.sessionId, tool: options.window.tool },
    total: report.total,
    sessions: report.sessions,
    // one row per canonical tool across hosts (`shell`), with the host names counted under it
    topTools: report.topTools.map((row) => ({ tool: row.tool, count: row.count, hostTools: [...row.hostTools] })),
    topSignatures: report.topSignatures.map(signatureRow),
    topPatterns: report.topPatterns.map((row) => ({
      tool: row.tool,
      pattern: row.pattern,
      count: row.count,
      variantCount: row.variantCount,
      denyRules: row.denyRules.map((deny) => ({ rule: deny.rule, count: deny.count })),
      variants: row.variants.map(signatureRow),
    })),
    perDay: report.perDay.map((row) => ({ day: row.day, count: row.count })),
    incidents: report.incidents.map((row) => ({
      sessionId: row.sessionId,
      loops: row.loops,
      aborts: row.aborts,
      denials: row.denials,
      status: row.status,
    })),
    // loops, wasted and saved calls, sessions per status: core/figures.ts, the dashboard's and analyze's definition
    figures: { ...report.figures, status: { ...report.figures.status } },
    suggestedRules: options.suggestions.map((row) => ({
      tool: row.tool,
      signature: row.signature,
      count: row.count,
      // null where no allow rule changes the outcome (a deny rule wins, the OS refused it, a heredoc): `why` says so
      rule: row.rule,
      language: row.language ?? null,
      why: row.why ?? null,
      example: row.example,
    })),
    warnings: [],
  };
}
