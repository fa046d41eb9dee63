import { abortRun } from "./abort-run.js";
import { noteWastedCall } from "./call-tokens.js";
import type { CallFacts, TemplateVariables } from "./config.js";
import type { EscalationStage } from "./effects.js";
import { escalate, escalatedText } from "./escalate.js";
import { type CallDeniedEvent, GRANTABLE_SOURCES } from "./events.js";
import { addId, withId } from "./evicted-ids.js";
import { isoTime } from "./iso-time.js";
import { countNudgeEvent } from "./nudge.js";
import type { DenialRecord } from "./records.js";
import type { AgentState, PatternCounters } from "./state.js";
import { callFacts, patternKey, type StepContext, writableAgent } from "./step-context.js";
import { thresholdFor } from "./threshold-for.js";
import { toolIdentity } from "./tool-families.js";
import { truncateStrings } from "./truncate-strings.js";

const RECENT_CALLS = 5;
/** strings in a record's input are kept up to this many characters (a denied 200 KB Write stays small) */
export const RECORD_STRING_LIMIT = 2000;

/**
 * The bounded copies of redacted inputs already made, by the redacted input: a caller that describes each distinct
 * call once (the transcript replay) passes the same redacted input for every denial of that call, so it is walked
 * once. A pure function of a value nobody mutates (the reducer never writes to a call's input or its redaction),
 * so the cache changes no result.
 */
const RECORD_INPUTS = new WeakMap<object, unknown>();

function recordInputOf(redactedInput: unknown): unknown {
  if (redactedInput === null || typeof redactedInput !== "object") {
    return truncateStrings(redactedInput, RECORD_STRING_LIMIT);
  }
  if (RECORD_INPUTS.has(redactedInput)) return RECORD_INPUTS.get(redactedInput);
  const bounded = truncateStrings(redactedInput, RECORD_STRING_LIMIT);
  RECORD_INPUTS.set(redactedInput, bounded);
  return bounded;
}

/**
 * A denial from any source: count it (agent, tool, pattern; consecutive and total; turn and session), keep a
 * redacted record, then decide what the model is told and whether to escalate.
 */
export function onCallDenied(context: StepContext, event: CallDeniedEvent): void {
  const { config } = context;
  const facts = callFacts(context, event.call);
  const agent = writableAgent(context, event.agentId);
  const recordInput = recordInputOf(facts.redactedInput);
  const pattern = countDenial({ agent, event, facts, redactedInput: recordInput });
  noteWastedCall(context, { pattern, toolUseId: event.call.toolUseId });
  const tool = agent.tools[event.call.tool];
  const texts = derivedTexts(context, event);
  const record = appendRecord(context, event, { ...facts, redactedInput: recordInput }, texts);
  context.effects.push({ type: "record", record });

  const { threshold, hard } = thresholdFor(config, event.call.tool);
  const input = event.call.input;
  // a pattern denied `totalThreshold` times this session escalates even when allowed calls broke its streak
  const overTotal = pattern.total >= config.totalThreshold;
  const variables: TemplateVariables = {
    // computed only when a template or the escalation needs it (it parses the command)
    suggestion: () => config.ports.suggestRule(event.call.tool, input),
    tool: event.call.tool,
    summary: facts.summary,
    pattern: facts.pattern,
    count: overTotal && pattern.streak < threshold ? pattern.total : pattern.streak,
    total: tool?.total ?? 1,
    rule: event.rule ?? "(unnamed rule)",
    reason: record.reason,
    source: event.source,
    threshold,
    path: texts.path === undefined ? "" : ` to ${texts.path}`,
  };

  let stage: EscalationStage = "soft";
  let text: string;
  if (pattern.streak >= hard) {
    stage = "hard";
    text = config.templates.hard(variables);
  } else if (pattern.streak >= threshold || overTotal) {
    stage = "escalated";
    text = pattern.escalated
      ? escalatedText({ context, pattern, variables })
      : escalate({ context, event, pattern, variables });
  } else {
    text = softText(context, event, variables);
  }
  if (text !== "") {
    context.effects.push({ type: "guidance", toolUseId: event.call.toolUseId, tool: event.call.tool, stage, text });
  }
  if (stage === "hard" && !pattern.escalated) escalate({ context, event, pattern, variables });

  checkTreeBudget(context, event, facts);
  countNudgeEvent(context, { at: event.at, osPermission: event.source === "sandbox" });
}

/**
 * A denial that is counted and recorded but neither escalates nor adds guidance: a call refused because the run was
 * already stopped (the repeated abort is its whole message).
 */
export function recordRefusal(context: StepContext, event: CallDeniedEvent): void {
  const facts = callFacts(context, event.call);
  const agent = writableAgent(context, event.agentId);
  const redactedInput = recordInputOf(facts.redactedInput);
  const pattern = countDenial({ agent, event, facts, redactedInput });
  noteWastedCall(context, { pattern, toolUseId: event.call.toolUseId });
  const record = appendRecord(context, event, { ...facts, redactedInput }, derivedTexts(context, event));
  context.effects.push({ type: "record", record });
}

interface DerivedTexts {
  reason: string;
  rule?: string;
  path?: string;
}

