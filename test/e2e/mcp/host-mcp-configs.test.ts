/**
 * `toolgate install mcp-proxy` against the real Codex, Gemini CLI and opencode binaries: each host reads the entry
 * the installer rewrote (`codex mcp list --json`, `gemini mcp list`, `opencode mcp list`), and Gemini CLI and
 * opencode start it and complete the MCP handshake through the proxy with the real filesystem server (their
 * `list` commands connect to each server). Offline: nothing here talks to a model.
 */

import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workspaceTemporary } from "../claude/run-claude.js";
import { assertBuilt, removeSnapshot, runToolgate } from "../claude/toolgate-cli.js";
import { opencodeBinary } from "../opencode/opencode-binary.js";

const BIN = join(import.meta.dirname, "..", "node_modules", ".bin");
const FILESYSTEM_SERVER = join(BIN, "mcp-server-filesystem");
const E2E = { timeout: 180_000 };
let roots: string[] = [];

function workspace() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "toolgate-mcp-hosts-")));
  roots.push(root);
  const home = join(root, "home");
  const project = join(root, "project");
  const work = join(project, "work");
  mkdirSync(home, { recursive: true });
  mkdirSync(work, { recursive: true });
  const env: Record<string, string> = {
    PATH: process.env["PATH"] ?? "",
    // inside the workspace, removed with it: the hosts' own folders (opencode's, Codex's sandbox mount targets)
    TMPDIR: workspaceTemporary(home),
    HOME: home,
    TOOLGATE_DB: join(root, "toolgate.db"),
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_STATE_HOME: join(home, ".local", "state"),
  };
  return { root, home, project, work, env };
}

function run(command: string, args: string[], options: { cwd: string; env: Record<string, string> }) {
  const result = spawnSync(command, args, { ...options, encoding: "utf8", timeout: 120_000, input: "" });
  return { exitCode: result.status, output: `${result.stdout}${result.stderr}`, stdout: result.stdout };
}

function install(box: ReturnType<typeof workspace>, host: string) {
  const installed = runToolgate({
    args: ["install", "mcp-proxy", "--host", host, "--server", "fs"],
    cwd: box.project,
    env: box.env,
  });
  expect(installed.exitCode).toBe(0);
  return installed;
}

beforeAll(() => assertBuilt());
afterAll(() => {
  removeSnapshot();
  for (const root of roots) rmSync(root, { recursive: true, force: true });
  roots = [];
});

describe("toolgate install mcp-proxy, read by the real hosts", () => {
  it("Codex 0.171.0 reads the rewritten [mcp_servers.fs] table", E2E, () => {
    const box = workspace();
    const codexHome = join(box.home, ".codex");
    mkdirSync(codexHome);
    box.env["CODEX_HOME"] = codexHome;
    writeFileSync(
      join(codexHome, "config.toml"),
      `[mcp_servers.fs]\ncommand = ${JSON.stringify(FILESYSTEM_SERVER)}\nargs = [${JSON.stringify(box.work)}]\n`,
    );
    install(box, "codex");
    const listed = run(join(BIN, "codex"), ["mcp", "list", "--json"], { cwd: box.project, env: box.env });
    expect(listed.exitCode).toBe(0);
    const servers = JSON.parse(listed.stdout.slice(listed.stdout.indexOf("["))) as {
      name: string;
      transport: { command: string; args: string[] };
    }[];
    const fs = servers.find((server) => server.name === "fs");
    expect(fs?.transport.args).toContain("mcp-proxy");
    expect(fs?.transport.args.slice(-2)).toEqual([FILESYSTEM_SERVER, box.work]);
  });

  it("Gemini CLI 0.61.0 connects to the filesystem server through the proxy", E2E, () => {
    const box = workspace();
    mkdirSync(join(box.project, ".gemini"));
    writeFileSync(
      join(box.project, ".gemini", "settings.json"),
      JSON.stringify({ mcpServers: { fs: { command: FILESYSTEM_SERVER, args: [box.work] } } }, null, 2),
    );
    install(box, "gemini");
    const listed = run(join(BIN, "gemini"), ["mcp", "list"], {
      cwd: box.project,
      env: { ...box.env, GEMINI_CLI_TRUST_WORKSPACE: "true" },
    });
    const line = listed.output.split("\n").find((text) => text.includes("fs:")) ?? "";
    expect(line).toContain("mcp-proxy --server fs --");
    expect(line).toMatch(/Connected/i);
  });

  it("opencode 1.18.33 connects to the filesystem server through the proxy", E2E, () => {
    const box = workspace();
    writeFileSync(
      join(box.project, "opencode.json"),
      JSON.stringify({ mcp: { fs: { type: "local", command: [FILESYSTEM_SERVER, box.work] } } }, null, 2),
    );
    install(box, "opencode");
    const listed = run(opencodeBinary(), ["mcp", "list"], { cwd: box.project, env: box.env });
    // biome-ignore lint/suspicious/noControlCharactersInRegex: opencode colours its output
    const text = listed.output.replace(/\u001b\[[0-9;]*m/g, "");
    expect(text).toMatch(/fs\s+connected/);
    expect(text).toContain("mcp-proxy --server fs --");
  });
});
