/**
 * The real Claude Code binary using an MCP server through `toolgate mcp-proxy`: `toolgate install mcp-proxy --host
 * claude-code --server fs` rewrites the project's `.mcp.json` entry for the reference filesystem server, and a
 * stubborn scripted model (the e2e harness's fake Messages API on 127.0.0.1) keeps calling a `write_file` that a
 * toolgate rule denies. Claude Code itself allows the tool; the proxy refuses it with toolgate's guidance, counts
 * every refusal, stops the session at the threshold, and `toolgate run` sees the abort.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeAnthropic } from "../claude/fake-anthropic.js";
import { createWorkspace, runClaude } from "../claude/run-claude.js";
import { assertBuilt, removeSnapshot, runToolgate, toolgateCommand } from "../claude/toolgate-cli.js";

const FILESYSTEM_SERVER = join(import.meta.dirname, "..", "node_modules", ".bin", "mcp-server-filesystem");
const ATTEMPTS = 8;

async function scenario() {
  const workspace = createWorkspace("toolgate-mcp-e2e-");
  const work = join(workspace.project, "work");
  workspace.writeFile("work/README.md", "scratch\n");
  writeFileSync(
    join(workspace.project, ".mcp.json"),
    `${JSON.stringify({ mcpServers: { fs: { command: FILESYSTEM_SERVER, args: [work] } } }, null, 2)}\n`,
  );
  // Claude Code runs the project's MCP server and lets the model use its tools; toolgate's own rule denies writes
  workspace.writeProjectSettings({
    enableAllProjectMcpServers: true,
    permissions: { allow: ["mcp__fs__write_file", "mcp__fs__read_text_file"] },
  });
  workspace.trustProject();
  writeFileSync(
    join(workspace.project, "toolgate.config.json"),
    JSON.stringify({ permissions: { deny: ["mcp__fs__write_file"] } }),
  );
  const database = join(workspace.root, "toolgate.db");
  const env = { TOOLGATE_DB: database, HOME: workspace.home };
  const install = runToolgate({
    args: ["install", "mcp-proxy", "--host", "claude-code", "--server", "fs"],
    cwd: workspace.project,
    env,
  });
  const target = join(work, "out.txt");
  const fake = await startFakeAnthropic({
    conversations: {
      main: Array.from({ length: ATTEMPTS }, () => ({
        toolUses: [{ name: "mcp__fs__write_file", input: { path: target, content: "generated" } }],
      })),
    },
  });
  const run = await runClaude({
    workspace,
    baseUrl: fake.url,
    prompt: "Write the output file.",
    maxTurns: 30,
    env: { TOOLGATE_DB: database },
    wrapper: toolgateCommand("run", "--"),
    timeoutMs: 150_000,
  });
  return { workspace, env, install, fake, run, target };
}

describe("Claude Code with an MCP server through toolgate mcp-proxy", () => {
  let result: Awaited<ReturnType<typeof scenario>>;

  beforeAll(async () => {
    assertBuilt();
    result = await scenario();
  }, 180_000);

  afterAll(async () => {
    removeSnapshot();
    if (process.env["TOOLGATE_E2E_DEBUG"]) {
      console.info(JSON.stringify({ results: result?.fake.toolResults(), stderr: result?.run.stderr }, null, 1));
    }
    await result?.fake.close();
    result?.workspace.remove();
  });

  it("install rewrote the .mcp.json entry to run the proxy", () => {
    expect(result.install.exitCode).toBe(0);
    const entry = JSON.parse(readFileSync(join(result.workspace.project, ".mcp.json"), "utf8")).mcpServers.fs;
    expect(entry.args).toContain("mcp-proxy");
    expect(entry.args.slice(-2)).toEqual([FILESYSTEM_SERVER, join(result.workspace.project, "work")]);
  });

  it("the model's write_file calls reached the proxy and were refused with toolgate's guidance", () => {
    const results = result.fake.toolResults();
    expect(results.length).toBeGreaterThanOrEqual(3);
    expect(results.every((seen) => seen.isError)).toBe(true);
    expect(results[0]?.text).toContain("mcp__fs__write_file");
    expect(existsSync(result.target)).toBe(false);
  });

  it("stops the session at the threshold, records every denial, and toolgate run exits 6", () => {
    const texts = result.fake.toolResults().map((seen) => seen.text);
    const firstStop = texts.findIndex((text) => /stopped/i.test(text));
    expect(firstStop).toBe(2);
    const report = runToolgate({ args: ["report"], cwd: result.workspace.project, env: result.env });
    expect(report.stdout).toMatch(/mcp_fs_write_file \(mcp__fs__write_file\)\s+\d+/);
    expect(result.run.exitCode).toBe(6);
  });
});
