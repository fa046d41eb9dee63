import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { temporaryDirectory } from "../../../test/support/temporary-directory.js";
import { runMcpProxy } from "./mcp-proxy.js";

/**
 * A stdio MCP server without the SDK that reads `tools/call` params as Go's `encoding/json` does (keys matched
 * case-insensitively, `ſ` as `s`, the last match wins) and runs any method it is sent, notifications too. It appends
 * `STARTED`, every line it receives and `RAN <tool> <arguments>` to the file named by its first argument.
 */
const LENIENT_GO_SERVER = `
const fs = require("node:fs");
const log = process.argv[1];
fs.appendFileSync(log, "STARTED\\n");
const fold = (key) => key.replace(/\\u017f/g, "s").replace(/\\u212a/g, "k").toLowerCase();
const field = (object, tag) => { let value; for (const [key, v] of Object.entries(object ?? {})) if (fold(key) === tag) value = v; return value; };
const answer = (message) => process.stdout.write(JSON.stringify(message) + "\\n");
require("node:readline").createInterface({ input: process.stdin }).on("line", (line) => {
  fs.appendFileSync(log, line + "\\n");
  const message = JSON.parse(line);
  const method = String(message.method ?? "");
  if (method === "initialize") {
    answer({ jsonrpc: "2.0", id: message.id, result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "go", version: "1" } } });
  } else if (method === "tools/call") {
    fs.appendFileSync(log, "RAN " + field(message.params, "name") + " " + JSON.stringify(field(message.params, "arguments")) + "\\n");
    if (message.id !== undefined) answer({ jsonrpc: "2.0", id: message.id, result: { content: [{ type: "text", text: "ran" }] } });
  } else if (message.id !== undefined && method !== "") {
    answer({ jsonrpc: "2.0", id: message.id, result: {} });
  }
});
`;

const SECRET = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";

interface ProxyOptions {
  config: unknown;
  server?: string;
  signal?: AbortSignal;
}

