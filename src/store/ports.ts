import type { Figures, SessionStatus } from "../core/figures.js";
import type { AuditEvent, DenialRecord } from "../core/records.js";
import type { SessionState } from "../core/state.js";
import type { ToolFamily } from "../core/tool-families.js";
import type { StoredSessionInfo } from "./session-info-row.js";

export type { StoredSessionInfo } from "./session-info-row.js";

/**
 * The two storage ports. Every implementation (memory, SQLite, Postgres) passes the shared contract suite in
 * test/store/contract.ts. Records arrive already redacted from the core; stores never see raw inputs.
 */

/** A denial record as stored: the record plus the store's monotonic row id (for `tail`). */
export interface StoredDenial extends DenialRecord {
  id: number;
  canonicalTool: string;
  toolFamily: ToolFamily;
}

/** A stored audit event (escalations, grants, nudges, aborts, loop verdicts, summaries). */
export interface StoredAuditEvent extends AuditEvent {
  id: number;
}

export interface DenialQuery {
  /** epoch ms, inclusive */
  since?: number;
  /** epoch ms, exclusive */
  until?: number;
  sessionId?: string;
  /** a tool, canonically or as any host names it (`shell`, `Bash`, `exec_command`): matches by canonical tool */
  tool?: string;
  /** only rows with a store id greater than this (for following new rows) */
  afterId?: number;
  /** newest rows when set with `order: "desc"`; default ascending by id */
  order?: "asc" | "desc";
  limit?: number;
}

export interface ReportQuery {
  since?: number;
  until?: number;
  sessionId?: string;
  /** a tool, canonically or as any host names it: matches by canonical tool (see DenialQuery.tool) */
  tool?: string;
  /** rows per ranked list (10) */
  top?: number;
}

export interface SessionIdQuery {
  prefix: string;
  limit: number;
}

/** Denials of one canonical tool (core/tool-families.ts) across hosts. */
export interface CountByTool {
  /** the canonical tool: `shell` for every host's shell tool */
  tool: string;
  count: number;
  /** the host tool names counted under it, in byte order (`["Bash", "exec_command"]`) */
  hostTools: string[];
}

export interface CountBySignature {
  /** the host's tool name (a signature is one host's call) */
  tool: string;
  canonicalTool: string;
  signature: string;
  count: number;
  /** one stored row with this signature, for suggesting an allow rule */
  sample: { inputSummary: string; input: unknown };
  /** whether an explicit deny rule denied it (its first denial in the window): then no allow rule can help */
  deniedByRule: boolean;
  /** the source of its first denial in the window (`rule`, `headless`, `sandbox`, ...) */
  source: string;
  /** that deny rule's text, or null (not denied by a rule, or the host did not name the rule) */
  denyRule: string | null;
}

/** The denials of one pattern (a call family: `rm`, `git push`, a directory), its variants folded under it. */
export interface CountByPattern {
  /** the canonical tool: one pattern across hosts (`shell` `rm -rf *`) */
  tool: string;
  pattern: string;
  /** denials summed over every variant */
  count: number;
  /** distinct calls (signatures) of the pattern */
  variantCount: number;
  /** explicit deny rules that denied its variants, most denials first; rule null = a deny rule the host did not name */
  denyRules: { rule: string | null; count: number }[];
  /** the most-denied variants, at most five (PATTERN_VARIANTS) */
  variants: CountBySignature[];
}

export interface CountByDay {
  /** UTC day, YYYY-MM-DD */
  day: string;
  count: number;
}

export interface SessionIncident {
  sessionId: string;
  /** loops as core/figures.ts counts them (toolgate's verdicts and the host's repeated denials alike) */
  loops: number;
  aborts: number;
  denials: number;
  status: SessionStatus;
}

export interface DenialReport {
  total: number;
  sessions: number;
  topTools: CountByTool[];
  topSignatures: CountBySignature[];
  /** patterns ranked by denials, each with its variants and the deny rules that denied them */
  topPatterns: CountByPattern[];
  perDay: CountByDay[];
  /** sessions whose status (core/figures.ts) is not clean: loops, aborts, blocked calls; most incidents first */
  incidents: SessionIncident[];
  /** the figures of core/figures.ts over the window: loops, wasted and saved calls, sessions per status */
  figures: Figures;
}

