import type { Decision } from "../core/decision.js";
import type { Effect } from "../core/effects.js";
import type { CallTokens, DenialSource, OsDenialKind, ToolCall } from "../core/events.js";
import type { SessionState } from "../core/state.js";

/**
 * The guard's public shape: what adapters call. A guard wires the pure core (reducer), policy and detection to the
 * ports (state store, denial store, audit sinks, clock). Every method resolves with the effects the core produced;
 * the guard has already delivered records and audit events to the stores and sinks (or spooled them).
 */
export interface GuardSessionOptions {
  interactive: boolean;
  host?: string;
  parentSessionId?: string;
  labels?: Record<string, string>;
}

export interface CallOptions {
  agentId?: string;
  /** event time; defaults to the guard's clock */
  at?: number;
}

export interface TurnStartedOptions extends CallOptions {
  /** the person's prompt as the host sent it; the core keeps only its redacted, bounded first line */
  prompt?: string | undefined;
  /** the host's working directory for the session */
  project?: string | undefined;
}

export interface DeniedOptions extends CallOptions {
  source: DenialSource;
  reason: string;
  rule?: string;
  decisionReasonType?: string;
  osDenial?: { kind: OsDenialKind; evidence: string; path?: string };
}

export interface FailedOptions extends CallOptions {
  error: string;
  exitCode?: number;
  /** aggregated output, classified by detect/ for OS-level denials */
  stdout?: string;
  stderr?: string;
  sandboxed?: boolean;
  /** the classification, when the caller already made it (the guard then does not classify again) */
  osDenial?: { kind: OsDenialKind; evidence: string; path?: string };
}

export interface SucceededOptions extends CallOptions {
  /**
   * the call's output: classified once by the guard's OS-denial classifier, and a call whose output shows the OS
   * or a sandbox refused it is counted as that denial (a `call.failed` with `osDenial`)
   */
  output?: string;
  exitCode?: number;
}

export interface DecideOptions extends CallOptions {
  /** the host's permission mode (`default`, `plan`, `dontAsk`, ...) */
  mode?: string;
  /**
   * the host prompts for asks itself (or auto-denies them headless and reports it as a denial, e.g. Claude Code's
   * PermissionRequest): a policy ask stays an ask here instead of becoming a headless deny
   */
  hostAsks?: boolean;
  /**
   * nobody can answer an ask for this call, whatever the session says (a host set never to ask, a headless
   * run): the policy decides it as a headless session would, and an ask a rule made (toolgate's or the
   * host's own) is a headless denial in this same step, even with `hostAsks`. An ask no rule made (toolgate's
   * defaults) stays the host's to make under `hostAsks`: it applies its own defaults and sandbox then.
   */
  cannotAsk?: boolean;
  /**
   * refusals the host made before this call that no event recorded yet (a host's own refusals, read from its
   * rollout): each not already recorded is counted first, in order, in the same state transaction as the call's
   * step, so the call's decision (threshold, escalation, abort) sees them. Their effects go to the sinks; the
   * result's effects and text are the call's own.
   */
  earlierDenials?: readonly { call: ToolCall; options: DeniedOptions }[];
  /**
   * the host is asking a person about this very call and nobody can answer (an SDK app without a prompt): unless
   * toolgate refuses it first (an abort, a loop, a deny rule) or a session grant covers it, it is a headless denial
   * with this reason, in this same step. toolgate's own allow does not answer the host's question.
   */
  unanswered?: { reason: string };
}

/** The result of `decide`: the decision, the effects, and the text to hand the model when it is not an allow. */
export interface DecideResult {
  decision: Decision;
  effects: Effect[];
  /** guidance to append to (or use as) the denial message; empty when allowed with nothing to say */
  text: string;
}

export interface GuardSession {
  readonly id: string;
  /**
   * An earlier abort, the loop detector, then the policy (+ session grants, + mode) for a call about to run, in one
   * reducer step and one state transaction: the check and the count commit together. A `deny` is recorded (source
   * `aborted`, `loop`, `rule`, `mode` or `headless`); an `ask` in a non-interactive session becomes a `deny` with
   * source `headless` unless `hostAsks`. An internal error resolves to a `deny` with source `internal`, never an allow.
   */
  decide(call: ToolCall, options?: DecideOptions): Promise<DecideResult>;
  /** a denial toolgate did not decide itself (user said no, host rule, hook veto, sandbox, ...) */
  denied(call: ToolCall, options: DeniedOptions): Promise<Effect[]>;
  /**
   * The denials a transcript shows (found at a turn's end): each whose call is not already recorded in this session
   * is recorded, in order, in one state transaction and one delivery (the same reducer steps as `denied` for each).
   * The denial store is read only when the session's state cannot tell: it knows some call not, and may not hold
   * every record (no state stored yet, or records evicted from its buffer).
   */
  deniedUnlessRecorded(denials: readonly { call: ToolCall; options: DeniedOptions }[]): Promise<Effect[]>;
  allowed(call: ToolCall, options?: CallOptions): Promise<Effect[]>;
  succeeded(call: ToolCall, options?: SucceededOptions): Promise<Effect[]>;
  failed(call: ToolCall, options: FailedOptions): Promise<Effect[]>;
  /** a real user message; its prompt and the project (working directory) describe the session once (core/session-info.ts) */
  turnStarted(options?: TurnStartedOptions): Promise<Effect[]>;
  /** `callTokens`: the tokens the host's transcript records per call id, for wasted tokens (core/call-tokens.ts) */
  turnEnded(
    options?: CallOptions & { outcome?: "completed" | "error" | "cancelled"; callTokens?: CallTokens },
  ): Promise<Effect[]>;
  subagentStarted(agentId: string, options?: CallOptions & { agentType?: string }): Promise<Effect[]>;
  /** `callTokens`: the tokens the subagent's own transcript records per call id (core/call-tokens.ts) */
  subagentStopped(agentId: string, options?: CallOptions & { callTokens?: CallTokens }): Promise<Effect[]>;
  answerGrant(offerId: string, accepted: boolean, options?: CallOptions & { answeredBy?: string }): Promise<Effect[]>;
  revokeGrant(grantId: string, options?: CallOptions): Promise<Effect[]>;
  end(options?: CallOptions & { callTokens?: CallTokens }): Promise<Effect[]>;
  /** the current reducer state (a copy) */
  state(): Promise<SessionState>;
  /** tool-use ids of the calls already recorded as denials in this session (state buffer and denial store) */
  recordedCallIds(): Promise<Set<string>>;
}
