import { compileCoreConfig } from "../core/compile-config.js";
import type { CompiledConfig, CoreOptions, CorePorts } from "../core/config.js";
import type { Decision } from "../core/decision.js";
import type { Effect } from "../core/effects.js";
import type { CallVerdict, ToolCall, ToolgateEvent } from "../core/events.js";
import { mayHoldId } from "../core/evicted-ids.js";
import { initialState } from "../core/initial-state.js";
import { sameJsonValue } from "../core/same-json-value.js";
import type { SessionState } from "../core/state.js";
import { step } from "../core/step.js";
import { withCallFacts } from "../core/step-context.js";
import { readableToolName } from "../core/tool-name.js";
import type { RedactOptions } from "../detect/redaction-types.js";
import type { EvaluateOptions, PermissionMode, PolicyDecision, ToolCallInput } from "../policy/policy-types.js";
import { unreadableToolDecision } from "../policy/unreadable-tool.js";
import type { DenialStore, SessionStateStore } from "../store/ports.js";
import { defaultClassifyFailure, type FailureInput, type OsDenial } from "./classify-failure.js";
import { defaultPorts } from "./default-ports.js";
import { errorText } from "./error-text.js";
import { failClosed } from "./fail-closed.js";
import { createLruStateStore } from "./lru-state-store.js";
import { textForModel } from "./text-for-model.js";
import type { DecideOptions, DecideResult, DeniedOptions, GuardSession, GuardSessionOptions } from "./types.js";

/** What the guard needs from a policy: `createPolicy(...)` from the policy layer fits. */
export interface PolicyEvaluator {
  evaluate(call: ToolCallInput, options: EvaluateOptions): PolicyDecision;
  /** whether a session grant could ever let this call through (no deny rule, no `neverGrant`) */
  canGrant?(call: ToolCallInput, options?: EvaluateOptions): boolean;
  /**
   * a policy built on first use: the guard awaits this before any step that may consult the policy (a decision, a
   * refusal that may reach a threshold and offer a grant, a grant's answer) and never calls `evaluate` or `canGrant`
   * before. It resolves to the policy built, whose warnings are emitted once per session like `GuardOptions.warnings`
   * from then on. A rejection fails that step as an error (a decision: a deny).
   */
  prepare?(): Promise<{ readonly warnings: readonly { code: string; message: string }[] }>;
}

/** Receives every step's effects (records, audit events, flushes, nudges, aborts): stores, hooks, logs. */
export interface AuditSink {
  deliver(effects: readonly Effect[], session: { sessionId: string; state: SessionState }): Promise<void> | void;
}

export interface GuardOptions {
  /** escalation, nudge and loop options (validated) */
  core?: CoreOptions;
  /** problems found while loading config; emitted once per session as warning effects */
  warnings?: { code: string; message: string }[];
  /**
   * toolgate's own policy; without one, `decide` objects only to a tool name it cannot read, and only host-reported
   * denials are counted
   */
  policy?: PolicyEvaluator;
  /** where session states live; an in-process LRU store by default */
  stateStore?: SessionStateStore;
  /** where the sinks write records, so a session can tell which calls were already recorded (hook processes) */
  denialStore?: Pick<DenialStore, "query">;
  sinks?: AuditSink[];
  /**
   * how long a step waits for its sink deliveries before answering (0: it never waits; the effects are already
   * committed with the state, and deliveries continue in the background until `drain()`)
   */
  sinkWaitMs?: number;
  clock?: () => number;
  /** redaction options (extension patterns, keyed hash) for the default ports; see detect-node/redact-options */
  redaction?: RedactOptions;
  ports?: Partial<CorePorts>;
  /** classifies a failed call's output as an OS or sandbox denial (detect/'s classifier by default) */
  classifyFailure?: (input: FailureInput) => OsDenial | undefined;
  /** internal errors (fail-closed decisions, failing sinks); default: one line on stderr */
  onError?: (error: unknown, where: string) => void;
}

