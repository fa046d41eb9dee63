import {
  FIGURE_EVENT_KINDS,
  type FigureEvent,
  REPEATED_DENIAL_LOOP,
  type SessionStatus,
  sessionLoops,
  sessionStatus,
  sessionWaste,
} from "../core/figures.js";
import type { JsonDecoder } from "./denial-row.js";

type Row = Record<string, unknown>;
type Params = (string | number)[];

/** what the summary needs of a database: one engine's query function, its placeholders and JSON decoding */
export interface SummaryReader {
  all(sql: string, params: Params): Promise<Row[]>;
  placeholder(index: number): string;
  decodeJson: JsonDecoder;
}

/** the window and the filters the summary answers (a tool filter it does not: callers count those from denials) */
export interface SummaryFilter {
  /** epoch ms, inclusive; none: from the first denial */
  since?: number;
  /** epoch ms, exclusive */
  until?: number;
  host?: string;
  label?: { key: string; value: string };
}

/** one session's figures over the window (core/figures.ts), read from the summary */
export interface SummarizedSession {
  sessionId: string;
  host: string | null;
  parentSessionId: string | null;
  firstAt: number;
  lastAt: number;
  denials: number;
  loops: number;
  aborts: number;
  wastedCalls: number;
  wastedTokens: number | null;
  savedCalls: number;
  status: SessionStatus;
}

class Builder {
  readonly params: Params = [];
  constructor(private readonly placeholder: (index: number) => string) {}
  value(value: string | number): string {
    this.params.push(value);
    return this.placeholder(this.params.length);
  }
}

/**
 * The sessions of a window read from the per-session summary (migration 0009: `denial_sessions` and
 * `denial_session_calls`), with the figures of core/figures.ts, without grouping their denials. A session counts
 * whole when every denial it has lies inside the window and it has one host and one set of labels (so the host and
 * label filters take all of it or none of it): its figures over the window are its summary's. The others that have
 * denials in the window (straddling an edge, several hosts or label sets) are returned as `rest`, for the caller to
 * count from the denials as before. A tool filter narrows denials inside a session: the summary does not answer it
 * (the caller does not ask). `eventOnly`: the sessions with a figure event in the window and no denial near it
 * (no summary row overlaps the window), with the figures their events give.
 */
export async function summarySessions(options: { reader: SummaryReader; filters: SummaryFilter }): Promise<{
  rows: SummarizedSession[];
  rest: string[];
  eventOnly: SummarizedSession[];
}> {
  const { reader, filters } = options;
  const builder = new Builder(reader.placeholder);
  const parts: string[] = [];
  if (filters.since !== undefined) parts.push(`last_at >= ${builder.value(filters.since)}`);
  if (filters.until !== undefined) parts.push(`first_at < ${builder.value(filters.until)}`);
  const eventsBuilder = new Builder(reader.placeholder);
  const eventParts: string[] = [];
  if (filters.since !== undefined) eventParts.push(`at >= ${eventsBuilder.value(filters.since)}`);
  if (filters.until !== undefined) eventParts.push(`at < ${eventsBuilder.value(filters.until)}`);
  eventParts.push(`kind IN (${FIGURE_EVENT_KINDS.map((kind) => eventsBuilder.value(kind)).join(", ")})`);
  const [sessions, eventRows] = await Promise.all([
    reader.all(
      `SELECT session_id, denials, saved_calls, patterns, loop_tools, first_at, last_at, host_min, host_max,
        labels_min, labels_max, parent_session_id FROM denial_sessions${parts.length === 0 ? "" : ` WHERE ${parts.join(" AND ")}`}`,
      builder.params,
    ),
    reader.all(
      `SELECT session_id, kind, tool, at, detail FROM audit_events WHERE ${eventParts.join(" AND ")} ORDER BY at, id`,
      eventsBuilder.params,
    ),
  ]);
  const events = new Map<string, FigureEvent[]>();
  for (const row of eventRows) {
    const detail = reader.decodeJson(row.detail);
    const id = String(row.session_id);
    const list = events.get(id) ?? [];
    events.set(id, list);
    list.push({
      kind: String(row.kind),
      tool: row.tool == null ? null : String(row.tool),
      at: Number(row.at),
      detail: detail !== null && typeof detail === "object" ? (detail as Record<string, unknown>) : {},
    });
  }
  const whole: Record<string, unknown>[] = [];
  const rest: string[] = [];
  const overlapping = new Set<string>();
  for (const session of sessions) {
    overlapping.add(String(session.session_id));
    const taken = takes(session, filters);
    if (taken === "none") continue;
    if (taken === "all") whole.push(session);
    else rest.push(String(session.session_id));
  }
  // the calls of sessions whose loop verdicts may name the same tool as a repeated call (one loop, not two)
  const withVerdicts = new Set(
    whole
      .map((session) => String(session.session_id))
      .filter((id) => events.get(id)?.some((event) => event.kind === "loop.detected")),
  );
  const loopCalls = await repeatedCalls(reader, [...withVerdicts]);
  const rows = whole.map((session) => {
    const id = String(session.session_id);
    const own = events.get(id) ?? [];
    const denials = Number(session.denials);
    const loops = withVerdicts.has(id)
      ? sessionLoops({ events: own, deniedCalls: loopCalls.get(id) ?? [] }).length
      : Number(session.loop_tools);
    // every denial of a pattern after its first: denials minus distinct patterns, given as one group of that size
    // plus one, so a recorded session summary still wins as core/figures.ts says
    const waste = sessionWaste({
      events: own,
      deniedPatterns: [{ tool: "", pattern: "", count: denials - Number(session.patterns) + 1 }],
    });
    const host = String(session.host_max);
    return {
      sessionId: id,
      host: host === "" ? null : host,
      parentSessionId: session.parent_session_id == null ? null : String(session.parent_session_id),
      firstAt: Number(session.first_at),
      lastAt: Number(session.last_at),
      denials,
      loops,
      aborts: own.filter((event) => event.kind === "run.aborted").length,
      wastedCalls: waste.calls,
      wastedTokens: waste.tokens,
      savedCalls: Number(session.saved_calls),
      status: sessionStatus({ events: own, loops }),
    } satisfies SummarizedSession;
  });
  const eventOnly: SummarizedSession[] = [];
  for (const [id, own] of events) {
    if (overlapping.has(id)) continue;
    const loops = sessionLoops({ events: own, deniedCalls: [] }).length;
    const waste = sessionWaste({ events: own, deniedPatterns: [] });
    eventOnly.push({
      sessionId: id,
      host: null,
      parentSessionId: null,
      firstAt: own[0]!.at,
      lastAt: own[own.length - 1]!.at,
      denials: 0,
      loops,
      aborts: own.filter((event) => event.kind === "run.aborted").length,
      wastedCalls: waste.calls,
      wastedTokens: waste.tokens,
      savedCalls: 0,
      status: sessionStatus({ events: own, loops }),
    });
  }
  return { rows, rest, eventOnly };
}

