import type { CompiledConfig } from "../core/config.js";
import type { Effect } from "../core/effects.js";
import type { DenialSource, ToolCall, ToolgateEvent } from "../core/events.js";
import { type DeniedCall, sessionLoops, sessionStatus } from "../core/figures.js";
import { initialState } from "../core/initial-state.js";
import { isoTime } from "../core/iso-time.js";
import type { DenialRecord } from "../core/records.js";
import { type SessionInfo, sessionInfoOf } from "../core/session-info.js";
import type { SessionState } from "../core/state.js";
import { step, stepOwned } from "../core/step.js";
import { canonicalTool, toolIdentity } from "../core/tool-families.js";
import type { HostDenialTable } from "../detect/denial-text-rule.js";
import type { AnalyzeHost, CallFact, ReaderFact, ResultFact } from "../hosts/common/reader-event.js";
import type { RuleLanguage } from "../policy/grants/allow-rule-suggestion.js";
import { rankDeniedTools } from "./analysis-document.js";
import type { AnalyzedDenial, LoopKind, SessionAnalysis, StopPoint } from "./analysis-types.js";
import { callTargets } from "./call-targets.js";
import { classifyResult } from "./classify-result.js";
import { LoopFinder } from "./loop-finder.js";
import type { DescribedCall } from "./memoize-ports.js";
import { RuleSuggestions } from "./rule-suggestions.js";
import { WastedCalls } from "./wasted-calls.js";

/**
 * One session replayed through the pure core with the user's config: reader facts are paired (call + result),
 * classified (structured fields first, then the host's denial texts, then the OS-denial classifier) and stepped
 * as the core's events; the effects say what toolgate would have done. Everything kept is bounded.
 */
export interface ReplayOptions {
  file: string;
  host: AnalyzeHost;
  /** the denial texts results are read with (every registered host's: the session's host selects its own) */
  denialTexts: readonly HostDenialTable[];
  format: string;
  sessionId: string;
  /** the format's default when the transcript does not say (thresholds: a headless run is stopped) */
  interactive: boolean;
  /**
   * whether a transcript that does not say is read as headless when classifying a person's rejection (`headless`
   * source). False for a format that records the mode (`TranscriptFormat.recordsMode`): its silence is no evidence
   * of a headless run (a Claude Code 2.0 transcript has no `entrypoint`), so its "no" stays a person's.
   */
  unknownIsHeadless: boolean;
  config: CompiledConfig;
  /** whether a grant could let this call through under the user's policy (false: a deny rule wins) */
  canGrant: (call: { tool: string; input: unknown }) => boolean;
  /** keep the core's denial records (for `--save`) */
  keepRecords: boolean;
  /** the host's own rule language for suggested allow rules (absent: toolgate's rules) */
  ruleLanguage?: RuleLanguage;
  /** a call's facts and its interned input (memoize-ports.ts); absent: the config's `describeCall` */
  describe?: (tool: string, input: unknown) => DescribedCall;
  /** step with the core's copying `step` instead of `stepOwned` (the reference path the fast one is tested against) */
  copyState?: boolean;
}

const MAX_PENDING = 10_000;
/** call ids remembered as done (a session's calls; past this, a repeated id is counted again) */
const MAX_FINISHED = 100_000;
/**
 * `callTargets` of a call, keyed by its facts object: the memoized `describeCall` returns the same object for the
 * same tool and input, so each distinct call is parsed for targets once.
 */
const TARGETS = new WeakMap<object, () => readonly string[]>();

/** the call's targets, computed on first use, once per distinct call (one function per facts object) */
function targetsOf(facts: object, input: unknown): () => readonly string[] {
  let known = TARGETS.get(facts);
  if (known === undefined) {
    let found: readonly string[] | undefined;
    known = () => {
      found ??= callTargets(input);
      return found;
    };
    TARGETS.set(facts, known);
  }
  return known;
}
/**
 * The main agent's pattern key of a call (`" <tool> <pattern>"`), by its facts object: one string per distinct call,
 * so the maps keyed by it hash it once instead of a new string per call (checked against the tool: a facts object
 * shared by two tools gets the second tool's key afresh).
 */
const MAIN_KEYS = new WeakMap<object, MainKeys>();

interface MainKeys {
  tool: string;
  /** the pattern key */
  key: string;
  /** the distinct call's key among denied calls (agent, tool, signature) */
  denied: string;
}

function mainKeysOf(facts: object, call: ToolCall): MainKeys {
  const known = MAIN_KEYS.get(facts);
  if (known !== undefined && known.tool === call.tool) return known;
  const keys = { tool: call.tool, key: ` ${patternKeyOf(call)}`, denied: deniedCallKey(undefined, call) };
  MAIN_KEYS.set(facts, keys);
  return keys;
}