/**
 * An audit event on its way to a store, with an optional delivery identity: the spooled store mints one per event
 * before the first attempt, so a batch delivered twice is stored once. Events without a key are always stored.
 * The key is not part of the event (`queryEvents` does not return it).
 */
export type KeyedAuditEvent = AuditEvent & { eventKey?: string };

/**
 * A denial record's identity: the session, its `seq`, its `at` and its `toolUseId` (see denialIdentity). `seq`
 * alone is not enough: numbering restarts from 1 when a session's state is lost or kept elsewhere during an outage
 * (issue 12, class 2), and the records of both numberings must all be kept.
 */
export interface DenialStore {
  /**
   * Appends records in one batch (one transaction). Idempotent on the record identity (session, seq, at,
   * tool-use id): replays never duplicate, and records of two numbering epochs of one session are all kept.
   */
  append(records: readonly DenialRecord[]): Promise<void>;
  /**
   * Appends audit events in one batch; an event whose `eventKey` is already stored is skipped. A `session.info`
   * event is stored as its session's one description (`sessionInfo`), not as an event: the first value of each fact
   * wins.
   */
  appendEvents(events: readonly KeyedAuditEvent[]): Promise<void>;
  query(query?: DenialQuery): Promise<StoredDenial[]>;
  queryEvents(query?: DenialQuery & { kinds?: readonly string[] }): Promise<StoredAuditEvent[]>;
  /** aggregates for `toolgate report` */
  report(query?: ReportQuery): Promise<DenialReport>;
  /**
   * The distinct session ids of stored denials and audit events that start with `prefix` (case-sensitive), in
   * byte order, at most `limit`: how `report --session` and `tail --session` resolve the 8-character prefix they
   * print to one session.
   */
  sessionIds(query: SessionIdQuery): Promise<string[]>;
  /** The stored descriptions (project, first prompt line) of the sessions given that have one, by session id. */
  sessionInfo(sessionIds: readonly string[]): Promise<StoredSessionInfo[]>;
  /**
   * Re-applies redaction to every stored row: `redact` returns the new record (or the same one). Returns the
   * number of rows changed.
   */
  scrub(redact: (record: DenialRecord) => DenialRecord): Promise<number>;
  /**
   * Re-applies redaction to every stored session description (`session_info`: the project and the first prompt
   * line, where a pasted key is likeliest): `redactText` returns the new text (or the same). Returns the number of
   * sessions whose description changed.
   */
  scrubSessionInfo(redactText: (text: string) => string): Promise<number>;
  /** Deletes records and events older than `before` (epoch ms). Returns the number of records deleted. */
  prune(before: number): Promise<{ denials: number; events: number }>;
  close(): Promise<void>;
}

/** A session state with the store's version: 1 after the first write, +1 per update. */
export interface VersionedState<S = SessionState> {
  state: S;
  version: number;
}

/**
 * Atomic read-modify-write of a session's reducer state across processes. `fn` may run more than once when an
 * implementation retries after a conflict, so it must be pure (the core's `step` is); use the value of the
 * committed call only.
 *
 * Failures are ToolgateErrors the caller turns into its fail-closed answer: `STORE_UNAVAILABLE` (the store cannot
 * be reached or written, or a lock was not granted within the implementation's budget; `data.reason` says which)
 * and `STORE_CORRUPT` when the stored state of the session cannot be read (`data.reason: "state-corrupt"`; the file
 * store moves the bad file aside so the next update starts from no state, and counts can be rebuilt from the
 * session's denial records).
 */
export interface SessionStateStore<S = SessionState> {
  get(sessionId: string): Promise<VersionedState<S> | undefined>;
  update(sessionId: string, fn: (state: S | undefined) => S): Promise<VersionedState<S>>;
  delete(sessionId: string): Promise<void>;
  close(): Promise<void>;
}

/** Both ports from one database (what `openStore` returns). */
export interface Store<S = SessionState> {
  /** where the data lives, for messages (`sqlite:/home/me/.toolgate/toolgate.db`, `postgres://host/db`) */
  readonly location: string;
  readonly denials: DenialStore;
  readonly sessions: SessionStateStore<S>;
  close(): Promise<void>;
}