export interface Guard {
  readonly config: CompiledConfig;
  session(sessionId: string, options: GuardSessionOptions): GuardSession;
  /** waits for sink deliveries still under way (call before a short-lived process exits) */
  drain(): Promise<void>;
}

export function createGuard(options: GuardOptions = {}): Guard {
  const callPorts = defaultPorts(options.redaction === undefined ? {} : { redaction: options.redaction });
  const ports: CorePorts = { ...callPorts, ...options.ports };
  const { policy } = options;
  const canGrant = policy?.canGrant?.bind(policy);
  /** false while a policy built on demand is not built (`prepare`): nothing may ask it then */
  let policyBuilt = policy?.prepare === undefined;
  const scopeOf = ports.grantScope;
  // never offer a grant the policy would ignore (a deny rule or `neverGrant` matches one of the calls, decided on
  // the newest call as the host sent it), nor one whose rule or description would carry a secret into the offer,
  // the state and the audit events (found in them, or in the inputs they were built from: redacted in one walk)
  ports.grantScope = (request) => {
    // a policy built on demand that could not be built allows no grant (nor is it asked)
    if (!policyBuilt) return undefined;
    if (canGrant !== undefined && !request.inputs.every((input) => canGrant({ tool: request.tool, input }))) {
      return undefined;
    }
    const scope = scopeOf(request);
    if (scope === undefined) return undefined;
    const [, rule, description] = ports.redactValue([request.inputs, scope.rule, scope.description]) as unknown[];
    return rule === scope.rule && description === scope.description ? scope : undefined;
  };
  const config = compileCoreConfig({
    ports,
    ...(options.core === undefined ? {} : { options: options.core }),
    ...(options.warnings === undefined ? {} : { warnings: options.warnings }),
  });
  const stateStore = options.stateStore ?? createLruStateStore();
  const sinks = options.sinks ?? [];
  const sinkWaitMs = options.sinkWaitMs ?? 0;
  const clock = options.clock ?? Date.now;
  const onError =
    options.onError ??
    ((error: unknown, where: string) => {
      process.stderr.write(`toolgate: ${where}: ${errorText(error)}\n`);
    });
  /** the config steps run with: the policy's warnings join the config's once a policy built on demand is built */
  let stepConfig = config;
  let preparing: Promise<void> | undefined;
  let buildFailureReported = false;
  /**
   * Builds a policy built on demand, once (a no-op for any other). A policy that cannot be built fails a decision
   * (`decision`: it throws, and the decision is a deny that names the cause); any other step goes on without it, so
   * a refusal is still recorded, and no grant is offered (`canGrant` is false for a policy not built).
   */
  async function preparePolicy(decision: boolean): Promise<void> {
    const prepare = policy?.prepare;
    if (prepare === undefined) return;
    preparing ??= prepare.call(policy).then(({ warnings }) => {
      policyBuilt = true;
      if (warnings.length > 0) stepConfig = { ...config, warnings: [...config.warnings, ...warnings] };
    });
    try {
      await preparing;
    } catch (error) {
      // said once: by the decision it fails (`decide` reports its error), or here
      const said = buildFailureReported;
      buildFailureReported = true;
      if (decision) throw error;
      if (!said) onError(error, "building the policy (refusals are recorded without it, and no grant is offered)");
    }
  }
  const pending = new Set<Promise<void>>();
  const classifyFailure = options.classifyFailure ?? defaultClassifyFailure;

  async function deliver(effects: Effect[], sessionId: string, state: SessionState): Promise<void> {
    if (sinks.length === 0 || effects.length === 0) return;
    const delivery = Promise.all(
      sinks.map(async (sink) => {
        try {
          await sink.deliver(effects, { sessionId, state });
        } catch (error) {
          onError(error, "audit sink");
        }
      }),
    ).then(() => undefined);
    pending.add(delivery);
    void delivery.finally(() => pending.delete(delivery));
    if (sinkWaitMs <= 0) return;
    let timer: NodeJS.Timeout | undefined;
    const wait = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, sinkWaitMs);
    });
    await Promise.race([delivery, wait]);
    clearTimeout(timer);
  }

  /** The policy's verdict on a call, against the state the step will run on. */
  function verdictFor(call: ToolCall, state: SessionState, decideOptions: DecideOptions): CallVerdict | undefined {
    // a tool name toolgate cannot read is refused even where the host's own rules decide (no policy here)
    const unreadable = unreadableToolDecision(call.tool);
    const unanswered = decideOptions.unanswered;
    if (policy === undefined && unreadable === undefined) return unanswered && unansweredVerdict(unanswered.reason);
    const cannotAsk = decideOptions.cannotAsk === true;
    const decision =
      unreadable ??
      (policy as PolicyEvaluator).evaluate(
        { tool: call.tool, input: call.input, ...shellOf(call) },
        {
          interactive: cannotAsk ? false : state.interactive,
          grants: state.grants.map((grant) => grant.scope.rule),
          ...(decideOptions.mode === undefined ? {} : { mode: decideOptions.mode as PermissionMode }),
        },
      );
    // a host that prompts (or auto-denies and reports it) for asks itself keeps them asks; one that cannot ask
    // keeps only those no rule made (its own defaults decide them), and a rule's ask is a headless denial here
    if (unanswered !== undefined && decision.behavior !== "deny" && decision.source !== "grant") {
      return unansweredVerdict(unanswered.reason);
    }
    const hostAsk =
      decideOptions.hostAsks === true &&
      decision.denialSource === "headless" &&
      !(cannotAsk && decision.rule !== undefined);
    const verdict: CallVerdict = {
      behavior: hostAsk ? "ask" : decision.behavior,
      decidedBy: decision.source,
      reason: decision.reason,
    };
    if (decision.rule !== undefined) verdict.rule = decision.rule;
    if (!hostAsk && decision.denialSource !== undefined) verdict.denialSource = decision.denialSource;
    return verdict;
  }

  /** the host's own question about a call that nobody can answer: a headless denial no rule made */
  function unansweredVerdict(reason: string): CallVerdict {
    return { behavior: "deny", decidedBy: "default", reason, denialSource: "headless" };
  }

  function shellOf(call: ToolCall): { shell?: NonNullable<ReturnType<typeof callPorts.shellOf>> } {
    const shell = callPorts.shellOf(call.tool, call.input);
    return shell === undefined ? {} : { shell };
  }

  function session(sessionId: string, sessionOptions: GuardSessionOptions): GuardSession {
    const facts = new Map<string, ToolCall>();
    let latest: SessionState | undefined;

    function fresh(): SessionState {
      return initialState({ sessionId, ...sessionOptions });
    }

    /**
     * The call with its facts, computed once per call so every event of a call agrees. Known by its id only while the
     * tool and the input are the same: a host may reuse an id (an agent's `call_0` every turn, a streamed call
     * announced before its input is complete), and a call is always judged on its own input.
     */
    function withFacts(rawCall: ToolCall): ToolCall {
      // a tool name with characters toolgate cannot read is recorded with U+FFFD in their place (and refused)
      const tool = readableToolName(rawCall.tool);
      const call = tool === rawCall.tool ? rawCall : { ...rawCall, tool };
      const known = facts.get(call.toolUseId);
      if (known !== undefined && known.tool === call.tool && sameJsonValue(known.input, call.input)) return known;
      const full = withCallFacts(call, config.ports);
      facts.set(call.toolUseId, full);
      if (facts.size > 256) facts.delete(facts.keys().next().value as string);
      return full;
    }

    /** One event, one reducer step, one state transaction; then the effects go to the sinks. */
    function apply(event: ToolgateEvent | ((state: SessionState) => ToolgateEvent)): Promise<Effect[]> {
      return applyAll([event]);
    }

    /**
     * Events in order, one reducer step each, all in one state transaction; then the effects go to the sinks. An
     * event given as a function of the state may return undefined: no step for it.
     */
    async function applyAll(
      events: readonly (ToolgateEvent | ((state: SessionState) => ToolgateEvent | undefined))[],
    ): Promise<Effect[]> {
      return (await applySteps(events)).flat();
    }

    /** `applyAll`, with each event's effects apart (in the order of `events`; empty for an event with no step). */
    async function applySteps(
      events: readonly (ToolgateEvent | ((state: SessionState) => ToolgateEvent | undefined))[],
      /** the steps end in a decision: a policy that cannot be built fails them (the decision is then a deny) */
      decision = false,
    ): Promise<Effect[][]> {
      let steps: Effect[][] = [];
      if (decision || mayConsultPolicy(events, () => sessionOptions.interactive)) await preparePolicy(decision);
      const committed = await stateStore.update(sessionId, (current) => {
        let state = current ?? fresh();
        // the update may run again (a lock taken over): each run starts from what the store holds
        steps = [];
        for (const event of events) {
          const next = typeof event === "function" ? event(state) : event;
          if (next === undefined) {
            steps.push([]);
            continue;
          }
          const result = step(state, next, stepConfig);
          state = result.state;
          steps.push(result.effects);
        }
        return state;
      });
      latest = committed.state;
      await deliver(steps.flat(), sessionId, committed.state);
      return steps;
    }

    /**
     * The denials of `denials` not yet recorded in this session, as events checked again inside the transaction
     * against the state it commits to (a call another process recorded meanwhile, or one named twice, is recorded
     * once). The denial store is read only when the state cannot tell (`recordedCallIds`).
     */
    async function unrecordedDenialEvents(
      denials: readonly { call: ToolCall; options: DeniedOptions }[],
    ): Promise<((state: SessionState) => ToolgateEvent | undefined)[]> {
      if (denials.length === 0) return [];
      const recorded = await recordedCallIds(denials.map(({ call }) => call.toolUseId));
      return denials
        .filter(({ call }) => !recorded.has(call.toolUseId))
        .map(({ call, options: denied }) => {
          const event = deniedEvent(call, denied);
          return (state: SessionState) =>
            state.records.some((record) => record.toolUseId === call.toolUseId) ? undefined : event;
        });
    }

    const base = (at: number | undefined, agentId: string | undefined) => ({
      at: at ?? clock(),
      sessionId,
      ...(agentId === undefined ? {} : { agentId }),
    });

    async function currentState(): Promise<SessionState> {
      if (latest !== undefined) return latest;
      return (await stateStore.get(sessionId))?.state ?? fresh();
    }

    async function decide(rawCall: ToolCall, decideOptions: DecideOptions = {}): Promise<DecideResult> {
      const common = base(decideOptions.at, decideOptions.agentId);
      let call = rawCall;
      try {
        call = withFacts(rawCall);
        // the host's earlier refusals first, then the call: one transaction, the call's step sees their counts
        const earlier = await unrecordedDenialEvents(decideOptions.earlierDenials ?? []);
        const steps = await applySteps(
          [
            ...earlier,
            (state: SessionState): ToolgateEvent => {
              const verdict = verdictFor(call, state, decideOptions);
              return { type: "call.requested", ...common, call, ...(verdict === undefined ? {} : { verdict }) };
            },
          ],
          true,
        );
        const effects = steps.at(-1) ?? [];
        const decided = effects.find((effect) => effect.type === "decision");
        if (decided === undefined) throw new Error("the reducer returned no decision for a requested call");
        const text = textForModel(effects);
        return { decision: decided.decision, effects, text };
      } catch (error) {
        onError(error, "decide");
        const decision: Decision = failClosed(error, "decide");
        let effects: Effect[] = [];
        try {
          // nothing lost: the refusal is counted and recorded when the state store still answers
          effects = await apply({ type: "call.denied", ...common, call, source: "internal", reason: decision.reason });
        } catch (recordError) {
          onError(recordError, "recording a fail-closed decision");
        }
        return { decision, effects, text: decision.reason };
      }
    }

    function failedEvent(call: ToolCall, failed: Parameters<GuardSession["failed"]>[1]): ToolgateEvent {
      const osDenial =
        failed.osDenial ??
        classifyFailure({
          tool: call.tool,
          ...(failed.exitCode === undefined ? {} : { exitCode: failed.exitCode }),
          ...(failed.stdout === undefined ? {} : { stdout: failed.stdout }),
          ...(failed.stderr === undefined ? {} : { stderr: failed.stderr }),
          output: failed.error,
          ...(failed.sandboxed === undefined ? {} : { sandboxed: failed.sandboxed }),
        });
      return {
        type: "call.failed",
        ...base(failed.at, failed.agentId),
        call: withFacts(call),
        // kept in state for the same-error streak: redacted like everything else that is stored
        error: config.ports.redactText(failed.error),
        ...(failed.exitCode === undefined ? {} : { exitCode: failed.exitCode }),
        ...(osDenial === undefined ? {} : { osDenial }),
      };
    }

    /**
     * Tool-use ids already recorded as denials in this session. Given the `candidates` a caller asks about, the
     * state answers alone when it can tell of each one (`stateTells`; a state that exists: nothing lost with a
     * removed file, and `total` counts each record the reducer ever made). Otherwise the denial store is read too,
     * which on the hook path opens the database.
     */
    async function recordedCallIds(candidates: readonly string[] | undefined): Promise<Set<string>> {
      const stored = latest ?? (await stateStore.get(sessionId))?.state;
      const ids = new Set((stored?.records ?? []).map((record) => record.toolUseId));
      if (candidates !== undefined && stateTells(stored, ids, candidates)) return ids;
      const rows = (await options.denialStore?.query({ sessionId })) ?? [];
      for (const row of rows) ids.add(row.toolUseId);
      return ids;
    }

    function deniedEvent(call: ToolCall, denied: DeniedOptions): ToolgateEvent {
      return {
        type: "call.denied",
        ...base(denied.at, denied.agentId),
        call: withFacts(call),
        source: denied.source,
        reason: denied.reason,
        ...(denied.rule === undefined ? {} : { rule: denied.rule }),
        ...(denied.decisionReasonType === undefined ? {} : { decisionReasonType: denied.decisionReasonType }),
        ...(denied.osDenial === undefined ? {} : { osDenial: denied.osDenial }),
      };
    }

    return {
      id: sessionId,
      decide,
      denied: (call, denied) => apply(deniedEvent(call, denied)),
      async deniedUnlessRecorded(denials) {
        const events = await unrecordedDenialEvents(denials);
        return events.length === 0 ? [] : applyAll(events);
      },
      allowed: (call, callOptions) =>
        apply({ type: "call.allowed", ...base(callOptions?.at, callOptions?.agentId), call: withFacts(call) }),
      succeeded: (call, callOptions) => {
        // a call that ran but whose output shows the OS or a sandbox refused it counts as that denial
        const output = callOptions?.output;
        const osDenial =
          output === undefined || output === ""
            ? undefined
            : classifyFailure({
                tool: call.tool,
                output,
                ...(callOptions?.exitCode === undefined ? {} : { exitCode: callOptions.exitCode }),
              });
        if (osDenial !== undefined) {
          return apply(
            failedEvent(call, {
              error: output as string,
              osDenial,
              ...(callOptions?.exitCode === undefined ? {} : { exitCode: callOptions.exitCode }),
              ...(callOptions?.at === undefined ? {} : { at: callOptions.at }),
              ...(callOptions?.agentId === undefined ? {} : { agentId: callOptions.agentId }),
            }),
          );
        }
        return apply({
          type: "call.succeeded",
          ...base(callOptions?.at, callOptions?.agentId),
          call: withFacts(call),
        });
      },
      failed: (call, failed) => apply(failedEvent(call, failed)),
      turnStarted: (callOptions) =>
        apply({
          type: "turn.started",
          ...base(callOptions?.at, callOptions?.agentId),
          ...(callOptions?.prompt === undefined ? {} : { prompt: callOptions.prompt }),
          ...(callOptions?.project === undefined ? {} : { project: callOptions.project }),
        }),
      turnEnded: (callOptions) =>
        apply({
          type: "turn.ended",
          ...base(callOptions?.at, callOptions?.agentId),
          ...(callOptions?.outcome === undefined ? {} : { outcome: callOptions.outcome }),
          ...(callOptions?.callTokens === undefined ? {} : { callTokens: callOptions.callTokens }),
        }),
      subagentStarted: (agentId, callOptions) =>
        apply({
          type: "subagent.started",
          ...base(callOptions?.at, agentId),
          agentId,
          ...(callOptions?.agentType === undefined ? {} : { agentType: callOptions.agentType }),
        }),
      subagentStopped: (agentId, callOptions) =>
        apply({
          type: "subagent.stopped",
          ...base(callOptions?.at, agentId),
          agentId,
          ...(callOptions?.callTokens === undefined ? {} : { callTokens: callOptions.callTokens }),
        }),
      answerGrant: (offerId, accepted, callOptions) =>
        apply({
          type: "grant.answered",
          ...base(callOptions?.at, callOptions?.agentId),
          offerId,
          accepted,
          ...(callOptions?.answeredBy === undefined ? {} : { answeredBy: callOptions.answeredBy }),
        }),
      revokeGrant: (grantId, callOptions) =>
        apply({ type: "grant.revoked", ...base(callOptions?.at, callOptions?.agentId), grantId }),
      end: (callOptions) =>
        apply({
          type: "session.ended",
          ...base(callOptions?.at, callOptions?.agentId),
          ...(callOptions?.callTokens === undefined ? {} : { callTokens: callOptions.callTokens }),
        }),
      state: currentState,
      recordedCallIds: () => recordedCallIds(undefined),
    };
  }

  return {
    config,
    session,
    async drain() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}