function deniedCallKey(agentId: string | undefined, call: ToolCall): string {
  return `${agentId ?? ""}\u0000${call.tool}\u0000${call.signature}`;
}
const MAX_DENIALS = 1000;
/** refusals the replay itself made (what toolgate would have done), never stored as what happened */
const HYPOTHETICAL = new Set<string>(["loop", "aborted"]);

export class SessionReplay {
  private state: SessionState | undefined;
  private readonly pending = new Map<
    string,
    {
      call: ToolCall;
      targets: () => readonly string[];
      tokens: number;
      opaque: boolean;
      agentId: string | undefined;
      index: number;
      /** the call's pattern key for wasted calls (agent, tool, pattern) */
      key: string;
      /** the main agent's call: its key among denied calls (agent, tool, signature), made once per distinct call */
      deniedKey: string | undefined;
    }
  >();
  /** calls whose result was read: the same session read from two files of one format counts each call once */
  private readonly finished = new Set<string>();
  private toolCalls = 0;
  /** the calls counted so far (a call read again, under an id already seen, is not) */
  get callsCounted(): number {
    return this.toolCalls;
  }
  /** the file the session was first read from */
  get firstFile(): string {
    return this.options.file;
  }
  private readonly denials: AnalyzedDenial[] = [];
  private denialCount = 0;
  private readonly bySource: Partial<Record<DenialSource, number>> = {};
  /** canonical tool -> its denials and the host names seen (bounded by the distinct tools a host offers) */
  private readonly byTool = new Map<string, { count: number; hostTools: Set<string> }>();
  private readonly wasted = new WastedCalls();
  /** denials per distinct call (agent, tool, signature): repeated denials are loops (core/figures.ts) */
  private readonly deniedCalls = new Map<string, DeniedCall>();
  private readonly rules: RuleSuggestions;
  private readonly loops: LoopFinder;
  private saved = 0;
  private stoppedAt: StopPoint | null = null;
  private sawUsage = false;
  private interactive: boolean;
  /** what the transcript (or a headless format) says; undefined: unknown */
  private saysInteractive: boolean | undefined;
  private firstAt = Number.POSITIVE_INFINITY;
  private lastAt = 0;
  private parentSessionId: string | undefined;
  private project: string | undefined;
  private prompt: string | undefined;
  readonly records: DenialRecord[] = [];

  constructor(private readonly options: ReplayOptions) {
    this.loops = new LoopFinder(options.config);
    this.rules = new RuleSuggestions(options.config.ports, options.canGrant, options.ruleLanguage);
    this.interactive = options.interactive;
    this.saysInteractive = options.unknownIsHeadless ? false : undefined;
  }

  push(fact: ReaderFact): void {
    if (fact.at < this.firstAt) this.firstAt = fact.at;
    if (fact.at > this.lastAt) this.lastAt = fact.at;
    switch (fact.type) {
      case "session":
        // the first project and the first prompt of the main agent describe the session
        if (fact.agentId === undefined) {
          if (this.project === undefined && fact.project !== undefined) this.project = fact.project;
          if (this.prompt === undefined && fact.prompt !== undefined) this.prompt = fact.prompt;
        }
        if (this.state === undefined) {
          if (fact.interactive !== undefined) {
            this.interactive = fact.interactive;
            this.saysInteractive = fact.interactive;
          }
          if (fact.parentSessionId !== undefined) this.parentSessionId = fact.parentSessionId;
        }
        return;
      case "turn":
        this.step({ type: "turn.started", at: fact.at, sessionId: this.options.sessionId, ...agent(fact.agentId) });
        return;
      case "call":
        this.onCall(fact);
        return;
      case "result":
        this.onResult(fact);
        return;
    }
  }

  private ensureState(): SessionState {
    if (this.state === undefined) {
      this.state = initialState({
        sessionId: this.options.sessionId,
        interactive: this.interactive,
        host: this.options.host,
        ...(this.parentSessionId === undefined ? {} : { parentSessionId: this.parentSessionId }),
      });
    }
    return this.state;
  }

  /** the replay's state is its own alone (never shared or kept elsewhere): stepped in place, without copies */
  private step(event: ToolgateEvent): Effect[] {
    const result = (this.options.copyState === true ? step : stepOwned)(this.ensureState(), event, this.options.config);
    this.state = result.state;
    return result.effects;
  }

  private describe(
    tool: string,
    input: unknown,
    id: string,
  ): { call: ToolCall; targets: () => readonly string[]; keys: MainKeys } {
    const described = this.options.describe?.(tool, input);
    const facts = described?.facts ?? this.options.config.ports.describeCall(tool, input);
    const interned = described === undefined ? input : described.input;
    const call: ToolCall = { toolUseId: id, tool, input: interned, ...facts };
    return { call, targets: targetsOf(facts, interned), keys: mainKeysOf(facts, call) };
  }