/**
 * The reason, rule and refused path, redacted together with the call's raw input: they may quote the input in a
 * form no detector recognises any more (a normalised path turns `postgres://u:p@h` into `postgres:/u:p@h`), so every
 * secret found in the input is also removed from them.
 */
function derivedTexts(context: StepContext, event: CallDeniedEvent): DerivedTexts {
  const path = event.osDenial?.path;
  const redacted = context.config.ports.redactValue([event.call.input, event.reason, event.rule ?? "", path ?? ""]);
  const [, reason, rule, redactedPath] = redacted as [unknown, string, string, string];
  return {
    reason,
    ...(event.rule === undefined ? {} : { rule }),
    ...(path === undefined ? {} : { path: redactedPath }),
  };
}

function countDenial(options: {
  agent: AgentState;
  event: CallDeniedEvent;
  facts: CallFacts;
  redactedInput: unknown;
}): PatternCounters {
  const { agent, event, facts } = options;
  agent.total += 1;
  agent.turnTotal += 1;
  agent.consecutive += 1;
  const key = patternKey(event.call.tool, facts.pattern);
  const previousTool = agent.tools[event.call.tool];
  const streaking = previousTool?.streaking ?? [];
  agent.tools[event.call.tool] = {
    consecutive: (previousTool?.consecutive ?? 0) + 1,
    total: (previousTool?.total ?? 0) + 1,
    turnTotal: (previousTool?.turnTotal ?? 0) + 1,
    streaking: streaking.includes(key) ? streaking : [...streaking, key],
  };
  const previous = agent.patterns[key];
  const recent = [...(previous?.recent ?? []), { summary: facts.summary, input: options.redactedInput }];
  if (recent.length > RECENT_CALLS) recent.shift();
  const pattern: PatternCounters = {
    tool: event.call.tool,
    pattern: facts.pattern,
    streak: (previous?.streak ?? 0) + 1,
    total: (previous?.total ?? 0) + 1,
    lastSource: event.source,
    ungrantable: (previous?.ungrantable ?? false) || !GRANTABLE_SOURCES.has(event.source),
    recent,
    escalated: previous?.escalated ?? false,
  };
  agent.patterns[key] = pattern;
  return pattern;
}

function appendRecord(
  context: StepContext,
  event: CallDeniedEvent,
  facts: CallFacts,
  texts: DerivedTexts,
): DenialRecord {
  const { state, config } = context;
  state.total += 1;
  const identity = toolIdentity(event.call.tool);
  const record: DenialRecord = {
    seq: state.total,
    sessionId: state.sessionId,
    turn: state.turn,
    tool: event.call.tool,
    canonicalTool: identity.canonical,
    toolFamily: identity.family,
    toolUseId: event.call.toolUseId,
    source: event.source,
    reason: texts.reason,
    signature: facts.signature,
    pattern: facts.pattern,
    inputSummary: facts.summary,
    input: facts.redactedInput,
    at: event.at,
    timestamp: isoTime(event.at),
  };
  if (state.parentSessionId !== undefined) record.parentSessionId = state.parentSessionId;
  if (event.agentId !== undefined) record.agentId = event.agentId;
  if (texts.rule !== undefined) record.rule = texts.rule;
  if (event.decisionReasonType !== undefined) record.decisionReasonType = event.decisionReasonType;
  if (state.host !== undefined) record.host = state.host;
  if (state.labels !== undefined) record.labels = state.labels;
  const evicted = state.records.length >= config.recordBufferSize ? state.records[0] : undefined;
  const records = evicted !== undefined ? state.records.slice(1) : state.records.slice();
  records.push(record);
  state.records = records;
  // what leaves the buffer stays known by its id (core/evicted-ids.ts), so a caller can tell a call never recorded
  // from one recorded long ago without reading the denial store; a state from before the filter stays unknown
  if (
    evicted !== undefined &&
    config.keepEvictedIds !== false &&
    (state.evictedIds !== undefined || state.total - 1 <= records.length)
  ) {
    const id = evicted.toolUseId;
    state.evictedIds =
      context.owned && state.evictedIds !== undefined ? addId(state.evictedIds, id) : withId(state.evictedIds, id);
  }
  return record;
}

function softText(context: StepContext, event: CallDeniedEvent, variables: TemplateVariables): string {
  const { templates } = context.config;
  switch (event.source) {
    case "rule":
      return templates["soft.rule"](variables);
    case "user":
      return templates["soft.user"](variables);
    case "headless":
      return templates["soft.headless"](variables);
    case "mode":
      return templates["soft.mode"](variables);
    case "hook":
      return templates["soft.hook"](variables);
    case "sandbox":
      return templates["soft.sandbox"](variables);
    case "loop":
      return templates["soft.loop"](variables);
    default:
      return templates["soft.other"](variables);
  }
}

function checkTreeBudget(context: StepContext, event: CallDeniedEvent, facts: CallFacts): void {
  const { state, config } = context;
  const budget = config.sessionTreeBudget;
  if (budget === undefined || state.total < budget || state.aborted !== undefined) return;
  const error = config.templates["tree-budget"]({ total: state.total, budget });
  abortRun(context, {
    event,
    reason: "tree-budget",
    count: state.total,
    signature: facts.signature,
    error,
    text: error,
    detail: { budget },
  });
}
