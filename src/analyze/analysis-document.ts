import type { DenialSource } from "../core/events.js";
import { byteOrder } from "../core/figures.js";
import type { AnalysisDocument, AnalysisTotals, DeniedTool, SessionAnalysis, SkippedFile } from "./analysis-types.js";

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
    deniedByTool: [],
    loops: 0,
    sessionsWithLoops: 0,
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
    totals.deniedByTool = mergeDeniedTools([totals.deniedByTool, session.deniedByTool]);
    totals.loops += session.loops.length;
    if (session.loops.length > 0) totals.sessionsWithLoops += 1;
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

/** Denied tools ranked: most denials first, ties by canonical tool in byte order; host names in byte order. */
export function rankDeniedTools(tools: DeniedTool[]): DeniedTool[] {
  for (const tool of tools) tool.hostTools.sort(byteOrder);
  return tools.sort((a, b) => b.count - a.count || byteOrder(a.tool, b.tool));
}

/** Several lists of denied tools as one: counts summed and host names joined per canonical tool. */
export function mergeDeniedTools(lists: readonly (readonly DeniedTool[])[]): DeniedTool[] {
  const merged = new Map<string, { count: number; hostTools: Set<string> }>();
  for (const list of lists) {
    for (const entry of list) {
      const known = merged.get(entry.tool) ?? { count: 0, hostTools: new Set<string>() };
      known.count += entry.count;
      for (const name of entry.hostTools) known.hostTools.add(name);
      merged.set(entry.tool, known);
    }
  }
  return rankDeniedTools(
    [...merged].map(([tool, entry]) => ({ tool, count: entry.count, hostTools: [...entry.hostTools] })),
  );
}
