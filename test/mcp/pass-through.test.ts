/**
 * What `toolgate mcp-proxy` must not change: progress notifications, cancellation, resources, prompts, log messages,
 * server-initiated requests (roots/list), the server's info and instructions; and a server that dies mid-call is an
 * error for the client, never a hang. The real SDK on both ends (fixtures/passthrough-server.mjs is an SDK server).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  type Progress,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, removeSnapshot } from "../e2e/claude/toolgate-cli.js";
import { connect, makeSandbox, PASSTHROUGH_SERVER, type Sandbox, textOf } from "./proxy-session.js";

const E2E = { timeout: 180_000 };
let sandboxes: Sandbox[] = [];

function sandbox(): Sandbox {
  const made = makeSandbox();
  sandboxes.push(made);
  return made;
}

beforeAll(() => assertBuilt());
afterEach(() => {
  for (const made of sandboxes) made.remove();
  sandboxes = [];
});
afterAll(() => removeSnapshot());

async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (let waited = 0; waited < 30_000; waited += 50) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("toolgate mcp-proxy passes the protocol through", () => {
  it("copies the server's info and instructions, forwards progress, resources, prompts and logs", E2E, async () => {
    const box = sandbox();
    const logs: unknown[] = [];
    const session = await connect({
      sandbox: box,
      server: [process.execPath, PASSTHROUGH_SERVER, box.root],
      proxy: "fixture",
      prepare: (client) =>
        client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
          logs.push(notification.params.data);
        }),
    });
    const { client } = session;
    expect(client.getServerVersion()).toEqual({ name: "passthrough-fixture", version: "1.2.3" });
    expect(client.getInstructions()).toBe("fixture instructions");

    const progress: Progress[] = [];
    const counted = await client.callTool({ name: "count", arguments: { n: 3 } }, undefined, {
      onprogress: (update) => progress.push(update),
    });
    expect(textOf(counted)).toBe("counted to 3");
    expect(progress.map((update) => [update.progress, update.total, update.message])).toEqual([
      [1, 3, "step 1"],
      [2, 3, "step 2"],
      [3, 3, "step 3"],
    ]);

    const resources = await client.listResources();
    expect(resources.resources.map((resource) => resource.uri)).toEqual(["fixture://readme"]);
    const read = await client.readResource({ uri: "fixture://readme" });
    expect(read.contents[0]).toMatchObject({ uri: "fixture://readme", text: "fixture resource text" });

    const prompts = await client.listPrompts();
    expect(prompts.prompts.map((prompt) => prompt.name)).toEqual(["greet"]);
    const prompt = await client.getPrompt({ name: "greet", arguments: { name: "Ada" } });
    expect(prompt.messages[0]?.content).toEqual({ type: "text", text: "Hello, Ada!" });

    await client.setLoggingLevel("debug");
    await client.callTool({ name: "log", arguments: {} });
    await waitFor(() => logs.length > 0, "the log message");
    expect(logs).toEqual(["fixture log line"]);
    await session.close();
  });

  it("forwards the server's own requests to the client (roots/list)", E2E, async () => {
    const box = sandbox();
    const session = await connect({
      sandbox: box,
      server: [process.execPath, PASSTHROUGH_SERVER, box.root],
      proxy: "fixture",
      capabilities: { roots: { listChanged: true } },
      prepare: (client) =>
        client.setRequestHandler(ListRootsRequestSchema, async () => ({
          roots: [{ uri: "file:///tmp/project-root", name: "project" }],
        })),
    });
    const result = await session.client.callTool({ name: "roots", arguments: {} });
    await session.close();
    expect(JSON.parse(textOf(result))).toEqual([{ uri: "file:///tmp/project-root", name: "project" }]);
  });

  it("passes a cancellation on to the server", E2E, async () => {
    const box = sandbox();
    const session = await connect({
      sandbox: box,
      server: [process.execPath, PASSTHROUGH_SERVER, box.root],
      proxy: "fixture",
    });
    const controller = new AbortController();
    const call = session.client.callTool({ name: "slow", arguments: {} }, undefined, { signal: controller.signal });
    setTimeout(() => controller.abort("the user pressed escape"), 500);
    await expect(call).rejects.toThrow();
    await waitFor(() => existsSync(join(box.root, "cancelled")), "the server to see the cancellation");
    // the proxy and the server still serve the next call
    const next = await session.client.callTool({ name: "count", arguments: { n: 1 } });
    expect(textOf(next)).toBe("counted to 1");
    await session.close();
  });

  it("answers a call with an error when the server is killed mid-call, and closes", E2E, async () => {
    const box = sandbox();
    const session = await connect({
      sandbox: box,
      server: [process.execPath, PASSTHROUGH_SERVER, box.root],
      proxy: "fixture",
    });
    const pid = Number(textOf(await session.client.callTool({ name: "pid", arguments: {} })));
    expect(pid).toBeGreaterThan(0);
    let closed = false;
    session.client.onclose = () => {
      closed = true;
    };
    const started = Date.now();
    const call = session.client.callTool({ name: "slow", arguments: {} }, undefined, { timeout: 120_000 });
    setTimeout(() => process.kill(pid, "SIGKILL"), 300);
    await expect(call).rejects.toThrow(/the MCP server "fixture" exited before it answered/);
    // the error came from the proxy, not from the client's own 120 s timeout
    expect(Date.now() - started).toBeLessThan(100_000);
    await waitFor(() => closed, "the proxy to close the connection");
    expect(session.stderr()).toContain('the MCP server "fixture" exited');
  });

  it("closes in order on SIGTERM: the server is stopped and the proxy exits", E2E, async () => {
    const box = sandbox();
    const session = await connect({
      sandbox: box,
      server: [process.execPath, PASSTHROUGH_SERVER, box.root],
      proxy: "fixture",
    });
    const serverPid = Number(textOf(await session.client.callTool({ name: "pid", arguments: {} })));
    let closed = false;
    session.client.onclose = () => {
      closed = true;
    };
    process.kill(session.transport.pid as number, "SIGTERM");
    await waitFor(() => closed, "the proxy to exit");
    const alive = () => {
      try {
        process.kill(serverPid, 0);
        return true;
      } catch {
        return false;
      }
    };
    await waitFor(() => !alive(), "the server to be stopped");
  });

  it("reports a server that cannot start as an initialize error", E2E, async () => {
    const box = sandbox();
    await expect(
      connect({ sandbox: box, server: [join(box.root, "no-such-server")], proxy: "missing" }),
    ).rejects.toThrow(/the MCP server "missing" .*did not start/);
  });
});
