import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadMcpProxyServer } from "./mcp-proxy-config.js";

let roots: string[] = [];
afterEach(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
  roots = [];
});

function file(value: unknown): { cwd: string; path: string } {
  const cwd = mkdtempSync(join(tmpdir(), "toolgate-mcp-config-"));
  roots.push(cwd);
  mkdirSync(join(cwd, "config"));
  const path = join(cwd, "config", "servers.json");
  writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value));
  return { cwd, path };
}

describe("loadMcpProxyServer", () => {
  it("reads one stdio entry of an .mcp.json-shaped file; a relative cwd is the file's", () => {
    const { cwd, path } = file({
      mcpServers: {
        fs: { type: "stdio", command: "npx", args: ["-y", "server"], env: { A: "1" }, cwd: "../work" },
        web: { type: "http", url: "https://example.com/mcp" },
      },
    });
    expect(loadMcpProxyServer({ file: path, server: "fs", cwd })).toEqual({
      type: "stdio",
      command: "npx",
      args: ["-y", "server"],
      env: { A: "1" },
      cwd: join(cwd, "work"),
    });
  });

  it("names the file, the entry and the key when an entry cannot run", () => {
    const { cwd, path } = file({ mcpServers: { web: { type: "http", url: "https://example.com/mcp" } } });
    expect(() => loadMcpProxyServer({ file: path, server: "web", cwd })).toThrow(/mcpServers\.web\.type/);
    expect(() => loadMcpProxyServer({ file: path, server: "fs", cwd })).toThrow(
      /has no MCP server "fs"; it lists "web"/,
    );
    const typo = file({ mcpServers: { fs: { command: "x", arg: [] } } });
    expect(() => loadMcpProxyServer({ file: typo.path, server: "fs", cwd })).toThrow(/arg/);
    const broken = file("{ not json");
    expect(() => loadMcpProxyServer({ file: broken.path, server: "fs", cwd })).toThrow(/not valid JSON/);
    expect(() => loadMcpProxyServer({ file: join(cwd, "missing.json"), server: "fs", cwd })).toThrow(/does not exist/);
  });
});
