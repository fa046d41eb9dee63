/**
 * `toolgate mcp-proxy` never forwards what it could not check, and never goes silent (issue 25, items 1 and 8): the
 * built proxy, driven line by line, in front of a lenient server (no SDK: it runs any call it is sent, whatever the
 * params) that logs every line it receives. A deny rule covers the server's only tool.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, removeSnapshot } from "../e2e/claude/toolgate-cli.js";
import { LENIENT_SERVER, makeSandbox, type RawProxy, type Sandbox, startRawProxy } from "./proxy-session.js";

const E2E = { timeout: 120_000 };
const DENY_ERASE = { permissions: { deny: ["mcp__box__erase"] } };
let sandboxes: Sandbox[] = [];
const proxies: RawProxy[] = [];

beforeAll(() => assertBuilt());
afterEach(async () => {
  for (const proxy of proxies.splice(0)) {
    proxy.kill("SIGKILL");
    await proxy.exited;
  }
  for (const made of sandboxes) made.remove();
  sandboxes = [];
});
afterAll(() => removeSnapshot());

function start(options: { silent?: boolean } = {}) {
  const box = makeSandbox(DENY_ERASE);
  sandboxes.push(box);
  const log = join(box.root, "server-received.jsonl");
  const proxy = startRawProxy({
    sandbox: box,
    server: [process.execPath, LENIENT_SERVER, log, ...(options.silent === true ? ["--silent"] : [])],
  });
  proxies.push(proxy);
  /** every line the server received */
  const serverReceived = () => (existsSync(log) ? readFileSync(log, "utf8") : "");
  return { proxy, serverReceived };
}

async function initialized(proxy: RawProxy): Promise<void> {
  proxy.write(
    JSON.stringify({
      jsonrpc: "2.0",
      id: "init",
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    }),
  );
  expect((await proxy.answer("init"))["result"]).toBeDefined();
  proxy.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
}

const call = (id: number, params: unknown, method = "tools/call") =>
  JSON.stringify({ jsonrpc: "2.0", id, method, params });

describe("toolgate mcp-proxy refuses what it cannot check", () => {
  it("answers every malformed tools/call with an error and forwards none of them", E2E, async () => {
    const { proxy, serverReceived } = start();
    await initialized(proxy);
    const malformed: [string, string][] = [
      ["arguments a string", call(1, { name: "erase", arguments: "everything" })],
      ["arguments an array", call(2, { name: "erase", arguments: ["everything"] })],
      ["arguments null", call(3, { name: "erase", arguments: null })],
      ["arguments a number", call(4, { name: "erase", arguments: 5 })],
      ["name an array", call(5, { name: ["erase"], arguments: {} })],
      ["no name", call(6, { arguments: {} })],
      ["params a string", call(7, "erase")],
      ["_meta a string", call(8, { name: "erase", arguments: {}, _meta: "x" })],
      ["_meta an array", call(9, { name: "erase", arguments: {}, _meta: [1] })],
      ["another case", call(10, { name: "erase", arguments: {} }, "Tools/Call")],
      ["an invisible character", call(11, { name: "erase", arguments: {} }, "tools/call\u200b")],
      ["a trailing space", call(12, { name: "erase", arguments: {} }, "tools/call ")],
    ];
    for (const [, line] of malformed) proxy.write(line);
    for (const [index, [what]] of malformed.entries()) {
      const answer = await proxy.answer(index + 1);
      expect({ what, error: answer["error"] !== undefined }).toEqual({ what, error: true });
      expect(answer["result"]).toBeUndefined();
    }
    // the same call, well formed, is toolgate's to refuse: the proxy still works, and still forwards nothing
    proxy.write(call(20, { name: "erase", arguments: {} }));
    const denied = (await proxy.answer(20))["result"] as { isError?: boolean; content: { text: string }[] };
    expect(denied.isError).toBe(true);
    expect(denied.content[0]?.text).toContain("mcp__box__erase");
    expect(serverReceived()).toContain('"initialize"');
    expect(serverReceived().toLowerCase()).not.toContain("tools/call");
    expect(serverReceived()).not.toContain("erase");
  });

  it("answers a line that is not a JSON-RPC message when its id can be read, and says so on stderr", E2E, async () => {
    const { proxy } = start();
    await initialized(proxy);
    proxy.write("{not json");
    proxy.write(JSON.stringify([{ jsonrpc: "2.0", id: 31, method: "tools/list" }]));
    proxy.write(JSON.stringify({ jsonrpc: "1.0", id: 32, method: "tools/list" }));
    proxy.write(JSON.stringify({ jsonrpc: "2.0", id: 33, method: "tools/list" }));
    expect((await proxy.answer(32))["error"]).toMatchObject({ code: -32600 });
    expect((await proxy.answer(33))["result"]).toMatchObject({ tools: [{ name: "erase" }] });
    expect(proxy.stderr()).toMatch(/not JSON/);
    expect(proxy.stderr()).toMatch(/not a valid JSON-RPC message/);
    // neither the parser's quote of a broken line nor a request's id reaches stderr: either could hold a secret
    const token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    proxy.write(`${token} {`);
    proxy.write(JSON.stringify({ jsonrpc: "1.0", id: token, method: "tools/list" }));
    expect((await proxy.answer(token))["error"]).toMatchObject({ code: -32600 });
    expect(proxy.stderr()).not.toContain("ghp_abc");
  });

  it("refuses a 20 MB message with an error for its id, says why on stderr, and keeps going", E2E, async () => {
    const { proxy, serverReceived } = start();
    await initialized(proxy);
    const content = "x".repeat(20 * 1024 * 1024);
    proxy.write(
      JSON.stringify({
        jsonrpc: "2.0",
        method: "tools/call",
        params: { name: "erase", arguments: { content } },
        id: 41,
      }),
    );
    proxy.write(call(42, { name: "erase", arguments: {} }));
    const refused = await proxy.answer(41);
    expect(refused["error"]).toMatchObject({ code: -32600 });
    expect(JSON.stringify(refused["error"])).toMatch(/over the proxy's limit/);
    expect(proxy.stderr()).toMatch(/a message of \d+ bytes is over the proxy's limit/);
    const next = (await proxy.answer(42))["result"] as { isError?: boolean };
    expect(next.isError).toBe(true);
    expect(serverReceived().toLowerCase()).not.toContain("tools/call");
  });
});

describe("toolgate mcp-proxy in front of a server that never answers initialize", () => {
  it("exits when the client closes its input", E2E, async () => {
    const { proxy, serverReceived } = start({ silent: true });
    proxy.write(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      }),
    );
    await waitFor(serverReceived, (text) => text.includes('"initialize"'));
    proxy.closeInput();
    expect(await proxy.exited).toBe(0);
    expect(proxy.stderr()).toMatch(/before the MCP server "box" answered initialize/);
  });

  it("exits on SIGTERM", E2E, async () => {
    const { proxy, serverReceived } = start({ silent: true });
    proxy.write(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      }),
    );
    // the server got the proxy's own initialize: the proxy is now waiting for it
    await waitFor(serverReceived, (text) => text.includes('"initialize"'));
    proxy.kill("SIGTERM");
    expect(await proxy.exited).toBe(0);
  });
});

/** Polls `read` until `done` holds (the proxy's progress is seen in files and streams). */
async function waitFor<T>(read: () => T, done: (value: T) => boolean): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (done(read())) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the awaited state never came");
}
