import type { Behavior, Decision } from "./decision.js";

/**
 * The event vocabulary: every host reports the same few facts about a tool call, translated by its adapter into
 * these plain-data events. Each event carries its own time (`at`, epoch milliseconds) and ids; the reducer never
 * reads a clock.
 */

/** Where a denial came from. Every source counts toward the denial streaks. */
export type DenialSource =
  /** an explicit deny rule (toolgate policy, Claude settings, a host's own rules) */
  | "rule"
  /** a person declined or cancelled at a prompt */
  | "user"
  /** a hook vetoed the call (a PreToolUse deny, a plugin's before-tool throw, ...) */
  | "hook"
  /** an `ask` that became a denial because nobody can answer (a headless `-p` or `run` of the agent) */
  | "headless"
  /** the permission mode denied it (dontAsk, plan) */
  | "mode"
  /** an auto-mode classifier blocked it */
  | "classifier"
  /** the OS or a sandbox refused it (EACCES, EPERM, read-only file system, seccomp), reported by the caller */
  | "sandbox"
  /** the host rejected the input before running it */
  | "validation"
  /** toolgate's own loop detector blocked it */
  | "loop"
  /** toolgate had already stopped the run (an abort), so every later call is refused */
  | "aborted"
  /** toolgate could not check the call (an internal error) and refused it to fail closed */
  | "internal";

export const DENIAL_SOURCES: readonly DenialSource[] = [
  "rule",
  "user",
  "hook",
  "headless",
  "mode",
  "classifier",
  "sandbox",
  "validation",
  "loop",
  "aborted",
  "internal",
];

/** Denials of an `ask` (nobody or a person said no) are the only ones a grant may ever cover. */
export const GRANTABLE_SOURCES: ReadonlySet<DenialSource> = new Set<DenialSource>(["user", "headless", "mode"]);

/** What an OS-level failure looked like, as classified by `detect/` (the core never parses output itself). */
export type OsDenialKind = "sandbox-filesystem" | "sandbox-network" | "os-permission";

/** One tool call as the host saw it. `signature`, `pattern` and `summary` are filled by the edge when absent. */
export interface ToolCall {
  /** the host's id for this call (`tool_use_id`, `callID`, ...) */
  toolUseId: string;
  /** the tool's name as the host names it (`Bash`, `bash`, `mcp__github__create_issue`) */
  tool: string;
  /** the raw input; it never leaves the core unredacted */
  input: unknown;
  /** stable identity of this exact call (tool + canonical, normalised input); see `core/signature.ts` */
  signature?: string;
  /** the family this call belongs to for escalation and grants (`rm`, `git push`, `src/secrets/`) */
  pattern?: string;
  /** a short redacted description for people and the model */
  summary?: string;
  /** the input with secrets redacted (the edge computes it once per call; records keep only this) */
  redactedInput?: unknown;
}

interface EventBase {
  /** event time, epoch milliseconds */
  at: number;
  sessionId: string;
  /** the subagent that made the call; absent for the main agent */
  agentId?: string;
}

/**
 * The tokens of the model request that produced each call, by call id (`toolUseId`), as a host's transcript records
 * them (core/call-tokens.ts); a request that produced several calls is counted on one of them.
 */
export type CallTokens = Readonly<Record<string, number>>;

export interface SessionEndedEvent extends EventBase {
  type: "session.ended";
  /** tokens of the calls the host's transcript showed since the last time it named any */
  callTokens?: CallTokens;
}
/** A real user message. Status churn (busy/idle) is never a turn. */
export interface TurnStartedEvent extends EventBase {
  type: "turn.started";
  /** the person's prompt as the host sent it (raw: the core keeps only its redacted, bounded first line) */
  prompt?: string;
  /** the session's working directory (the project) as the host names it */
  project?: string;
}
export interface TurnEndedEvent extends EventBase {
  type: "turn.ended";
  /** a turn that errored or was cancelled still flushes its denial records */
  outcome?: "completed" | "error" | "cancelled";
  /** tokens of the calls the host's transcript showed this turn (core/call-tokens.ts) */
  callTokens?: CallTokens;
}
/**
 * What a policy said about a call, evaluated against the state this very step runs on (so the check and the count
 * of a call commit together). `denialSource` says how a deny is recorded.
 */
export interface CallVerdict {
  behavior: Behavior;
  /** what decided: a policy rule, a session grant, the permission mode, or the default (no rule matched) */
  decidedBy: Decision["source"];
  reason: string;
  /** the rule that decided, as written */
  rule?: string;
  /** for a deny: `rule`, `mode`, or `headless` (an ask nobody can answer) */
  denialSource?: DenialSource;
}

export interface CallRequestedEvent extends EventBase {
  type: "call.requested";
  call: ToolCall;
  /** the policy's verdict; without one only the loop detector and an earlier abort can refuse the call */
  verdict?: CallVerdict;
}
export interface CallAllowedEvent extends EventBase {
  type: "call.allowed";
  call: ToolCall;
}
export interface CallDeniedEvent extends EventBase {
  type: "call.denied";
  call: ToolCall;
  source: DenialSource;
  /** the host's or the rule's reason, as given */
  reason: string;
  /** the matched rule, as written (`Bash(rm *)`) */
  rule?: string;
  /** the host's own discriminator when it gives one (Claude's `decision_reason_type`) */
  decisionReasonType?: string;
  /** set for sandbox denials: what the classifier saw */
  osDenial?: { kind: OsDenialKind; evidence: string; path?: string };
}
export interface CallSucceededEvent extends EventBase {
  type: "call.succeeded";
  call: ToolCall;
}
export interface CallFailedEvent extends EventBase {
  type: "call.failed";
  call: ToolCall;
  /** the failure text (normalised by the core before comparison) */
  error: string;
  exitCode?: number;
  /** set when `detect/` classified the failure as an OS or sandbox denial; such failures count for nudges */
  osDenial?: { kind: OsDenialKind; evidence: string; path?: string };
}
export interface SubagentStartedEvent extends EventBase {
  type: "subagent.started";
  agentId: string;
  agentType?: string;
}
export interface SubagentStoppedEvent extends EventBase {
  type: "subagent.stopped";
  agentId: string;
  /**
   * the tokens per call id the subagent's own transcript records (core/call-tokens.ts): it shows only the
   * subagent's calls, so only the waiting calls it names stop waiting
   */
  callTokens?: CallTokens;
}
/** A person's answer to an `offer-grant` effect. Nothing else can create a grant. */
export interface GrantAnsweredEvent extends EventBase {
  type: "grant.answered";
  offerId: string;
  accepted: boolean;
  /** who answered; recorded with the grant */
  answeredBy?: string;
}
export interface GrantRevokedEvent extends EventBase {
  type: "grant.revoked";
  grantId: string;
}

export type ToolgateEvent =
  | SessionEndedEvent
  | TurnStartedEvent
  | TurnEndedEvent
  | CallRequestedEvent
  | CallAllowedEvent
  | CallDeniedEvent
  | CallSucceededEvent
  | CallFailedEvent
  | SubagentStartedEvent
  | SubagentStoppedEvent
  | GrantAnsweredEvent
  | GrantRevokedEvent;

export type ToolgateEventType = ToolgateEvent["type"];
