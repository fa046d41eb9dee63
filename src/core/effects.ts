import type { Decision } from "./decision.js";
import type { AuditEvent, DenialRecord } from "./records.js";

/** What a session grant covers. Computed as the minimum scope over the repeated requests. */
export interface GrantScope {
  tool: string;
  /** `exact` call, command `prefix`, smallest common `directory`, or the whole `tool` (only when configured) */
  kind: "exact" | "prefix" | "directory" | "domain" | "tool";
  /** the rule that expresses the grant, in Claude Code syntax: `Bash(git status)`, `Read(/repo/src/**)`, `Bash` */
  rule: string;
  /** what a person reads in the offer: `Bash commands starting with "git status"` */
  description: string;
}

export interface Grant {
  id: string;
  scope: GrantScope;
  /** the session it lives in; grants never outlive their session unless a person chose "always" at the host */
  sessionId: string;
  grantedAt: number;
  answeredBy?: string;
  /** the pattern whose streak earned the offer */
  pattern: string;
}

export type EscalationStage = "soft" | "escalated" | "hard";

/** Text to add to the host's denial message (or to the tool result) for the model. */
export interface GuidanceEffect {
  type: "guidance";
  toolUseId: string;
  tool: string;
  stage: EscalationStage;
  text: string;
}

/** A one-off note to the model after repeated denials or OS-permission failures. Never changes a decision. */
export interface NudgeEffect {
  type: "nudge";
  reason: "denials" | "os-permission";
  count: number;
  text: string;
}

/** Interactive escalation: ask the person whether to grant the minimum scope for this session. */
export interface OfferGrantEffect {
  type: "offer-grant";
  offerId: string;
  tool: string;
  pattern: string;
  count: number;
  scope: GrantScope;
  /** the question to show the person */
  question: string;
}

/** Headless `fallback` (or a declined grant): the capability is unavailable in this run. */
export interface FallbackEffect {
  type: "fallback";
  toolUseId: string;
  tool: string;
  text: string;
}

/** Headless `skip`: tell the model to skip the step. */
export interface SkipEffect {
  type: "skip";
  toolUseId: string;
  tool: string;
  text: string;
}

/** Stop the run. The host surfaces `error` to the user and exits non-zero. */
export interface AbortEffect {
  type: "abort";
  tool: string;
  toolUseId?: string;
  count: number;
  signature: string;
  /** the user-facing error: names the tool, the count, the denied call and what would allow it */
  error: string;
  /** the text for the model, when the host can still deliver one */
  text: string;
  reason: "denials" | "loop" | "tree-budget";
  /** set on the abort repeated for a call made after the run was stopped (same error and text as the first) */
  repeat?: boolean;
}

/** toolgate itself blocks this call (loop detector at its block level). The host must deny it with `text`. */
export interface BlockEffect {
  type: "block";
  toolUseId: string;
  tool: string;
  text: string;
  reason: "loop";
}

/**
 * The outcome of a `call.requested` step: the one decision for the call, after an earlier abort, the loop detector
 * and the policy's verdict were applied in that order. A deny was already counted and recorded in the same step.
 */
export interface DecisionEffect {
  type: "decision";
  toolUseId: string;
  tool: string;
  decision: Decision;
}

/** A loop verdict below block level: `observe` is audit only, `steer` carries text for the model. */
export interface LoopEffect {
  type: "loop";
  level: "observe" | "steer";
  kind: "identical-call" | "cycle" | "same-error";
  tool: string;
  toolUseId: string;
  repeats: number;
  text?: string;
}

/** A denial record was created. Hosts that need records immediately (stores) take them here. */
export interface RecordEffect {
  type: "record";
  record: DenialRecord;
}

/** An audit event (escalation, grant, nudge, abort, loop verdict, session summary). */
export interface AuditEffect {
  type: "audit";
  event: AuditEvent;
}

/**
 * Per-turn batch for per-denial hooks: the records since the last flush (the high-water mark), emitted when a turn
 * ends, errors, is cancelled, or the session ends. `lost` counts records evicted from the buffer before they could
 * be flushed (a lower bound, as in agent-code).
 */
export interface FlushEffect {
  type: "flush";
  reason: "turn-ended" | "turn-error" | "turn-cancelled" | "subagent-stopped" | "session-ended";
  records: DenialRecord[];
  lost: number;
  highWaterMark: number;
}

export interface WarningEffect {
  type: "warning";
  code: string;
  message: string;
}

export type Effect =
  | GuidanceEffect
  | NudgeEffect
  | OfferGrantEffect
  | FallbackEffect
  | SkipEffect
  | AbortEffect
  | BlockEffect
  | DecisionEffect
  | LoopEffect
  | RecordEffect
  | AuditEffect
  | FlushEffect
  | WarningEffect;

export type EffectType = Effect["type"];
