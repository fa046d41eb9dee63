import type { AuditEvent, DenialRecord } from "../core/records.js";
import { canonicalTool, toolFamily } from "../core/tool-families.js";

type Attributes = Record<string, string | number | boolean>;

interface OpenTelemetrySpan {
  addEvent(name: string, attributes?: Attributes): void;
  end(endTime?: number): void;
}

interface OpenTelemetryApi {
  trace: {
    getActiveSpan(): OpenTelemetrySpan | undefined;
    getTracer(
      name: string,
      version?: string,
    ): {
      startSpan(
        name: string,
        options?: { kind?: number; startTime?: number; attributes?: Attributes },
      ): OpenTelemetrySpan;
    };
  };
  metrics: {
    getMeter(name: string): {
      createCounter(
        name: string,
        options?: { description?: string },
      ): {
        add(value: number, attributes?: Record<string, string>): void;
      };
    };
  };
}

/** What one delivery hands the recorder: the denials recorded and the audit events of the same effects. */
export interface OpenTelemetryBatch {
  records: readonly DenialRecord[];
  events: readonly AuditEvent[];
}

/**
 * The GenAI semantic conventions' guardrail span, as proposed in open-telemetry/semantic-conventions-genai PR #427
 * ("run guardrail span and security finding", development status, open as of 2026-11): an internal span
 * `run_guardrail <guardrail name>` whose verdict is what the guardrail decided and whose action is what the caller
 * enforced, with the guarded tool call as its target. The names are kept here, in one table, so a change of the
 * proposal is a change of this table (docs/audit.md, "OpenTelemetry").
 */
export const GEN_AI_GUARDRAIL = {
  operation: "run_guardrail",
  name: "toolgate",
  attributes: {
    operationName: "gen_ai.operation.name",
    guardrailName: "gen_ai.guardrail.name",
    verdict: "gen_ai.guardrail.verdict.type",
    action: "gen_ai.guardrail.action.type",
    target: "gen_ai.guardrail.target.type",
    policyId: "gen_ai.guardrail.policy.id",
    ruleId: "gen_ai.guardrail.policy.rule.id",
    reason: "gen_ai.guardrail.verdict.reason",
    toolName: "gen_ai.tool.name",
    toolCallId: "gen_ai.tool.call.id",
    conversationId: "gen_ai.conversation.id",
    agentId: "gen_ai.agent.id",
  },
} as const;

/** SpanKind.INTERNAL in `@opentelemetry/api` (a guardrail that runs in the agent's own process or hook). */
const SPAN_KIND_INTERNAL = 0;

/** The audit events that are a guardrail verdict of their own: escalation (a person is asked) and the run's abort. */
const VERDICT_EVENTS: Partial<Record<AuditEvent["kind"], { verdict: string; action: string }>> = {
  "grant.offered": { verdict: "escalate", action: "escalate" },
  "run.aborted": { verdict: "deny", action: "block" },
};

function commonAttributes(options: {
  sessionId: string;
  agentId?: string | undefined;
  tool?: string | undefined;
  toolUseId?: string | undefined;
}): Attributes {
  const names = GEN_AI_GUARDRAIL.attributes;
  const attributes: Attributes = {
    [names.operationName]: GEN_AI_GUARDRAIL.operation,
    [names.guardrailName]: GEN_AI_GUARDRAIL.name,
    [names.target]: "tool_call",
    [names.conversationId]: options.sessionId,
  };
  if (options.agentId !== undefined) attributes[names.agentId] = options.agentId;
  if (options.tool !== undefined) {
    attributes[names.toolName] = options.tool;
    attributes["toolgate.canonical_tool"] = canonicalTool(options.tool);
    attributes["toolgate.tool_family"] = toolFamily(options.tool);
  }
  if (options.toolUseId !== undefined) attributes[names.toolCallId] = options.toolUseId;
  return attributes;
}