/** whether the filters take all of a summarized session's denials, none, or some (then it is counted from denials) */
function takes(session: Record<string, unknown>, filters: SummaryFilter): "all" | "none" | "some" {
  let taken: "all" | "some" =
    (filters.since === undefined || Number(session.first_at) >= filters.since) &&
    (filters.until === undefined || Number(session.last_at) < filters.until)
      ? "all"
      : "some";
  if (filters.host !== undefined) {
    if (session.host_min !== session.host_max) taken = "some";
    else if (session.host_max !== filters.host) return "none";
  }
  if (filters.label !== undefined) {
    if (session.labels_min !== session.labels_max) return "some";
    const value = labelValue(String(session.labels_max), filters.label.key);
    // a label that is not a string is compared by each engine its own way: leave it to the denials
    if (value === undefined) return "none";
    if (typeof value !== "string") return "some";
    if (value !== filters.label.value) return "none";
  }
  return taken;
}

function labelValue(text: string, key: string): unknown {
  try {
    const labels = JSON.parse(text) as unknown;
    if (labels === null || typeof labels !== "object" || Array.isArray(labels)) return null;
    return Object.hasOwn(labels, key) ? (labels as Record<string, unknown>)[key] : undefined;
  } catch {
    return null;
  }
}

/** the calls of these sessions denied REPEATED_DENIAL_LOOP times or more */
async function repeatedCalls(reader: SummaryReader, sessionIds: string[]) {
  const calls = new Map<string, { agentId: string | null; tool: string; signature: string; count: number }[]>();
  for (let start = 0; start < sessionIds.length; start += 500) {
    const builder = new Builder(reader.placeholder);
    const ids = sessionIds.slice(start, start + 500).map((id) => builder.value(id));
    const rows = await reader.all(
      `SELECT session_id, agent, tool, signature, total FROM denial_session_calls
       WHERE session_id IN (${ids.join(", ")}) AND total >= ${builder.value(REPEATED_DENIAL_LOOP)}`,
      builder.params,
    );
    for (const row of rows) {
      const id = String(row.session_id);
      const list = calls.get(id) ?? [];
      calls.set(id, list);
      list.push({
        agentId: row.agent === "" ? null : String(row.agent),
        tool: String(row.tool),
        signature: String(row.signature),
        count: Number(row.total),
      });
    }
  }
  return calls;
}

/** adds the distinct tools and subagents of each summarized session shown (every denial of it is in the window) */
export async function fillCallCounts(
  reader: SummaryReader,
  rows: { sessionId: string; tools: number; subagents: number }[],
): Promise<void> {
  if (rows.length === 0) return;
  const builder = new Builder(reader.placeholder);
  const ids = rows.map((row) => builder.value(row.sessionId));
  const counted = await reader.all(
    `SELECT session_id, count(DISTINCT tool) AS tools, count(DISTINCT NULLIF(agent, '')) AS subagents
     FROM denial_session_calls WHERE session_id IN (${ids.join(", ")}) GROUP BY session_id`,
    builder.params,
  );
  const byId = new Map(counted.map((row) => [String(row.session_id), row]));
  for (const row of rows) {
    const found = byId.get(row.sessionId);
    row.tools = Number(found?.tools ?? 0);
    row.subagents = Number(found?.subagents ?? 0);
  }
}

/** at most this many sessions of a window are counted from their denials beside the summary (IN lists) */
export const SUMMARY_REST_LIMIT = 2_000;
