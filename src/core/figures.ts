import type { DenialSource } from "./events.js";

/**
 * One definition of the figures every view shows (`toolgate report`, `toolgate analyze`, the dashboard, the
 * `analyze --html` file, `toolgate run`'s summary and the per-denial hook payload), so they agree for the same data.
 * Pure: the views gather the facts below (in SQL or from arrays) and this module turns them into figures.
 *
 * - A **denial** is every denial record, whatever refused the call (rules, people, hooks, modes, classifiers, the
 *   OS or a sandbox, toolgate itself).
 * - A **saved call** is a denial toolgate made itself after a loop verdict or an abort (sources `loop` and
 *   `aborted`): the call never reached the host.
 * - A **loop** is one repeated behaviour of a session, found by toolgate (a `loop.detected` verdict, with its kind)
 *   or seen in what the host did: the same call (agent, tool, signature) denied `REPEATED_DENIAL_LOOP` times or
 *   more is an `identical-call` loop whether or not toolgate said so, and `toolgate analyze` records the loops it
 *   finds in a transcript. One loop per session, kind, tool (and the tool it routed around): a verdict at every
 *   level (observe, steer, block, stop) is still one loop.
 * - A **retry after a denial** (the calls of a `retry-after-denial` loop) is a call of a pattern (agent, tool,
 *   pattern) that was denied and has not run since, and that is the same call as a denied one of the pattern (its
 *   signature) or a variant of it: it acts on a file or directory a denied one acted on, or the denied calls name no
 *   file at all (then the pattern alone says). Two calls of one pattern on different files (two rejected patches to
 *   two files), or a call on no file after denied calls on files (an `rg` after a rejected patch, both `bash -lc`),
 *   are other intents, not a retry (`retriesDenied`).
 * - A **wasted call** is a call of a pattern (agent, tool, pattern) made after that pattern was denied while it
 *   stayed unavailable. From denials alone: every denial of a pattern after its first. When a session's summary
 *   carries the figure from a transcript (`toolgate analyze` saw every call, also the ones not denied), that wins.
 * - **Wasted tokens**: the tokens of the model requests that produced the wasted calls, where a transcript recorded
 *   them (`toolgate analyze --save`, or a live hook that read its host's transcript at a turn's or the session's end:
 *   core/call-tokens.ts); null when nothing recorded usage.
 * - A session's **status**: `aborted` (toolgate aborted the run), else `blocked-required-call` (toolgate escalated
 *   a call it kept refusing and nobody granted it afterwards), else `looped` (one loop or more), else `clean`.
 */

/** sources where toolgate itself refused a call (a loop verdict, an aborted run): the call never reached the host */
export const SAVED_SOURCES = ["loop", "aborted"] as const satisfies readonly DenialSource[];

/** the same call denied this many times in one session is a loop (the core's default `loop.observe` level) */
export const REPEATED_DENIAL_LOOP = 3;

/** the audit event kinds the figures read */
export const FIGURE_EVENT_KINDS = [
  "loop.detected",
  "run.aborted",
  "escalation.reached",
  "grant.recorded",
  "session.summary",
] as const;

export type SessionStatus = "clean" | "looped" | "aborted" | "blocked-required-call";
export const SESSION_STATUSES: readonly SessionStatus[] = ["clean", "looped", "aborted", "blocked-required-call"];

/** who found a loop: toolgate's verdict, or the host's own repeats seen in its denials or transcript */
export type LoopFinder = "toolgate" | "host";

export interface Loop {
  kind: string;
  by: LoopFinder;
  /** the host's tool name */
  tool: string;
  /** the calls in the loop (the most any finder counted) */
  calls: number;
  /** intent-switch only: the tool whose denial the calls routed around */
  after?: string;
}

/** one distinct call of a session and how often it was denied (groups of fewer than REPEATED_DENIAL_LOOP may be left out) */
export interface DeniedCall {
  agentId?: string | null;
  tool: string;
  signature: string;
  count: number;
}

/** one pattern of a session and how often it was denied (groups of one may be left out) */
export interface DeniedPattern {
  agentId?: string | null;
  tool: string;
  pattern: string;
  count: number;
}

export interface FigureEvent {
  kind: string;
  tool?: string | null;
  at: number;
  detail: Record<string, unknown>;
}

/** What a view knows about one session, in the window and filters it shows. */
export interface SessionFacts {
  sessionId: string;
  denials: number;
  /** denials whose source is a SAVED_SOURCES one */
  savedCalls: number;
  deniedCalls: readonly DeniedCall[];
  deniedPatterns: readonly DeniedPattern[];
  /** the session's events of FIGURE_EVENT_KINDS (others are ignored) */
  events: readonly FigureEvent[];
}