  private onCall(fact: CallFact): void {
    if (this.pending.has(fact.id) || this.finished.has(fact.id)) return;
    if (this.pending.size >= MAX_PENDING) {
      const oldest = this.pending.keys().next().value;
      if (oldest !== undefined) this.pending.delete(oldest);
    }
    this.toolCalls += 1;
    const tokens = fact.tokens ?? 0;
    if (fact.tokens !== undefined) this.sawUsage = true;
    const described = this.describe(fact.tool, fact.opaque ? {} : fact.input, fact.id);
    // a call whose input the log does not show is known by its id alone: two of them are not the same call
    const call = fact.opaque ? { ...described.call, signature: `opaque ${fact.id}` } : described.call;
    const { targets } = described;
    const main = fact.agentId === undefined && !fact.opaque;
    const key = main ? described.keys.key : `${fact.agentId ?? ""} ${patternKeyOf(call)}`;
    this.pending.set(fact.id, {
      call,
      targets,
      tokens,
      opaque: fact.opaque === true,
      index: this.toolCalls,
      key,
      deniedKey: main ? described.keys.denied : undefined,
      agentId: fact.agentId,
    });
    const retry = this.wasted.onCall(key, tokens);
    this.loops.onCall({
      call,
      retry,
      opaque: fact.opaque === true,
      targets,
      patternKey: key,
      agentId: fact.agentId,
    });
    const abortedBefore = this.state?.aborted !== undefined;
    if (fact.opaque) {
      if (abortedBefore) this.saved += 1;
      return;
    }
    const requested: ToolgateEvent = { type: "call.requested", at: fact.at, sessionId: this.options.sessionId, call };
    if (fact.agentId !== undefined) requested.agentId = fact.agentId;
    const effects = this.step(requested);
    const refused = this.absorb(effects, { index: this.toolCalls, tool: call.tool });
    if (abortedBefore || refused) this.saved += 1;
  }

  private onResult(fact: ResultFact): void {
    if (this.finished.has(fact.id)) return;
    let entry = this.pending.get(fact.id);
    if (entry === undefined) {
      if (fact.tool === undefined) return;
      this.onCall({
        type: "call",
        sessionId: fact.sessionId,
        at: fact.at,
        id: fact.id,
        tool: fact.tool,
        input: fact.input ?? {},
        ...agent(fact.agentId),
      });
      entry = this.pending.get(fact.id);
      if (entry === undefined) return;
    }
    this.pending.delete(fact.id);
    if (this.finished.size < MAX_FINISHED) this.finished.add(fact.id);
    const { call } = entry;
    const agentId = entry.agentId ?? fact.agentId;
    const at = fact.at;
    const sessionId = this.options.sessionId;
    const denial = classifyResult({
      fact,
      tool: call.tool,
      host: this.options.host,
      denialTexts: this.options.denialTexts,
      interactive: this.saysInteractive,
    });
    const { key } = entry;
    // events built field by field (no spreads of optional parts: a generic copy on every call)
    let event: ToolgateEvent;
    if (denial !== undefined && denial.osDenial === undefined) {
      event = { type: "call.denied", at, sessionId, call, source: denial.source, reason: denial.reason };
      if (denial.rule !== undefined) event.rule = denial.rule;
    } else if (denial === undefined && fact.outcome === "success") {
      event = { type: "call.succeeded", at, sessionId, call };
    } else {
      event = { type: "call.failed", at, sessionId, call, error: fact.text.slice(0, 4000) };
      if (denial?.osDenial !== undefined) event.osDenial = denial.osDenial;
      if (fact.exitCode !== undefined) event.exitCode = fact.exitCode;
    }
    if (agentId !== undefined) event.agentId = agentId;
    if (denial === undefined) this.wasted.onAvailable(key);
    this.absorb(this.step(event), { index: entry.index, tool: call.tool });
    if (denial !== undefined) {
      this.countDenial({
        call,
        targets: entry.targets,
        source: denial.source,
        reason: denial.reason,
        at,
        opaque: entry.opaque,
        agentId,
        patternKey: key,
        deniedKey: agentId === undefined ? entry.deniedKey : undefined,
      });
      this.wasted.onDenied(key);
    }
  }

