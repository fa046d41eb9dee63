import type { DenialSource } from "../core/events.js";
import type { LoopFinder, SessionStatus } from "../core/figures.js";
import type { ToolFamily } from "../core/tool-families.js";
import type { AnalyzeHost } from "../hosts/common/reader-event.js";

/** The `--json` document of `toolgate analyze` (documented in docs/analyze.md; version 1). */

export interface AnalyzedDenial {
  /** the host's tool name */
  tool: string;
  /** the host-neutral tool (core/tool-families.ts): `shell` for every host's shell tool */
  canonicalTool: string;
  toolFamily: ToolFamily;
  source: DenialSource;
  /** the host's text, redacted, at most 300 characters */
  reason: string;
  /** the redacted call, at most 200 characters */
  summary: string;
  pattern: string;
  /** ISO-8601 */
  at: string;
  /** the subagent that made the call; absent for the main agent */
  agentId?: string;
}

export type LoopKind = "identical-call" | "cycle" | "same-error" | "retry-after-denial" | "intent-switch";

export interface AnalyzedLoop {
  kind: LoopKind;
  /** `host`: seen in the transcript (every loop analyze finds); `toolgate`: a verdict toolgate recorded */
  by: LoopFinder;
  /** the host's tool name */
  tool: string;
  canonicalTool: string;
  /** the calls in the loop: repeats for identical calls and cycles, retries for the other kinds */
  calls: number;
  /** intent-switch only: the tool whose denial the calls routed around */
  after?: string;
}

/** Denials of one canonical tool, with the host tool names counted under it (byte order). */
export interface DeniedTool {
  tool: string;
  count: number;
  hostTools: string[];
}

export interface SuggestedAllowRule {
  /** in the host's own rule language (`language`, from its descriptor), else toolgate's rules */
  rule: string;
  /** where the rule goes, as the host's rule language names it (`toolgate permissions.allow` for toolgate's own) */
  language: string;
  tool: string;
  /** denied calls this rule would have let through */
  count: number;
  source: DenialSource;
  /** always false: no rule is suggested where a deny rule (the host's, or one in your settings) would still win */
  denyRuleWins: boolean;
  example: string;
}

export interface StopPoint {
  /** 1-based position of the call among the session's tool calls */
  call: number;
  tool: string;
  action: "abort" | "fallback" | "skip" | "offer-grant";
  reason: string;
}

export interface SessionAnalysis {
  file: string;
  host: AnalyzeHost;
  format: string;
  sessionId: string;
  /** ISO-8601 of the first and last event */
  startedAt: string;
  endedAt: string;
  interactive: boolean;
  toolCalls: number;
  /** every denied call, whatever its source (OS and sandbox refusals included); capped at 1000 entries */
  denials: AnalyzedDenial[];
  /** exact count, also when `denials` was capped */
  denialCount: number;
  deniedBySource: Partial<Record<DenialSource, number>>;
  /** exact denials per canonical tool, with the host names behind each, most first */
  deniedByTool: DeniedTool[];
  loops: AnalyzedLoop[];
  wastedCalls: number;
  /** tokens of the model requests that produced the wasted calls; null when the transcript has no usage */
  wastedTokens: number | null;
  savedCalls: number;
  /** what happened in the run (core/figures.ts): `looped` when it has a loop, else `clean` */
  status: SessionStatus;
  /** where toolgate would first have stopped the run or escalated; null when it would not have */
  stoppedAt: StopPoint | null;
  suggestedRules: SuggestedAllowRule[];
}

export interface AnalysisTotals {
  files: number;
  sessions: number;
  toolCalls: number;
  denials: number;
  deniedBySource: Partial<Record<DenialSource, number>>;
  /** denials per canonical tool over every session (one `shell` row across hosts), most first */
  deniedByTool: DeniedTool[];
  loops: number;
  /** sessions with one loop or more */
  sessionsWithLoops: number;
  wastedCalls: number;
  wastedTokens: number | null;
  savedCalls: number;
}

export interface AnalysisDocument {
  version: 1;
  sessions: SessionAnalysis[];
  totals: AnalysisTotals;
  /** corrupt, truncated or unknown lines, skipped */
  skippedLines: number;
  /** files, or default locations, that were searched */
  searched: string[];
  /** files that matched no known format (not counted as skipped lines) */
  unrecognizedFiles: string[];
  /** files of a known host that hold nothing to analyse (Claude Code's plain text output), with the reason */
  skippedFiles: SkippedFile[];
}

export interface SkippedFile {
  file: string;
  reason: string;
}