export interface SessionFigures {
  sessionId: string;
  denials: number;
  loops: Loop[];
  wastedCalls: number;
  wastedTokens: number | null;
  savedCalls: number;
  status: SessionStatus;
}

export interface Figures {
  /** sessions the figures cover (with a denial or a figure event) */
  sessions: number;
  denials: number;
  loops: number;
  sessionsWithLoops: number;
  wastedCalls: number;
  wastedTokens: number | null;
  savedCalls: number;
  /** sessions per status */
  status: Record<SessionStatus, number>;
}

/** the denied calls of one pattern that a later call may retry: their signatures and the files they acted on */
export interface DeniedOfPattern {
  signatures: ReadonlySet<string>;
  targets: readonly string[];
}

/**
 * Whether a call of a denied pattern retries a denied call (see "retry after a denial" above): the same signature,
 * a shared target, or denied calls with no target. `sameTarget` compares two targets (default: equal strings).
 */
export function retriesDenied(options: {
  call: { signature?: string | undefined; targets: readonly string[] };
  denied: DeniedOfPattern;
  sameTarget?: (a: string, b: string) => boolean;
}): boolean {
  const { call, denied } = options;
  if (call.signature !== undefined && denied.signatures.has(call.signature)) return true;
  if (denied.targets.length === 0) return true;
  const same = options.sameTarget ?? ((a: string, b: string) => a === b);
  return call.targets.some((target) => denied.targets.some((other) => same(target, other)));
}

export function isSavedCall(source: string): boolean {
  return (SAVED_SOURCES as readonly string[]).includes(source);
}

/** the session's loops: toolgate's verdicts, recorded host loops and repeated denials, one per kind and tool */
export function sessionLoops(options: { events: readonly FigureEvent[]; deniedCalls: readonly DeniedCall[] }): Loop[] {
  const loops = new Map<string, Loop>();
  const add = (loop: Loop) => {
    const key = `${loop.kind}\u0000${loop.tool}\u0000${loop.after ?? ""}`;
    const known = loops.get(key);
    if (known === undefined) loops.set(key, loop);
    else {
      known.calls = Math.max(known.calls, loop.calls);
      if (loop.by === "toolgate") known.by = "toolgate";
    }
  };
  for (const event of options.events) {
    if (event.kind !== "loop.detected") continue;
    const { detail } = event;
    const after = typeof detail["after"] === "string" ? detail["after"] : undefined;
    add({
      kind: typeof detail["kind"] === "string" ? detail["kind"] : "identical-call",
      by: detail["by"] === "host" ? "host" : "toolgate",
      tool: event.tool ?? "",
      calls: numberOr(detail["repeats"], numberOr(detail["calls"], 0)),
      ...(after === undefined ? {} : { after }),
    });
  }
  for (const call of options.deniedCalls) {
    if (call.count < REPEATED_DENIAL_LOOP) continue;
    add({ kind: "identical-call", by: "host", tool: call.tool, calls: call.count });
  }
  return [...loops.values()].sort(
    (a, b) => b.calls - a.calls || byteOrder(a.kind, b.kind) || byteOrder(a.tool, b.tool),
  );
}

/** wasted calls and tokens: a transcript's recorded figure when a session summary carries one, else from denials */
export function sessionWaste(options: { events: readonly FigureEvent[]; deniedPatterns: readonly DeniedPattern[] }): {
  calls: number;
  tokens: number | null;
} {
  const recorded = [...options.events]
    .reverse()
    .find((event) => event.kind === "session.summary" && typeof event.detail["wastedCalls"] === "number");
  if (recorded !== undefined) {
    const tokens = recorded.detail["wastedTokens"];
    return { calls: recorded.detail["wastedCalls"] as number, tokens: typeof tokens === "number" ? tokens : null };
  }
  let calls = 0;
  for (const pattern of combinePatterns(options.deniedPatterns)) calls += Math.max(0, pattern - 1);
  // a live hook's summary: the tokens of the wasted calls its host's transcript named (core/call-tokens.ts)
  const named = [...options.events]
    .reverse()
    .find((event) => event.kind === "session.summary" && typeof event.detail["wastedTokens"] === "number");
  return { calls, tokens: named === undefined ? null : (named.detail["wastedTokens"] as number) };
}

export function sessionStatus(options: { events: readonly FigureEvent[]; loops: number }): SessionStatus {
  const { events } = options;
  if (events.some((event) => event.kind === "run.aborted")) return "aborted";
  const lastEscalation = latest(events, "escalation.reached");
  if (lastEscalation !== undefined) {
    const lastGrant = latest(events, "grant.recorded");
    if (lastGrant === undefined || lastGrant < lastEscalation) return "blocked-required-call";
  }
  return options.loops > 0 ? "looped" : "clean";
}