  private countDenial(options: {
    call: ToolCall;
    targets: () => readonly string[];
    source: DenialSource;
    reason: string;
    at: number;
    opaque: boolean;
    agentId: string | undefined;
    /** the call's pattern key (agent, tool, pattern) */
    patternKey: string;
    /** the call's key among denied calls when it is known already */
    deniedKey: string | undefined;
  }): void {
    const { call, source } = options;
    const ports = this.options.config.ports;
    this.denialCount += 1;
    if (!options.opaque && call.signature !== undefined) {
      const key = options.deniedKey ?? deniedCallKey(options.agentId, call);
      const known = this.deniedCalls.get(key) ?? { tool: call.tool, signature: call.signature, count: 0 };
      known.count += 1;
      this.deniedCalls.set(key, known);
    }
    this.bySource[source] = (this.bySource[source] ?? 0) + 1;
    const identity = toolIdentity(call.tool);
    const byTool = this.byTool.get(identity.canonical) ?? { count: 0, hostTools: new Set<string>() };
    byTool.count += 1;
    byTool.hostTools.add(call.tool);
    this.byTool.set(identity.canonical, byTool);
    if (this.denials.length < MAX_DENIALS) {
      this.denials.push({
        tool: call.tool,
        canonicalTool: identity.canonical,
        toolFamily: identity.family,
        source,
        reason: truncate(ports.redactText(options.reason), 300),
        summary: call.summary ?? "",
        pattern: call.pattern ?? "",
        at: isoTime(options.at),
        ...agent(options.agentId === undefined ? undefined : this.options.config.ports.redactText(options.agentId)),
      });
    }
    if (!options.opaque) this.loops.onDenied(call, options.targets(), options.patternKey);
    if (!options.opaque) this.rules.add(call, source);
  }

  /** Collects what toolgate would have done; true when it would have refused this call itself. */
  private absorb(effects: Effect[], at: { index: number; tool: string }): boolean {
    let refused = false;
    for (const effect of effects) {
      switch (effect.type) {
        case "record":
          if (this.options.keepRecords && !HYPOTHETICAL.has(effect.record.source)) this.records.push(effect.record);
          break;
        case "block":
          refused = true;
          break;
        case "abort":
          this.stop({ call: at.index, tool: effect.tool, action: "abort", reason: effect.reason });
          break;
        case "fallback":
        case "skip":
          this.stop({ call: at.index, tool: effect.tool, action: effect.type, reason: "denials" });
          break;
        case "offer-grant":
          this.stop({ call: at.index, tool: effect.tool, action: "offer-grant", reason: "denials" });
          break;
        case "audit":
          this.loops.onAudit(effect.event);
          break;
        default: {
          const decision = (effect as { type: string; decision?: { behavior?: string; denialSource?: string } })
            .decision;
          if (
            effect.type === "decision" &&
            decision?.behavior === "deny" &&
            HYPOTHETICAL.has(decision.denialSource ?? "")
          ) {
            refused = true;
          }
          break;
        }
      }
    }
    return refused;
  }

  private stop(point: StopPoint): void {
    if (this.stoppedAt === null) this.stoppedAt = point;
  }

  finish(): SessionAnalysis {
    const wasted = this.wasted.totals();
    // the loops the transcript shows and the calls denied again and again, one per kind and tool (core/figures.ts)
    const loops = sessionLoops({
      events: this.loops.loops().map((loop) => ({
        kind: "loop.detected",
        tool: loop.tool,
        at: this.lastAt,
        detail: {
          kind: loop.kind,
          by: "host",
          calls: loop.calls,
          ...(loop.after === undefined ? {} : { after: loop.after }),
        },
      })),
      deniedCalls: [...this.deniedCalls.values()],
    }).map((loop) => ({ ...loop, kind: loop.kind as LoopKind, canonicalTool: canonicalTool(loop.tool) }));
    const first = Number.isFinite(this.firstAt) ? this.firstAt : this.lastAt;
    return {
      file: this.options.file,
      host: this.options.host,
      format: this.options.format,
      sessionId: this.options.sessionId,
      startedAt: new Date(first).toISOString(),
      endedAt: new Date(this.lastAt).toISOString(),
      interactive: this.interactive,
      toolCalls: this.toolCalls,
      denials: this.denials,
      denialCount: this.denialCount,
      deniedBySource: this.bySource,
      deniedByTool: rankDeniedTools(
        [...this.byTool].map(([tool, entry]) => ({ tool, count: entry.count, hostTools: [...entry.hostTools] })),
      ),
      loops,
      wastedCalls: wasted.calls,
      wastedTokens: this.sawUsage ? wasted.tokens : null,
      savedCalls: this.saved,
      // what happened in the run: toolgate did not run there, so no abort or escalation of its own
      status: sessionStatus({ events: [], loops: loops.length }),
      stoppedAt: this.stoppedAt,
      suggestedRules: this.rules.list(),
    };
  }

  /** The session's project and first prompt line, redacted and bounded by the core; undefined when the log has neither. */
  info(): SessionInfo | undefined {
    return sessionInfoOf({ project: this.project, prompt: this.prompt }, this.options.config.ports.redactText);
  }

  get lastEventAt(): number {
    return this.lastAt;
  }
}

function agent(agentId: string | undefined): { agentId?: string } {
  return agentId === undefined ? {} : { agentId };
}

function patternKeyOf(call: ToolCall): string {
  return `${call.tool} ${call.pattern ?? ""}`;
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