/** `runMcpProxy` in this process, driven line by line, in front of the lenient server, with its own store. */
function startProxy(options: ProxyOptions) {
  const root = temporaryDirectory("toolgate-mcp-proxy-");
  const project = join(root, "project");
  mkdirSync(join(root, "home"), { recursive: true });
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, "toolgate.config.json"), JSON.stringify(options.config));
  const serverLog = join(root, "server-received.log");
  const input = new PassThrough();
  const output = new PassThrough();
  const messages: Record<string, unknown>[] = [];
  const logs: string[] = [];
  let pending = "";
  output.setEncoding("utf8").on("data", (chunk: string) => {
    pending += chunk;
    for (let newline = pending.indexOf("\n"); newline !== -1; newline = pending.indexOf("\n")) {
      messages.push(JSON.parse(pending.slice(0, newline)) as Record<string, unknown>);
      pending = pending.slice(newline + 1);
    }
  });
  const done = runMcpProxy({
    server: options.server ?? "box",
    child: { command: process.execPath, args: ["-e", LENIENT_GO_SERVER, serverLog] },
    interactive: false,
    input,
    output,
    env: { HOME: join(root, "home"), TOOLGATE_DB: join(root, "toolgate.db"), PATH: process.env["PATH"] ?? "" },
    cwd: project,
    log: (line) => logs.push(line),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  const write = (message: unknown) => input.write(`${JSON.stringify(message)}\n`);
  const answer = async (id: unknown): Promise<Record<string, unknown>> => {
    for (let waited = 0; waited < 10_000; waited += 20) {
      const found = messages.find((message) => message["id"] === id);
      if (found !== undefined) return found;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`no answer to ${JSON.stringify(id)}; logs: ${logs.join("\n")}`);
  };
  const initialized = async () => {
    write({
      jsonrpc: "2.0",
      id: "init",
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    expect((await answer("init"))["result"]).toBeDefined();
    write({ jsonrpc: "2.0", method: "notifications/initialized" });
  };
  /** every line the server received (and STARTED, RAN) */
  const received = () => (existsSync(serverLog) ? readFileSync(serverLog, "utf8") : "");
  const close = async () => {
    input.end();
    return done;
  };
  return { root, input, logs, done, write, answer, initialized, received, close };
}

const call = (id: unknown, params: unknown) => ({ jsonrpc: "2.0", id, method: "tools/call", params });
const DENY_ERASE = { permissions: { deny: ["mcp__box__erase", "mcp__box__write_file(path:/etc/*)"] } };

/** Every file under a directory, as text. */
function filesUnder(directory: string): string {
  let text = "";
  for (const name of readdirSync(directory)) {
    const path = join(directory, name);
    text += statSync(path).isDirectory() ? filesUnder(path) : readFileSync(path, "latin1");
  }
  return text;
}

describe("runMcpProxy", () => {
  it("forwards only notifications/* from the client (regression: tools/call sent as a notification)", async () => {
    const proxy = startProxy({ config: DENY_ERASE });
    await proxy.initialized();
    proxy.write({ jsonrpc: "2.0", method: "tools/call", params: { name: "erase", arguments: {} } });
    proxy.write({ jsonrpc: "2.0", method: `erase ${SECRET}` });
    proxy.write({ jsonrpc: "2.0", method: "notifications/custom", params: { n: 1 } });
    // a request after them, answered: the server has received whatever the proxy forwarded before it
    proxy.write({ jsonrpc: "2.0", id: "after", method: "resources/list" });
    await proxy.answer("after");
    expect(proxy.received()).toContain('"method":"notifications/custom"');
    expect(proxy.received()).not.toContain("RAN");
    expect(proxy.received()).not.toContain("erase");
    expect(proxy.logs.filter((line) => line.includes("was not forwarded: only notifications/*"))).toHaveLength(2);
    expect(proxy.logs.join("\n")).not.toContain(SECRET);
    expect((await proxy.close()).exitCode).toBe(0);
  });

  it("forwards the params toolgate checked, never raw keys (regression: case-folded tools/call params)", async () => {
    const proxy = startProxy({ config: DENY_ERASE });
    await proxy.initialized();
    proxy.write(call(1, { name: "echo", arguments: {}, NAME: "erase" }));
    proxy.write(
      call(2, { name: "write_file", arguments: { path: "/tmp/x" }, "argument\u017f": { path: "/etc/passwd" } }),
    );
    proxy.write(call(3, { name: "echo", arguments: {}, _meta: { progressToken: "p1" } }));
    for (const id of [1, 2, 3]) expect((await proxy.answer(id))["result"]).toBeDefined();
    const ran = proxy
      .received()
      .split("\n")
      .filter((line) => line.startsWith("RAN"));
    expect(ran).toEqual(["RAN echo {}", 'RAN write_file {"path":"/tmp/x"}', "RAN echo {}"]);
    expect(proxy.received()).toContain('"params":{"name":"echo","arguments":{},"_meta":{"progressToken":"p1"}}');
    await proxy.close();
  });

  it("refuses a call whose arguments hold keys that differ only in case, and forwards none", async () => {
    const proxy = startProxy({ config: DENY_ERASE });
    await proxy.initialized();
    proxy.write(call(1, { name: "write_file", arguments: { path: "/tmp/x", PATH: "/etc/passwd" } }));
    proxy.write(call(2, { name: "write_file", arguments: { source: "/tmp/x", "\u017fource": "/etc/passwd" } }));
    for (const id of [1, 2]) {
      const error = (await proxy.answer(id))["error"] as { code: number; data: { code: string } };
      expect(error).toMatchObject({ code: -32602, data: { code: "MCP_CALL_AMBIGUOUS" } });
    }
    expect(proxy.received()).not.toContain("RAN");
    await proxy.close();
  });

  it("ends at once, the server never started, when stopped before it listened (regression: early SIGTERM)", async () => {
    const stop = new AbortController();
    stop.abort();
    const proxy = startProxy({ config: DENY_ERASE, signal: stop.signal });
    const outcome = await Promise.race([
      proxy.done,
      new Promise<"still running">((resolve) => setTimeout(() => resolve("still running"), 5_000)),
    ]);
    expect(outcome).toEqual({ exitCode: 0, sessionId: undefined });
    // nothing reads the input any more (a listener would keep the CLI's process alive until stdin closed)
    expect(proxy.input.listenerCount("data")).toBe(0);
    // the client's initialize, sent too late, starts nothing either
    proxy.write({ jsonrpc: "2.0", id: "init", method: "initialize", params: {} });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(proxy.received()).toBe("");
  });

  it("warns at start about a server whose name holds __, and a wildcard rule covers its tools (server name with __)", async () => {
    const proxy = startProxy({ config: { permissions: { deny: ["mcp__github__work___*"] } }, server: "github (work)" });
    await proxy.initialized();
    proxy.write(call(1, { name: "erase", arguments: {} }));
    const result = (await proxy.answer(1))["result"] as { isError?: boolean };
    expect(result.isError).toBe(true);
    expect(proxy.received()).not.toContain("RAN");
    expect(proxy.logs.join("\n")).toContain(
      "a rule for the whole server (mcp__github__work_) does not cover its tools",
    );
    await proxy.close();
  });

  it("stores nothing of a request id (regression: raw request id in callId)", async () => {
    const proxy = startProxy({ config: DENY_ERASE });
    await proxy.initialized();
    for (const attempt of [1, 2, 3]) {
      proxy.write(call(`${SECRET}-${attempt}`, { name: "erase", arguments: { attempt } }));
      expect((await proxy.answer(`${SECRET}-${attempt}`))["result"]).toBeDefined();
    }
    expect((await proxy.close()).exitCode).toBe(6);
    expect(filesUnder(proxy.root)).toContain("mcp__box__erase");
    expect(filesUnder(proxy.root)).not.toContain(SECRET.slice(0, 12));
    expect(proxy.logs.join("\n")).not.toContain(SECRET.slice(0, 12));
  });
});
