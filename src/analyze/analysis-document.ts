import type { DenialSource } from "../core/events.js";
import type { AnalysisDocument, AnalysisTotals, SessionAnalysis, SkippedFile } from "./analysis-types.js";

/** The `--json` document: sessions, then totals over them. */
export function analysisDocument(options: {
  sessions: readonly SessionAnalysis[];
  filesRead: number;
  skippedLines: number;
  searched: readonly string[];
  unrecognizedFiles: readonly string[];
  skippedFiles?: readonly SkippedFile[];
}): AnalysisDocument {
  const totals: AnalysisTotals = {
    files: options.filesRead,
    sessions: options.sessions.length,
    toolCalls: 0,
    denials: 0,
    deniedBySource: {},
    loops: 0,
    wastedCalls: 0,
    wastedTokens: null,
    savedCalls: 0,
  };
  for (const session of options.sessions) {
    totals.toolCalls += session.toolCalls;
    totals.denials += session.denialCount;
    for (const [source, count] of Object.entries(session.deniedBySource) as [DenialSource, number][]) {
      totals.deniedBySource[source] = (totals.deniedBySource[source] ?? 0) + count;
    }
    totals.loops += session.loops.length;
    totals.wastedCalls += session.wastedCalls;
    if (session.wastedTokens !== null) totals.wastedTokens = (totals.wastedTokens ?? 0) + session.wastedTokens;
    totals.savedCalls += session.savedCalls;
  }
  return {
    version: 1,
    sessions: [...options.sessions],
    totals,
    skippedLines: options.skippedLines,
    searched: [...options.searched],
    unrecognizedFiles: [...options.unrecognizedFiles],
    skippedFiles: [...(options.skippedFiles ?? [])],
  };
}