/** A denial as the guardrail span's attributes: verdict deny, action block, the source as the policy, the rule. */
export function denialSpanAttributes(record: DenialRecord): Attributes {
  const names = GEN_AI_GUARDRAIL.attributes;
  const attributes: Attributes = {
    ...commonAttributes(record),
    [names.verdict]: "deny",
    [names.action]: "block",
    [names.policyId]: record.source,
    [names.reason]: record.reason,
    "toolgate.canonical_tool": record.canonicalTool ?? canonicalTool(record.tool),
    "toolgate.tool_family": record.toolFamily ?? toolFamily(record.tool),
    "toolgate.source": record.source,
    "toolgate.input_summary": record.inputSummary,
    "toolgate.seq": record.seq,
  };
  if (record.rule !== undefined) attributes[names.ruleId] = record.rule;
  return attributes;
}

/** An escalation or the run's abort as the guardrail span's attributes; undefined for every other event. */
export function eventSpanAttributes(event: AuditEvent): Attributes | undefined {
  const verdict = VERDICT_EVENTS[event.kind];
  if (verdict === undefined) return undefined;
  const names = GEN_AI_GUARDRAIL.attributes;
  return {
    ...commonAttributes(event),
    [names.verdict]: verdict.verdict,
    [names.action]: verdict.action,
    [names.policyId]: "escalation",
    "toolgate.event": event.kind,
  };
}

/**
 * OpenTelemetry per denial, through `@opentelemetry/api` only:
 * - one GenAI guardrail span per denial (verdict `deny`, action `block`), per escalation (`escalate`) and for the
 *   run's abort (`deny`, `block`), a child of the host's active span when there is one, timed at the record;
 * - a span event `agent.permission.denied` on the active span (the host's tool, its canonical tool and family);
 * - a `toolgate.permission.denials` counter (attributes: tool (canonical: `shell` on every host), host_tool (the
 *   host's name), source).
 * Without a provider registered by the host the API is a no-op; without the package installed this sink is a no-op
 * too.
 */
export async function createOpenTelemetryRecorder(): Promise<(batch: OpenTelemetryBatch) => void> {
  let api: OpenTelemetryApi;
  try {
    const moduleName = "@opentelemetry/api";
    api = (await import(moduleName)) as OpenTelemetryApi;
  } catch {
    return () => undefined;
  }
  return ({ records, events }) => {
    if (records.length === 0 && events.length === 0) return;
    // Looked up per batch: the host may register its providers after toolgate started.
    const tracer = api.trace.getTracer("toolgate");
    const spanName = `${GEN_AI_GUARDRAIL.operation} ${GEN_AI_GUARDRAIL.name}`;
    const guardrailSpan = (at: number, attributes: Attributes) =>
      tracer.startSpan(spanName, { kind: SPAN_KIND_INTERNAL, startTime: at, attributes }).end(at);
    if (records.length > 0) {
      const counter = api.metrics
        .getMeter("toolgate")
        .createCounter("toolgate.permission.denials", { description: "tool calls denied, by tool and source" });
      const span = api.trace.getActiveSpan();
      for (const record of records) {
        const canonical = record.canonicalTool ?? canonicalTool(record.tool);
        counter.add(1, { tool: canonical, host_tool: record.tool, source: record.source });
        span?.addEvent("agent.permission.denied", {
          "toolgate.tool": record.tool,
          "toolgate.canonical_tool": canonical,
          "toolgate.tool_family": record.toolFamily ?? toolFamily(record.tool),
          "toolgate.source": record.source,
          "toolgate.reason": record.reason,
          "toolgate.input_summary": record.inputSummary,
          "toolgate.session_id": record.sessionId,
          "toolgate.seq": record.seq,
        });
        guardrailSpan(record.at, denialSpanAttributes(record));
      }
    }
    for (const event of events) {
      const attributes = eventSpanAttributes(event);
      if (attributes !== undefined) guardrailSpan(event.at, attributes);
    }
  };
}
