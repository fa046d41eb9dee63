/** The shapes the dashboard's API answers with (src/dashboard/server/*-query.ts), as the page reads them. */
export interface Overview {
  window: {
    since: string;
    until: string | null;
    /** `until`, or when the server answered: the chart's axis runs from `since` to here */
    end: string;
    tool: string | null;
    host: string | null;
    label: string | null;
  };
  total: number;
  sessions: number;
  bySource: { days: string[]; sources: string[]; counts: number[][] };
  perDay: { day: string; count: number }[];
  /** one row per canonical tool (`shell`) across hosts, with the host names counted under it */
  topTools: { tool: string; count: number; hostTools: string[] }[];
  topPatterns: { tool: string; pattern: string; count: number; variantCount: number }[];
  incidents: { sessionId: string; loops: number; aborts: number; denials: number; status: SessionStatus }[];
  callsSaved: number;
  runsAborted: number;
  sessionsWithLoops: number;
  /** core/figures.ts over the window: the same figures as `toolgate report --json`'s `figures` */
  figures: {
    sessions: number;
    denials: number;
    loops: number;
    sessionsWithLoops: number;
    wastedCalls: number;
    wastedTokens: number | null;
    savedCalls: number;
    status: Record<SessionStatus, number>;
  };
  fromReport: boolean;
}

export type SessionStatus = "clean" | "looped" | "aborted" | "blocked-required-call";

export interface FilterOptions {
  tools: string[];
  hosts: string[];
  labels: string[];
}

export interface SessionRow {
  sessionId: string;
  host: string | null;
  parentSessionId: string | null;
  firstAt: number;
  lastAt: number;
  denials: number;
  tools: number;
  subagents: number;
  loops: number;
  aborts: number;
  wastedCalls: number;
  wastedTokens: number | null;
  savedCalls: number;
  status: SessionStatus;
  /** the session's project (working directory) and first prompt line: session-info-query.ts; null when unknown */
  project: string | null;
  firstPrompt: string | null;
}

export interface SessionsPage {
  total: number;
  page: number;
  pageSize: number;
  rows: SessionRow[];
  /** the projects the list can be narrowed to (`project=`), most sessions first */
  projects?: string[];
}

export type TimelineEntry =
  | {
      type: "denial";
      id: number;
      at: number;
      agentId: string | null;
      turn: number;
      tool: string;
      source: string;
      reason: string;
      rule: string | null;
      summary: string;
    }
  | {
      type: "event";
      id: number;
      at: number;
      agentId: string | null;
      turn: number;
      kind: string;
      tool: string | null;
      detail: Record<string, unknown>;
    };

export interface SessionTimeline {
  sessionId: string;
  host: string | null;
  labels: Record<string, string> | null;
  truncated: boolean;
  entries: TimelineEntry[];
  subagents: { agentId: string; denials: number; firstAt: number }[];
  childSessions: { sessionId: string; denials: number }[];
  project: string | null;
  firstPrompt: string | null;
  /** the session's figures over all its rows, as its row in the sessions list shows them (core/figures.ts) */
  figures: Pick<SessionRow, "status" | "denials" | "loops" | "aborts" | "wastedCalls" | "wastedTokens" | "savedCalls">;
}

export type AttackKind = "exfiltration" | "secrets" | "force-push" | "destructive" | "routine-delete";

/** one call across hosts (src/dashboard/server/policy-query.ts) */
export interface PolicyRow {
  /** the host tool name with the most denials of this call */
  tool: string;
  /** every host's name for the tool this call was denied under */
  tools: string[];
  canonicalTool: string;
  signature: string;
  signatures: string[];
  count: number;
  example: string;
  firstAt: number;
  lastAt: number;
  /** denials in the window before, of the same length */
  previousCount: number;
  sessionCount: number;
  sessions: { sessionId: string; host: string | null; count: number; lastAt: number }[];
  allowRule: string | null;
  /** where the rule goes, as the host's rule language names it */
  ruleLanguage: string | null;
  allowRules: { tool: string; rule: string; language: string }[];
  /** why no allow rule is offered */
  noRule: string | null;
  sources: { source: string; count: number }[];
  denyRuleWins: boolean;
  denyRule: string | null;
  risk: AttackKind | null;
  attack: AttackKind | null;
}

export interface Policy {
  total: number;
  attacks: PolicyRow[];
  tooTight: PolicyRow[];
}

export interface LiveDenial {
  id: number;
  at: number;
  sessionId: string;
  host: string | null;
  tool: string;
  source: string;
  rule: string | null;
  reason: string;
  summary: string;
}
