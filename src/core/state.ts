import type { Grant, GrantScope } from "./effects.js";
import type { DenialSource } from "./events.js";
import type { DenialRecord } from "./records.js";

/**
 * A session's reducer state: plain JSON (objects keyed by strings, arrays, numbers, strings, booleans), so it
 * round-trips through JSON.stringify/parse unchanged and can be stored between hook processes.
 */
export interface SessionState {
  /** schema version of this shape, for stores that persist it */
  v: 1;
  sessionId: string;
  parentSessionId?: string;
  host?: string;
  labels?: Record<string, string>;
  interactive: boolean;
  /** turn number; bumped by each real user message */
  turn: number;
  /** counters per agent: the main agent is `main`, each subagent its own id (subagent isolation) */
  agents: Record<string, AgentState>;
  /** the bounded record buffer, oldest first */
  records: DenialRecord[];
  /** monotonic count of all denials in the session tree, never reduced by eviction */
  total: number;
  /**
   * the tool-use ids of records evicted from `records`, as a Bloom filter (core/evicted-ids.ts): an id it does not
   * hold was never evicted. Absent while nothing was evicted (or in a state saved before it was kept: then unknown)
   */
  evictedIds?: number[];
  /** the `total` at the last flush: records after it are not yet handed to per-denial hooks */
  highWaterMark: number;
  grants: Grant[];
  /** offers waiting for `grant.answered`, by offer id */
  offers: Record<string, PendingOffer>;
  /** patterns a person already declined to grant this session (no second offer) */
  declined: string[];
  nudge: NudgeState;
  /** set once the session was aborted; every later call is refused with the same `error` and `text` */
  aborted?: {
    at: number;
    tool: string;
    reason: string;
    /** the user-facing error of the abort */
    error?: string;
    /** the text the model was given */
    text?: string;
    count?: number;
    signature?: string;
  };
  /** counter for ids the reducer creates (offers, grants) so they stay deterministic */
  nextId: number;
  /** whether config warnings were already emitted in this session */
  warned: boolean;
  /**
   * wasted tokens from the host's transcript (core/call-tokens.ts): their sum, whether the host named any tokens,
   * and the wasted calls still waiting for theirs
   */
  tokens?: { wasted: number; named: boolean; pending: string[] };
  /** which session facts (core/session-info.ts) were already emitted: the first of each wins */
  described?: { project?: true; prompt?: true };
}

export interface PendingOffer {
  tool: string;
  pattern: string;
  scope: GrantScope;
  agentId: string;
  toolUseId: string;
  at: number;
}

export interface AgentState {
  /** denials of this agent in the session, and in the current turn */
  total: number;
  turnTotal: number;
  /** denials in a row for this agent (any tool), reset by a success, an allow or a user message */
  consecutive: number;
  tools: Record<string, ToolCounters>;
  /** escalation key: `${tool} ${pattern}` (see `patternKey`) */
  patterns: Record<string, PatternCounters>;
  /** the loop detector's recent call signatures, newest last, at most `maxCycleLength` */
  window: string[];
  /**
   * `runs[k-1]`: how many calls in a row matched the call k positions before them. A k-cycle has repeated
   * floor(runs[k-1] / k) + 1 times; for k = 1 that is the identical-call streak.
   */
  runs: number[];
  /** recent failures for the same-error streak */
  errorStreak?: { tool: string; error: string; count: number; signature: string };
  /** the highest loop level already reported for the current run, by run kind */
  loopLevels: Record<string, number>;
}

export interface ToolCounters {
  /** denials since this tool was last allowed or succeeded */
  consecutive: number;
  /** keys of this tool's patterns with a live streak, so an allow resets them without a scan */
  streaking: string[];
  total: number;
  turnTotal: number;
}

export interface PatternCounters {
  tool: string;
  pattern: string;
  /** denials of this pattern since the tool was last allowed (the escalation counter) */
  streak: number;
  total: number;
  lastSource: DenialSource;
  /** whether any denial in the current streak came from a source that may never be granted */
  ungrantable: boolean;
  /** the most recent denied calls of this streak (redacted summaries), newest last, at most 5 */
  recent: { summary: string; input: unknown }[];
  /** whether the escalation (offer or headless strategy) already fired for this streak */
  escalated: boolean;
}

export interface NudgeState {
  /** qualifying denials or OS-permission failures in a row, across the session */
  count: number;
  /** whether an OS-permission failure is part of the current run (chooses the nudge text) */
  os: boolean;
  lastNudgeAt?: number;
  /** nudge times within the last hour, for the hourly cap */
  recent: number[];
}

export const MAIN_AGENT = "main";
