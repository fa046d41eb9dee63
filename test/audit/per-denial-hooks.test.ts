import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createAuditSink } from "../../src/audit/create-audit-sink.js";
import type { PermissionDeniedPayload } from "../../src/audit/record-payload.js";
import { auditSchema } from "../../src/config/audit-schema.js";
import { createMemoryDenialStore } from "../../src/store/memory-store.js";
import { temporaryDirectory } from "../support/temporary-directory.js";
import { driveCore } from "./drive-core.js";

const directory = () => temporaryDirectory("toolgate-hooks-");
const hooksFrom = (hooks: unknown[]) => auditSchema.parse({ hooks }).hooks;
const lines = (file: string): PermissionDeniedPayload[] => {
  try {
    return readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  } catch {
    return [];
  }
};

let server: Server | undefined;
afterEach(() => {
  server?.close();
  server?.closeAllConnections();
});

describe("per-denial hooks (agent-code conformance, plus flush on failure)", () => {
  it("fires once per denial, batched after the turn ends; a turn without denials fires nothing", async () => {
    const out = join(directory(), "out.jsonl");
    const sink = createAuditSink({ hooks: hooksFrom([{ command: `cat >> ${out}` }]) });
    const session = driveCore({ sessionId: "s1", deliver: sink.deliver });
    await session.turnStarted();
    await session.denied("Bash", { command: "rm -rf build" });
    await session.denied("Write", { file_path: "/etc/hosts", content: "x" });
    await session.denied("Bash", { command: "curl https://example.com" });
    expect(lines(out)).toHaveLength(0); // nothing before the turn ends
    await session.turnEnded();
    const payloads = lines(out);
    expect(payloads.map((payload) => payload.tool_use_id)).toEqual(["toolu_1", "toolu_2", "toolu_3"]);
    expect(payloads[0]).toMatchObject({
      event: "permission_denied",
      session_id: "s1",
      turn: 1,
      tool: "Bash",
      canonical_tool: "shell",
      tool_family: "shell",
      reason: "blocked by rule",
      source: "rule",
      rule: "Bash(*)",
      host: "test",
      tool_input: { command: "rm -rf build" },
    });
    expect(payloads[1]).toMatchObject({ tool: "Write", canonical_tool: "write", tool_family: "edit" });
    for (const key of [
      "input_summary",
      "timestamp",
      "signature",
      "decision_reason_type",
      "agent_id",
      "parent_session_id",
      "labels",
    ])
      expect(payloads[0]).toHaveProperty(key);
    await session.turnStarted();
    await session.turnEnded();
    expect(lines(out)).toHaveLength(3);
  });

  it("flushes the denials of a turn that errors, is cancelled, or when the session ends", async () => {
    const out = join(directory(), "out.jsonl");
    const sink = createAuditSink({ hooks: hooksFrom([{ command: `cat >> ${out}` }]) });
    const session = driveCore({ sessionId: "s2", deliver: sink.deliver });
    await session.turnStarted();
    await session.denied("Bash", { command: "a" });
    await session.turnEnded("error");
    expect(lines(out)).toHaveLength(1);
    await session.turnStarted();
    await session.denied("Bash", { command: "b" });
    await session.turnEnded("cancelled");
    expect(lines(out)).toHaveLength(2);
    await session.turnStarted();
    await session.denied("Bash", { command: "c" });
    await session.sessionEnded();
    expect(lines(out).map((payload) => payload.tool_input)).toEqual([
      { command: "a" },
      { command: "b" },
      { command: "c" },
    ]);
  });

  it("scopes hooks by tool-name glob and by event", async () => {
    const dir = directory();
    const sink = createAuditSink({
      hooks: hooksFrom([
        { command: `cat >> ${join(dir, "bash.jsonl")}`, tools: ["Bash"] },
        { command: `cat >> ${join(dir, "mcp.jsonl")}`, tools: ["mcp__github__*"] },
        { command: `cat >> ${join(dir, "all.jsonl")}` },
        { command: `cat >> ${join(dir, "summary.jsonl")}`, events: ["session.summary"] },
      ]),
    });
    const session = driveCore({ sessionId: "s3", deliver: sink.deliver });
    await session.turnStarted();
    await session.denied("Bash", { command: "ls" });
    await session.denied("mcp__github__create_issue", { title: "t" });
    await session.denied("Read", { file_path: "/x" });
    await session.sessionEnded();
    expect(lines(join(dir, "bash.jsonl")).map((payload) => payload.tool)).toEqual(["Bash"]);
    expect(lines(join(dir, "mcp.jsonl")).map((payload) => payload.tool)).toEqual(["mcp__github__create_issue"]);
    expect(lines(join(dir, "all.jsonl"))).toHaveLength(3);
    const summary = lines(join(dir, "summary.jsonl")) as unknown as {
      event: string;
      detail: Record<string, unknown>;
    }[];
    expect(summary).toHaveLength(1);
    expect(summary[0]).toMatchObject({ event: "session.summary", detail: { permissionDenialCount: 3 } });
  });

  it("keeps deliveries a webhook refused and redelivers them (at least once, keyed by tool_use_id)", async () => {
    const received: { key: string; body: PermissionDeniedPayload }[] = [];
    let up = false;
    server = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => {
        body += chunk;
      });
      request.on("end", () => {
        if (!up) return void response.writeHead(503).end();
        received.push({ key: String(request.headers["idempotency-key"]), body: JSON.parse(body) });
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/denials`;
    const sink = createAuditSink({ hooks: hooksFrom([{ url, retries: 1 }]), hookSpoolDirectory: directory() });
    const session = driveCore({ sessionId: "s4", deliver: sink.deliver });
    await session.turnStarted();
    await session.denied("Bash", { command: "one" });
    await session.denied("Bash", { command: "two" });
    await session.turnEnded();
    expect(received).toHaveLength(0);
    expect(sink.pendingHooks()).toHaveLength(2);
    up = true;
    await session.turnStarted();
    await session.denied("Bash", { command: "three" });
    await session.turnEnded();
    expect(received.map((delivery) => delivery.key)).toEqual(["toolu_1", "toolu_2", "toolu_3"]);
    expect(received.every((delivery) => delivery.key === delivery.body.tool_use_id)).toBe(true);
    expect(sink.pendingHooks()).toHaveLength(0);
  });

  it("hands hooks the records evicted from the core's buffer, from the store", async () => {
    const out = join(directory(), "out.jsonl");
    const store = createMemoryDenialStore();
    const sink = createAuditSink({ denialStore: store, hooks: hooksFrom([{ command: `cat >> ${out}` }]) });
    const session = driveCore({ sessionId: "s5", deliver: sink.deliver, recordBufferSize: 2 });
    await session.turnStarted();
    for (const command of ["a", "b", "c", "d", "e"]) await session.denied("Bash", { command });
    await session.turnEnded();
    expect(lines(out).map((payload) => payload.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(await store.query()).toHaveLength(5);
  });

  it("without hooks, a turn past the core's buffer does not read the store back (nothing to hand its records to)", async () => {
    const store = createMemoryDenialStore();
    let queries = 0;
    const counted = {
      ...store,
      query: (query?: Parameters<typeof store.query>[0]) => {
        queries += 1;
        return store.query(query);
      },
    };
    const flushed: number[] = [];
    const sink = createAuditSink({
      denialStore: counted,
      listeners: [{ flush: (batch) => flushed.push(batch.lost) }],
    });
    const session = driveCore({ sessionId: "s7", deliver: sink.deliver, recordBufferSize: 2 });
    await session.turnStarted();
    for (const command of ["a", "b", "c", "d", "e"]) await session.denied("Bash", { command });
    await session.turnEnded();
    // the listeners still learn of the flush and of what the buffer lost; the store holds every record
    expect(flushed).toEqual([3]);
    expect(queries).toBe(0);
    expect(await store.query()).toHaveLength(5);
  });

  it("a failing or hanging hook never throws into the caller and is bounded by its timeout", async () => {
    const outcomes: string[] = [];
    const sink = createAuditSink({
      hooks: hooksFrom([{ command: "sleep 20", timeoutMs: 150 }, { command: "exit 1" }]),
      onHookOutcome: (outcome) => outcomes.push(outcome.error ?? "ok"),
    });
    const session = driveCore({ sessionId: "s6", deliver: sink.deliver });
    await session.turnStarted();
    await session.denied("Bash", { command: "x" });
    const started = Date.now();
    await session.turnEnded();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(outcomes.sort()).toEqual(["hook exited with 1", "hook timed out after 150 ms and was killed"]);
  });
});