export function sessionFigures(facts: SessionFacts): SessionFigures {
  const loops = sessionLoops(facts);
  const waste = sessionWaste(facts);
  return {
    sessionId: facts.sessionId,
    denials: facts.denials,
    loops,
    wastedCalls: waste.calls,
    wastedTokens: waste.tokens,
    savedCalls: facts.savedCalls,
    status: sessionStatus({ events: facts.events, loops: loops.length }),
  };
}

/** the totals of sessions' figures; a session may give its loops as a count (a store's per-session summary) */
export function totalFigures(
  sessions: Iterable<Omit<SessionFigures, "loops"> & { loops: readonly Loop[] | number }>,
): Figures {
  const totals: Figures = {
    sessions: 0,
    denials: 0,
    loops: 0,
    sessionsWithLoops: 0,
    wastedCalls: 0,
    wastedTokens: null,
    savedCalls: 0,
    status: { clean: 0, looped: 0, aborted: 0, "blocked-required-call": 0 },
  };
  for (const session of sessions) {
    totals.sessions += 1;
    totals.denials += session.denials;
    const loops = typeof session.loops === "number" ? session.loops : session.loops.length;
    totals.loops += loops;
    if (loops > 0) totals.sessionsWithLoops += 1;
    totals.wastedCalls += session.wastedCalls;
    if (session.wastedTokens !== null) totals.wastedTokens = (totals.wastedTokens ?? 0) + session.wastedTokens;
    totals.savedCalls += session.savedCalls;
    totals.status[session.status] += 1;
  }
  return totals;
}

/** The facts of every session in plain arrays of records and events (the memory store, `toolgate run`, analyze). */
export function factsFromRecords(options: {
  records: Iterable<{
    sessionId: string;
    agentId?: string;
    tool: string;
    signature: string;
    pattern: string;
    source: string;
  }>;
  events: Iterable<FigureEvent & { sessionId: string }>;
}): SessionFacts[] {
  const sessions = new Map<
    string,
    { facts: SessionFacts; calls: Map<string, DeniedCall>; patterns: Map<string, DeniedPattern> }
  >();
  const entry = (sessionId: string) => {
    let found = sessions.get(sessionId);
    if (found === undefined) {
      found = {
        facts: { sessionId, denials: 0, savedCalls: 0, deniedCalls: [], deniedPatterns: [], events: [] },
        calls: new Map(),
        patterns: new Map(),
      };
      sessions.set(sessionId, found);
    }
    return found;
  };
  for (const record of options.records) {
    const session = entry(record.sessionId);
    session.facts.denials += 1;
    if (isSavedCall(record.source)) session.facts.savedCalls += 1;
    const agentId = record.agentId ?? null;
    const callKey = `${agentId ?? ""}\u0000${record.tool}\u0000${record.signature}`;
    const call = session.calls.get(callKey) ?? { agentId, tool: record.tool, signature: record.signature, count: 0 };
    call.count += 1;
    session.calls.set(callKey, call);
    const patternKey = `${agentId ?? ""}\u0000${record.tool}\u0000${record.pattern}`;
    const pattern = session.patterns.get(patternKey) ?? {
      agentId,
      tool: record.tool,
      pattern: record.pattern,
      count: 0,
    };
    pattern.count += 1;
    session.patterns.set(patternKey, pattern);
  }
  for (const event of options.events) {
    if (!(FIGURE_EVENT_KINDS as readonly string[]).includes(event.kind)) continue;
    (entry(event.sessionId).facts.events as FigureEvent[]).push(event);
  }
  return [...sessions.values()].map(({ facts, calls, patterns }) => ({
    ...facts,
    deniedCalls: [...calls.values()],
    deniedPatterns: [...patterns.values()],
    events: [...facts.events].sort((a, b) => a.at - b.at),
  }));
}

/** denial counts per (agent, tool, pattern), groups given twice summed */
function combinePatterns(patterns: readonly DeniedPattern[]): number[] {
  const counts = new Map<string, number>();
  for (const pattern of patterns) {
    const key = `${pattern.agentId ?? ""}\u0000${pattern.tool}\u0000${pattern.pattern}`;
    counts.set(key, (counts.get(key) ?? 0) + pattern.count);
  }
  return [...counts.values()];
}

function latest(events: readonly FigureEvent[], kind: string): number | undefined {
  let at: number | undefined;
  for (const event of events) if (event.kind === kind && (at === undefined || event.at > at)) at = event.at;
  return at;
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

/**
 * Byte order of two strings (UTF-16 code units), the same as SQL `COLLATE "C"` / SQLite BINARY: the same order in
 * every locale, without `localeCompare`'s collator (whose first use costs a process about 6 ms).
 */
export function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
