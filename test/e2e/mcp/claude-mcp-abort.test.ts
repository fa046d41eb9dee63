/**
 * One abort ends the run through the MCP proxy (issue 24): the real Claude Code binary, under `toolgate run`, with
 * an MCP server `box` put behind `toolgate mcp-proxy` by `toolgate install mcp-proxy --host claude-code --server
 * box`, a `toolgate.config.json` deny rule on the server's tool, and a scripted model (the e2e harness's fake
 * Messages API on 127.0.0.1) that retries the denied call 12 times with small variations. The proxy refuses each
 * call; at the third it tells the model the run is being stopped and notes the abort for `toolgate run`, which ends
 * Claude Code: no call after the aborting one is answered or reaches the server, Claude Code reports no success,
 * and `toolgate run` exits 6.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeAnthropic } from "../claude/fake-anthropic.js";
import { createWorkspace, runClaude } from "../claude/run-claude.js";
import { assertBuilt, removeSnapshot, runToolgate, toolgateCommand } from "../claude/toolgate-cli.js";

const LENIENT_SERVER = join(import.meta.dirname, "..", "..", "mcp", "fixtures", "lenient-server.mjs");
const ATTEMPTS = 12;

async function scenario() {
  const workspace = createWorkspace("toolgate-mcp-abort-e2e-");
  const serverLog = join(workspace.root, "box-received.jsonl");
  writeFileSync(
    join(workspace.project, ".mcp.json"),
    `${JSON.stringify({ mcpServers: { box: { command: process.execPath, args: [LENIENT_SERVER, serverLog] } } }, null, 2)}\n`,
  );
  // Claude Code lets the model use the server's tool; toolgate's own rule denies it
  workspace.writeProjectSettings({ enableAllProjectMcpServers: true, permissions: { allow: ["mcp__box__erase"] } });
  workspace.trustProject();
  writeFileSync(
    join(workspace.project, "toolgate.config.json"),
    JSON.stringify({ permissions: { deny: ["mcp__box__erase"] } }),
  );
  const database = join(workspace.root, "toolgate.db");
  const env = { TOOLGATE_DB: database, HOME: workspace.home };
  const install = runToolgate({
    args: ["install", "mcp-proxy", "--host", "claude-code", "--server", "box"],
    cwd: workspace.project,
    env,
  });
  const fake = await startFakeAnthropic({
    conversations: {
      // the same denied call, a little different each time, as a looping model retries it
      main: Array.from({ length: ATTEMPTS }, (_, index) => ({
        toolUses: [{ name: "mcp__box__erase", input: { target: `build-${index}`, force: index % 2 === 0 } }],
      })),
    },
    finalText: "Done: everything is erased.",
  });
  const run = await runClaude({
    workspace,
    baseUrl: fake.url,
    prompt: "Erase the build folders.",
    maxTurns: 30,
    env: { TOOLGATE_DB: database },
    wrapper: toolgateCommand("run", "--"),
    timeoutMs: 150_000,
  });
  const serverReceived = existsSync(serverLog) ? readFileSync(serverLog, "utf8") : "";
  return { workspace, env, install, fake, run, serverReceived };
}

describe("Claude Code through toolgate mcp-proxy under toolgate run: an abort ends the run", () => {
  let result: Awaited<ReturnType<typeof scenario>>;

  beforeAll(async () => {
    assertBuilt();
    result = await scenario();
  }, 180_000);

  afterAll(async () => {
    removeSnapshot();
    if (process.env["TOOLGATE_E2E_DEBUG"]) {
      console.info(
        JSON.stringify(
          { results: result?.fake.toolResults(), stderr: result?.run.stderr, tail: result?.run.messages.slice(-3) },
          null,
          1,
        ),
      );
    }
    await result?.fake.close();
    result?.workspace.remove();
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
