import { compileCoreConfig } from "../core/compile-config.js";
import type { CompiledConfig, CoreOptions, CorePorts } from "../core/config.js";
import type { Decision } from "../core/decision.js";
import type { Effect } from "../core/effects.js";
import type { ToolCall, ToolgateEvent } from "../core/events.js";
import { initialState } from "../core/initial-state.js";
import type { SessionState } from "../core/state.js";
import { step } from "../core/step.js";
import type { RedactOptions } from "../detect/redaction-types.js";
import type { EvaluateOptions, PermissionMode, PolicyDecision, ToolCallInput } from "../policy/policy-types.js";
import type { SessionStateStore } from "../store/ports.js";
import { defaultClassifyFailure, type FailureInput, type OsDenial } from "./classify-failure.js";
import { defaultPorts } from "./default-ports.js";
import { failClosed } from "./fail-closed.js";
import { createLruStateStore } from "./lru-state-store.js";
import { textForModel } from "./text-for-model.js";
import type { DecideResult, GuardSession, GuardSessionOptions } from "./types.js";

/** What the guard needs from a policy: `createPolicy(...)` from the policy layer fits. */
export interface PolicyEvaluator {
  evaluate(call: ToolCallInput, options: EvaluateOptions): PolicyDecision;
  /** whether a session grant could ever let this call through (no deny rule, no `neverGrant`) */
  canGrant?(call: ToolCallInput, options?: EvaluateOptions): boolean;
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
  /** toolgate's own policy; without one, `decide` never objects and only host-reported denials are counted */
  policy?: PolicyEvaluator;
  /** where session states live; an in-process LRU store by default */
  stateStore?: SessionStateStore;
  sinks?: AuditSink[];
  /** how long a decision waits for sinks before going on without them (250 ms); deliveries continue */
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
  const ports = {
    ...defaultPorts(options.redaction === undefined ? {} : { redaction: options.redaction }),
    ...options.ports,
  };
  const canGrant = options.policy?.canGrant?.bind(options.policy);
  if (canGrant !== undefined) {
    const scopeOf = ports.grantScope;
    // never offer a grant the policy would ignore (a deny rule or `neverGrant` matches one of the calls)
    ports.grantScope = (request) =>
      request.inputs.every((input) => canGrant({ tool: request.tool, input })) ? scopeOf(request) : undefined;
  }
  const config = compileCoreConfig({
    ports,
    ...(options.core === undefined ? {} : { options: options.core }),
    ...(options.warnings === undefined ? {} : { warnings: options.warnings }),
  });
  const stateStore = options.stateStore ?? createLruStateStore();
  const sinks = options.sinks ?? [];
  const sinkWaitMs = options.sinkWaitMs ?? 250;
  const clock = options.clock ?? Date.now;
  const onError =
    options.onError ??
    ((error: unknown, where: string) => {
      process.stderr.write(`toolgate: ${where}: ${error instanceof Error ? error.message : String(error)}\n`);
    });
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
    let timer: NodeJS.Timeout | undefined;
    const wait = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, sinkWaitMs);
    });
    await Promise.race([delivery, wait]);
    clearTimeout(timer);
  }

  function session(sessionId: string, sessionOptions: GuardSessionOptions): GuardSession {
    const facts = new Map<string, ToolCall>();
    let latest: SessionState | undefined;

    function fresh(): SessionState {
      return initialState({ sessionId, ...sessionOptions });
    }

    /** Fills signature/pattern/summary once per call id, so every event of a call agrees. */
    function withFacts(call: ToolCall): ToolCall {
      const known = facts.get(call.toolUseId);
      if (known !== undefined && known.tool === call.tool) return known;
      const described = config.ports.describeCall(call.tool, call.input);
      const full: ToolCall = {
        ...call,
        signature: call.signature ?? described.signature,
        pattern: call.pattern ?? described.pattern,
        summary: call.summary ?? described.summary,
        redactedInput: "redactedInput" in call ? call.redactedInput : described.redactedInput,
      };
      facts.set(call.toolUseId, full);
      if (facts.size > 256) facts.delete(facts.keys().next().value as string);
      return full;
    }

    async function apply(event: ToolgateEvent): Promise<Effect[]> {
      let effects: Effect[] = [];
      const committed = await stateStore.update(sessionId, (current) => {
        const result = step(current ?? fresh(), event, config);
        effects = result.effects;
        return result.state;
      });
      latest = committed.state;
      await deliver(effects, sessionId, committed.state);
      return effects;
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

    async function decide(
      rawCall: ToolCall,
      callOptions: { agentId?: string; at?: number; mode?: string } = {},
    ): Promise<DecideResult> {
      const call = withFacts(rawCall);
      const at = callOptions.at ?? clock();
      const common = base(at, callOptions.agentId);
      let decision: Decision;
      let effects: Effect[] = [];
      try {
        effects = await apply({ type: "call.requested", ...common, call });
        const block = effects.find((effect) => effect.type === "block");
        if (block !== undefined) {
          decision = { behavior: "deny", source: "toolgate", reason: block.text };
          const denied = await apply({
            type: "call.denied",
            ...common,
            call,
            source: "loop",
            reason: block.reason === "aborted" ? "the run was stopped" : "blocked by toolgate's loop detector",
          });
          return { decision, effects: [...effects, ...denied], text: textForModel([...effects, ...denied]) };
        }
        if (options.policy === undefined) {
          decision = {
            behavior: "allow",
            source: "default",
            reason: "no toolgate policy configured; the host decides",
          };
          return { decision, effects, text: textForModel(effects) };
        }
        const state = await currentState();
        const policyDecision = options.policy.evaluate(
          { tool: call.tool, input: call.input },
          {
            interactive: state.interactive,
            grants: state.grants.map((grant) => grant.scope.rule),
            ...(callOptions.mode === undefined ? {} : { mode: callOptions.mode as PermissionMode }),
          },
        );
        decision = stripPolicyExtras(policyDecision);
        if (policyDecision.behavior === "deny") {
          const source = policyDecision.denialSource ?? (policyDecision.source === "mode" ? "mode" : "rule");
          const denied = await apply({
            type: "call.denied",
            ...common,
            call,
            source,
            reason: policyDecision.reason,
            ...(policyDecision.rule === undefined ? {} : { rule: policyDecision.rule }),
          });
          effects = [...effects, ...denied];
        } else if (policyDecision.behavior === "allow" && policyDecision.source !== "default") {
          effects = [...effects, ...(await apply({ type: "call.allowed", ...common, call }))];
        }
        return { decision, effects, text: textForModel(effects) };
      } catch (error) {
        onError(error, "decide");
        decision = failClosed(error, "decide");
        return { decision, effects, text: decision.reason };
      }
    }

    return {
      id: sessionId,
      decide,
      denied: (call, denied) =>
        apply({
          type: "call.denied",
          ...base(denied.at, denied.agentId),
          call: withFacts(call),
          source: denied.source,
          reason: denied.reason,
          ...(denied.rule === undefined ? {} : { rule: denied.rule }),
          ...(denied.decisionReasonType === undefined ? {} : { decisionReasonType: denied.decisionReasonType }),
          ...(denied.osDenial === undefined ? {} : { osDenial: denied.osDenial }),
        }),
      allowed: (call, callOptions) =>
        apply({ type: "call.allowed", ...base(callOptions?.at, callOptions?.agentId), call: withFacts(call) }),
      succeeded: (call, callOptions) =>
        apply({ type: "call.succeeded", ...base(callOptions?.at, callOptions?.agentId), call: withFacts(call) }),
      failed: (call, failed) => {
        const osDenial = classifyFailure({
          tool: call.tool,
          ...(failed.exitCode === undefined ? {} : { exitCode: failed.exitCode }),
          ...(failed.stdout === undefined ? {} : { stdout: failed.stdout }),
          ...(failed.stderr === undefined ? {} : { stderr: failed.stderr }),
          output: failed.error,
          ...(failed.sandboxed === undefined ? {} : { sandboxed: failed.sandboxed }),
        });
        return apply({
          type: "call.failed",
          ...base(failed.at, failed.agentId),
          call: withFacts(call),
          error: failed.error,
          ...(failed.exitCode === undefined ? {} : { exitCode: failed.exitCode }),
          ...(osDenial === undefined ? {} : { osDenial }),
        });
      },
      turnStarted: (callOptions) => apply({ type: "turn.started", ...base(callOptions?.at, callOptions?.agentId) }),
      turnEnded: (callOptions) =>
        apply({
          type: "turn.ended",
          ...base(callOptions?.at, callOptions?.agentId),
          ...(callOptions?.outcome === undefined ? {} : { outcome: callOptions.outcome }),
        }),
      subagentStarted: (agentId, callOptions) =>
        apply({
          type: "subagent.started",
          ...base(callOptions?.at, agentId),
          agentId,
          ...(callOptions?.agentType === undefined ? {} : { agentType: callOptions.agentType }),
        }),
      subagentStopped: (agentId, callOptions) =>
        apply({ type: "subagent.stopped", ...base(callOptions?.at, agentId), agentId }),
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
      end: (callOptions) => apply({ type: "session.ended", ...base(callOptions?.at, callOptions?.agentId) }),
      state: currentState,
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

function stripPolicyExtras(decision: PolicyDecision): Decision {
  const out: Decision = { behavior: decision.behavior, source: decision.source, reason: decision.reason };
  if (decision.rule !== undefined) out.rule = decision.rule;
  return out;
}