/**
 * Whether a step of these events may consult the policy: a decision (`call.requested`), a grant's answer, and in an
 * interactive session a refusal (a host's, one found later and given as a function of the state, an OS denial): one
 * that reaches its threshold offers a grant there, which must be one the policy allows. A headless session's
 * escalation (fallback, skip, abort) never asks it; nor do a prompt, a turn's or session's end, a call that ran or
 * failed otherwise, a subagent's start or stop. (`interactive`: the host's answer for this event; were the session's
 * state to say otherwise, its threshold would offer no grant, as for a policy that cannot be built.)
 */
function mayConsultPolicy(
  events: readonly (ToolgateEvent | ((state: SessionState) => ToolgateEvent | undefined))[],
  interactive: () => boolean,
): boolean {
  let refusal = false;
  for (const event of events) {
    if (typeof event === "function") refusal = true;
    else if (event.type === "call.requested" || event.type === "grant.answered" || event.type === "grant.revoked")
      return true;
    else if (event.type === "call.denied" || (event.type === "call.failed" && event.osDenial !== undefined))
      refusal = true;
  }
  return refusal && interactive();
}

/**
 * Whether the session's state alone tells which of `candidates` are recorded: it holds each one's record, or it
 * exists and evicted nothing from its buffer, or its filter of evicted ids (core/evicted-ids.ts) shows each candidate
 * it does not hold was never evicted.
 */
function stateTells(
  stored: SessionState | undefined,
  ids: ReadonlySet<string>,
  candidates: readonly string[],
): boolean {
  if (stored === undefined) return candidates.length === 0;
  if (stored.total <= stored.records.length) return true;
  const evicted = stored.evictedIds;
  return candidates.every((id) => ids.has(id) || (evicted !== undefined && !mayHoldId(evicted, id)));
}
