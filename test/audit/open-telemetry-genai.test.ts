import { context, ROOT_CONTEXT, trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import { createAuditSink } from "../../src/audit/create-audit-sink.js";
import { createOpenTelemetryRecorder, GEN_AI_GUARDRAIL } from "../../src/audit/open-telemetry.js";
import { createGuard } from "../../src/guard/create-guard.js";
import { compilePolicy } from "../../src/policy/compile-policy.js";
import { NO_DEFAULTS } from "../../src/policy/defaults/read-only-defaults.js";

/**
 * toolgate's denials, escalations and aborts as the OpenTelemetry SDK receives them (the SDK's in-memory exporter):
 * one GenAI guardrail span each (open-telemetry/semantic-conventions-genai PR #427's `run_guardrail`), with the
 * verdict, the enforced action, the tool call it guarded, the policy and rule, the session and agent.
 */
const names = GEN_AI_GUARDRAIL.attributes;

afterEach(() => {
  trace.disable();
  context.disable();
});

function sdk() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
  return exporter;
}

async function guarded(options: { interactive: boolean; secret?: string }) {
  const sink = createAuditSink({ openTelemetry: await createOpenTelemetryRecorder() });
  const guard = createGuard({
    policy: compilePolicy({
      rules: [{ rule: "Bash(rm *)", behavior: "deny", origin: "toolgate config" }],
      cwd: "/work",
      homeDir: "/home/me",
      defaults: NO_DEFAULTS,
    }),
    sinks: [sink],
    core: { headlessStrategy: "abort" },
    onError: () => undefined,
  });
  return guard.session("otel-genai", { interactive: options.interactive, host: "claude-code" });
}

describe("OpenTelemetry GenAI guardrail spans", () => {
  it("exports one run_guardrail span per denial, and one for the run's abort, through the SDK", async () => {
    const exporter = sdk();
    const session = await guarded({ interactive: false });
    for (const [index, command] of ["rm -rf build", "rm -rf dist", "rm -rf out"].entries()) {
      await session.decide({ toolUseId: `toolu_${index}`, tool: "Bash", input: { command } }, { agentId: "a1" });
    }
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name).every((name) => name === "run_guardrail toolgate")).toBe(true);
    const denials = spans.filter((span) => span.attributes["toolgate.event"] === undefined);
    expect(denials).toHaveLength(3);
    expect(denials[0]!.kind).toBe(0); // SpanKind.INTERNAL
    expect(denials[0]!.attributes).toMatchObject({
      [names.operationName]: "run_guardrail",
      [names.guardrailName]: "toolgate",
      [names.verdict]: "deny",
      [names.action]: "block",
      [names.target]: "tool_call",
      [names.policyId]: "rule",
      [names.ruleId]: "Bash(rm *)",
      [names.toolName]: "Bash",
      [names.toolCallId]: "toolu_0",
      [names.conversationId]: "otel-genai",
      [names.agentId]: "a1",
      "toolgate.canonical_tool": "shell",
    });
    const aborts = spans.filter((span) => span.attributes["toolgate.event"] === "run.aborted");
    expect(aborts).toHaveLength(1);
    expect(aborts[0]!.attributes).toMatchObject({ [names.verdict]: "deny", [names.action]: "block" });
  });

  it("exports an escalation as verdict escalate when a person is offered a grant", async () => {
    const exporter = sdk();
    const session = await guarded({ interactive: true });
    for (const [index, command] of ["npm publish", "npm publish", "npm publish"].entries()) {
      await session.denied(
        { toolUseId: `toolu_${index}`, tool: "Bash", input: { command } },
        { source: "user", reason: "the person said no" },
      );
    }
    const escalations = exporter.getFinishedSpans().filter((span) => span.attributes[names.verdict] === "escalate");
    expect(escalations.length).toBeGreaterThanOrEqual(1);
    expect(escalations[0]!.attributes).toMatchObject({ [names.action]: "escalate", "toolgate.event": "grant.offered" });
  });

  it("is a child of the host's active span", async () => {
    const exporter = sdk();
    const parent = trace.getTracer("host").startSpan("execute_tool Bash");
    const active = trace.setSpan(ROOT_CONTEXT, parent);
    context.setGlobalContextManager({
      active: () => active,
      with: (_context, fn, thisArg, ...args) => fn.call(thisArg, ...args),
      bind: (_context, target) => target,
      enable() {
        return this;
      },
      disable() {
        return this;
      },
    });
    const session = await guarded({ interactive: false });
    await session.decide({ toolUseId: "toolu_9", tool: "Bash", input: { command: "rm -rf x" } });
    const [span] = exporter.getFinishedSpans();
    expect(span?.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(span?.spanContext().traceId).toBe(parent.spanContext().traceId);
  });

  it("carries no raw secret: the reason and the input summary are the redacted ones", async () => {
    const exporter = sdk();
    const session = await guarded({ interactive: false });
    const secret = "ghp_Zx8Yw7Vu6Ts5Rq4Po3Nm2Lk1Jh0Gf9Ed8Cb7A";
    await session.decide({ toolUseId: "toolu_s", tool: "Bash", input: { command: `rm -rf /tmp/${secret}` } });
    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(1);
    expect(spans[0]!.attributes[names.reason]).toEqual(expect.any(String));
    const text = JSON.stringify(spans.map((span) => span.attributes));
    expect(text).toContain("rm -rf");
    expect(text).not.toContain(secret);
  });
});
