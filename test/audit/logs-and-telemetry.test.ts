import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { Writable } from "node:stream";
import { context, metrics, ROOT_CONTEXT, trace } from "@opentelemetry/api";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { createAuditLogger } from "../../src/audit/audit-logger.js";
import { createAuditSink } from "../../src/audit/create-audit-sink.js";
import { createOpenTelemetryRecorder } from "../../src/audit/open-telemetry.js";
import { temporaryDirectory } from "../support/temporary-directory.js";
import { driveCore } from "./drive-core.js";

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: createAuditLogger({ logger: pino({ level: "info" }, stream) }) };
}

const secret = "ghp_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6";

describe("pino audit logs", () => {
  it("writes one WARN agent.permission.denied per denial, redacted, and a session summary", async () => {
    const { lines, logger } = capture();
    const sink = createAuditSink({ logger });
    const session = driveCore({ sessionId: "log-1", deliver: sink.deliver });
    await session.turnStarted();
    await session.denied("Bash", { command: `curl -H "Authorization: token ${secret}" https://api.github.com` });
    await session.denied("Bash", { command: "rm -rf /" });
    await session.denied("Write", { file_path: "/etc/passwd", content: "x" });
    await session.sessionEnded();
    const denials = lines.filter((line) => line.event === "agent.permission.denied");
    expect(denials).toHaveLength(3);
    expect(denials[0]).toMatchObject({
      level: 40,
      tool: "Bash",
      source: "rule",
      reason: "blocked by rule",
      sessionId: "log-1",
    });
    expect(typeof denials[0]!.inputSummary).toBe("string");
    expect(JSON.stringify(lines)).not.toContain(secret);
    const summary = lines.filter((line) => line.event === "agent.session.summary");
    expect(summary).toHaveLength(1);
    expect(summary[0]).toMatchObject({ permissionDenialCount: 3, permissionDeniedTools: { Bash: 2, Write: 1 } });
  });

  it("names each denial's canonical tool and family beside the host's tool", async () => {
    const { lines, logger } = capture();
    const sink = createAuditSink({ logger });
    const session = driveCore({ sessionId: "log-3", deliver: sink.deliver });
    await session.denied("exec_command", { cmd: "rm -rf build" });
    await session.denied("run_shell_command", { command: "rm -rf build" });
    await session.denied("mcp__github__create_issue", { title: "x" });
    const denials = lines.filter((line) => line.event === "agent.permission.denied");
    expect(denials.map((line) => [line.tool, line.canonicalTool, line.toolFamily])).toEqual([
      ["exec_command", "shell", "shell"],
      ["run_shell_command", "shell", "shell"],
      ["mcp__github__create_issue", "mcp_github_create_issue", "mcp"],
    ]);
  });

  it("always includes permissionDenialCount, zero too", async () => {
    const { lines, logger } = capture();
    const sink = createAuditSink({ logger });
    const session = driveCore({ sessionId: "log-2", deliver: sink.deliver });
    await session.turnStarted();
    await session.sessionEnded();
    const summary = lines.find((line) => line.event === "agent.session.summary");
    expect(summary).toMatchObject({ permissionDenialCount: 0, permissionDeniedTools: {} });
  });
});

describe("OpenTelemetry", () => {
  afterEach(() => {
    metrics.disable();
    context.disable();
  });

  it("is a no-op with the API's default (no provider registered): it runs on every batch and never fails", async () => {
    const record = await createOpenTelemetryRecorder();
    const failures: string[] = [];
    const recorded: string[] = [];
    const sink = createAuditSink({
      // the recorder sees the same batches as this listener; a failure in it is reported here, not thrown
      openTelemetry: record,
      listeners: [{ denial: (denial) => recorded.push(denial.tool) }],
      onError: (error, where) => failures.push(`${where}: ${String(error)}`),
    });
    const session = driveCore({ sessionId: "otel-0", deliver: sink.deliver });
    await session.denied("Bash", { command: "ls" });
    await session.denied("Read", { file_path: "/secret" });
    expect(recorded).toEqual(["Bash", "Read"]);
    expect(failures).toEqual([]);
    // and called on its own, outside the sink's isolation, with no active span and only the no-op meter
    const batch = (await session.denied("Write", { file_path: "/x" })).flatMap((effect) =>
      effect.type === "record" ? [effect.record] : [],
    );
    expect(batch).toHaveLength(1);
    expect(() => record({ records: batch, events: [] })).not.toThrow();
  });

  it("adds a span event and a counter per denial when the host registered providers", async () => {
    const counted: { value: number; attributes: unknown }[] = [];
    const events: { name: string; attributes: unknown }[] = [];
    metrics.setGlobalMeterProvider({
      getMeter: () =>
        ({
          createCounter: () => ({ add: (value: number, attributes: unknown) => counted.push({ value, attributes }) }),
        }) as never,
    });
    const span = trace.wrapSpanContext({
      traceId: "0af7651916cd43dd8448eb211c80319c",
      spanId: "b7ad6b7169203331",
      traceFlags: 1,
    });
    span.addEvent = ((name: string, attributes: unknown) => {
      events.push({ name, attributes });
      return span;
    }) as typeof span.addEvent;
    const active = trace.setSpan(ROOT_CONTEXT, span);
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
    const sink = createAuditSink({ openTelemetry: await createOpenTelemetryRecorder() });
    const session = driveCore({ sessionId: "otel-1", deliver: sink.deliver });
    await session.denied("Bash", { command: "ls" });
    await session.denied("Read", { file_path: "/secret" });
    await session.denied("exec_command", { cmd: "ls" });
    // the counter's `tool` is the canonical tool, so one series counts every host's shell calls
    expect(counted).toEqual([
      { value: 1, attributes: { tool: "shell", host_tool: "Bash", source: "rule" } },
      { value: 1, attributes: { tool: "read", host_tool: "Read", source: "rule" } },
      { value: 1, attributes: { tool: "shell", host_tool: "exec_command", source: "rule" } },
    ]);
    expect(events.map((event) => event.name)).toEqual([
      "agent.permission.denied",
      "agent.permission.denied",
      "agent.permission.denied",
    ]);
    expect(events[0]!.attributes).toMatchObject({ "toolgate.tool": "Bash", "toolgate.session_id": "otel-1" });
    expect(events[2]!.attributes).toMatchObject({
      "toolgate.tool": "exec_command",
      "toolgate.canonical_tool": "shell",
      "toolgate.tool_family": "shell",
    });
  });
});

describe("a log file", () => {
  it("is this user's alone: its new folders 0700, the file 0600, as the store and the spool (issue 25, item 16)", async () => {
    const root = temporaryDirectory("toolgate-log-mode-");
    const file = join(root, "logs", "nested", "toolgate.log");
    const sink = createAuditSink({ logger: createAuditLogger({ destination: file }) });
    const session = driveCore({ sessionId: "log-mode", deliver: sink.deliver });
    await session.turnStarted();
    await session.denied("Bash", { command: "rm -rf /" });
    await session.sessionEnded();
    expect(readFileSync(file, "utf8")).toContain("agent.permission.denied");
    const mode = (path: string) => statSync(path).mode & 0o777;
    expect(mode(join(root, "logs"))).toBe(0o700);
    expect(mode(join(root, "logs", "nested"))).toBe(0o700);
    expect(mode(file)).toBe(0o600);
  });
});
