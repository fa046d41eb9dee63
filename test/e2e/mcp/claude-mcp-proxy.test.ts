/**
 * The real Claude Code binary using an MCP server through `toolgate mcp-proxy`: `toolgate install mcp-proxy --host
 * claude-code --server fs` rewrites the project's `.mcp.json` entry for the reference filesystem server, and a
 * stubborn scripted model (the e2e harness's fake Messages API on 127.0.0.1) keeps calling a `write_file` that a
 * toolgate rule denies. Claude Code itself allows the tool; the proxy refuses it with toolgate's guidance, counts
 * every refusal, stops the session at the threshold, and `toolgate run` sees the abort.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, runToolgate } from "../claude/toolgate-cli.js";
import { claudeThroughMcpProxy } from "./claude-mcp-scenario.js";

const FILESYSTEM_SERVER = join(import.meta.dirname, "..", "node_modules", ".bin", "mcp-server-filesystem");
const ATTEMPTS = 8;

async function scenario() {
  const setup = await claudeThroughMcpProxy({
    prefix: "toolgate-mcp-e2e-",
    server: "fs",
    entry: (workspace) => {
      workspace.writeFile("work/README.md", "scratch\n");
      return { command: FILESYSTEM_SERVER, args: [join(workspace.project, "work")] };
    },
    // Claude Code runs the project's MCP server and lets the model use its tools; toolgate's own rule denies writes
    allow: ["mcp__fs__write_file", "mcp__fs__read_text_file"],
    deny: "mcp__fs__write_file",
    toolUses: (workspace) =>
      Array.from({ length: ATTEMPTS }, () => ({
        name: "mcp__fs__write_file",
        input: { path: join(workspace.project, "work", "out.txt"), content: "generated" },
      })),
    prompt: "Write the output file.",
  });
  return { ...setup, target: join(setup.workspace.project, "work", "out.txt") };
}

describe("Claude Code with an MCP server through toolgate mcp-proxy", () => {
  let result: Awaited<ReturnType<typeof scenario>>;

  beforeAll(async () => {
    assertBuilt();
    result = await scenario();
  }, 180_000);

  afterAll(async () => {
    if (process.env["TOOLGATE_E2E_DEBUG"]) {
      console.info(JSON.stringify({ results: result?.fake.toolResults(), stderr: result?.run.stderr }, null, 1));
    }
    await result?.close();
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
