/**
 * One abort ends the run through the MCP proxy (issue 24): the real Claude Code binary, under `toolgate run`, with
 * an MCP server `box` put behind `toolgate mcp-proxy` by `toolgate install mcp-proxy --host claude-code --server
 * box`, a `toolgate.config.json` deny rule on the server's tool, and a scripted model (the e2e harness's fake
 * Messages API on 127.0.0.1) that retries the denied call 12 times with small variations. The proxy refuses each
 * call; at the third it tells the model the run is being stopped and notes the abort for `toolgate run`, which ends
 * Claude Code: no call after the aborting one is answered or reaches the server, Claude Code reports no success,
 * and `toolgate run` exits 6.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt } from "../claude/toolgate-cli.js";
import { claudeThroughMcpProxy } from "./claude-mcp-scenario.js";

const LENIENT_SERVER = join(import.meta.dirname, "..", "..", "mcp", "fixtures", "lenient-server.mjs");
const ATTEMPTS = 12;

async function scenario() {
  let serverLog = "";
  const setup = await claudeThroughMcpProxy({
    prefix: "toolgate-mcp-abort-e2e-",
    server: "box",
    entry: (workspace) => {
      serverLog = join(workspace.root, "box-received.jsonl");
      return { command: process.execPath, args: [LENIENT_SERVER, serverLog] };
    },
    // Claude Code lets the model use the server's tool; toolgate's own rule denies it
    allow: ["mcp__box__erase"],
    deny: "mcp__box__erase",
    // the same denied call, a little different each time, as a looping model retries it
    toolUses: () =>
      Array.from({ length: ATTEMPTS }, (_, index) => ({
        name: "mcp__box__erase",
        input: { target: `build-${index}`, force: index % 2 === 0 },
      })),
    finalText: "Done: everything is erased.",
    prompt: "Erase the build folders.",
  });
  const serverReceived = existsSync(serverLog) ? readFileSync(serverLog, "utf8") : "";
  return { ...setup, serverReceived };
}

describe("Claude Code through toolgate mcp-proxy under toolgate run: an abort ends the run", () => {
  let result: Awaited<ReturnType<typeof scenario>>;

  beforeAll(async () => {
    assertBuilt();
    result = await scenario();
  }, 180_000);

  afterAll(async () => {
    if (process.env["TOOLGATE_E2E_DEBUG"]) {
      console.info(
        JSON.stringify(
          { results: result?.fake.toolResults(), stderr: result?.run.stderr, tail: result?.run.messages.slice(-3) },
          null,
          1,
        ),
      );
    }
    await result?.close();
  });

  it("install put the box server behind the proxy, and Claude Code connected through it", () => {
    expect(result.install.exitCode).toBe(0);
    const entry = JSON.parse(readFileSync(join(result.workspace.project, ".mcp.json"), "utf8")).mcpServers.box;
    expect(entry.args).toContain("mcp-proxy");
    expect(result.serverReceived).toContain('"initialize"');
  });

  it("answers exactly the calls up to the aborting one, whose words tell the model the run is being stopped", () => {
    const results = result.fake.toolResults();
    expect(results.map((seen) => seen.isError)).toEqual([true, true, true]);
    expect(results[0]?.text).toContain("mcp__box__erase");
    expect(results[2]?.text).toMatch(/The run is being stopped/);
  });

  it("no call reaches the server, Claude Code reports no success, and toolgate run exits 6", () => {
    expect(result.serverReceived.toLowerCase()).not.toContain("tools/call");
    expect(result.run.result?.["subtype"]).not.toBe("success");
    expect(result.run.messages.some((message) => message["subtype"] === "success")).toBe(false);
    expect(result.run.stderr).toMatch(/toolgate run: 3 denied calls; toolgate aborted the run/);
    expect(result.run.exitCode).toBe(6);
  });
});
