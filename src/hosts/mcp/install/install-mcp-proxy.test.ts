import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { afterEach, describe, expect, it } from "vitest";
import { hostsWith } from "../../registry.js";
import { installMcpProxy } from "./install-mcp-proxy.js";

// the hosts `--host` may name, from the registry, as the installer gets them
const targets = hostsWith("mcpServers");

let roots: string[] = [];
afterEach(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
  roots = [];
});

function workspace() {
  const root = mkdtempSync(join(tmpdir(), "toolgate-mcp-install-"));
  roots.push(root);
  const home = join(root, "home");
  const project = join(root, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  return { home, project, env: { HOME: home } as Record<string, string | undefined> };
}

const PREFIX = "/usr/bin/node /opt/toolgate/dist/cli/main.js";

const claudeMcpJson = `{
  "mcpServers": {
    "fs": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/repo"],
      "env": { "DEBUG": "1" }
    },
    "docs": { "type": "http", "url": "https://example.com/mcp" }
  }
}
`;

const geminiSettings = `{
  // Gemini CLI settings
  "theme": "GitHub",
  "mcpServers": {
    "fs": { "command": "mcp-server-filesystem", "args": ["."], "timeout": 30000 }
  }
}
`;

const opencodeJson = `{
  "$schema": "https://opencode.ai/config.json",
  "mcp": {
    "fs": { "type": "local", "command": ["npx", "-y", "@modelcontextprotocol/server-filesystem", "."], "enabled": true },
    "remote": { "type": "remote", "url": "https://example.com/mcp" }
  }
}
`;

const codexToml = `model = "gpt-5"

# the filesystem server
[mcp_servers.fs]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-filesystem", "/repo"]
env = { "DEBUG" = "1" }

[mcp_servers.other]
command = "other-server"
args = [
  "--flag",
  "value",
]
`;

async function roundTrip(options: {
  host: string;
  file: string;
  text: string;
  server?: string;
  scope?: "project" | "user" | "local";
  env: Record<string, string | undefined>;
  cwd: string;
}) {
  writeFileSync(options.file, options.text);
  const base = {
    host: options.host,
    targets,
    scope: options.scope ?? "project",
    dryRun: false,
    command: PREFIX,
    cwd: options.cwd,
    env: options.env,
    ...(options.server === undefined ? {} : { server: options.server }),
  };
  const installed = await installMcpProxy(base, "install");
  const proxied = readFileSync(options.file, "utf8");
  const again = await installMcpProxy(base, "install");
  const removed = await installMcpProxy(base, "uninstall");
  return { installed, proxied, again, removed, restored: readFileSync(options.file, "utf8") };
}

describe("toolgate install mcp-proxy", async () => {
  it("Claude Code .mcp.json: rewrites the stdio entry, leaves the http one, restores the file exactly", async () => {
    const { project, env } = workspace();
    const file = join(project, ".mcp.json");
    const run = await roundTrip({ host: "claude-code", file, text: claudeMcpJson, server: "fs", env, cwd: project });
    const entry = (JSON.parse(run.proxied) as { mcpServers: Record<string, Record<string, unknown>> }).mcpServers;
    expect(entry["fs"]).toEqual({
      command: "/usr/bin/node",
      args: [
        "/opt/toolgate/dist/cli/main.js",
        "mcp-proxy",
        "--server",
        "fs",
        "--",
        "npx",
        "-y",
        "@modelcontextprotocol/server-filesystem",
        "/repo",
      ],
      env: { DEBUG: "1" },
    });
    expect(entry["docs"]).toEqual({ type: "http", url: "https://example.com/mcp" });
    expect(run.installed.changed).toBe(true);
    expect(run.installed.diff.join("\n")).toMatch(/^\+ +"command": "\/usr\/bin\/node",$/m);
    expect(run.again.changed).toBe(false);
    expect(run.removed.changed).toBe(true);
    expect(run.restored).toBe(claudeMcpJson);
  });

  it("Claude Code ~/.claude.json: the user scope and this project's local entries", async () => {
    const { home, project, env } = workspace();
    const file = join(home, ".claude.json");
    const text = `${JSON.stringify({ numStartups: 3, mcpServers: { fs: { command: "a", args: ["b"] } }, projects: { [project]: { mcpServers: { fs: { command: "c", args: [] } } } } }, null, 2)}\n`;
    const user = await roundTrip({ host: "claude-code", file, text, scope: "user", env, cwd: project });
    expect(user.proxied).toContain('"--",\n        "a",\n        "b"');
    expect(user.restored).toBe(text);
    const local = await roundTrip({ host: "claude-code", file, text, scope: "local", env, cwd: project });
    const projects = (
      JSON.parse(local.proxied) as { projects: Record<string, { mcpServers: Record<string, { args: string[] }> }> }
    ).projects;
    expect(projects[project]?.mcpServers["fs"]?.args.slice(-2)).toEqual(["--", "c"]);
    expect(local.restored).toBe(text);
  });

  it("Gemini CLI settings.json (JSONC): comments and other keys stay, the entry is restored", async () => {
    const { project, env } = workspace();
    mkdirSync(join(project, ".gemini"));
    const file = join(project, ".gemini", "settings.json");
    const run = await roundTrip({ host: "gemini", file, text: geminiSettings, env, cwd: project });
    expect(run.proxied).toContain("// Gemini CLI settings");
    expect(run.proxied).toContain('"timeout": 30000');
    expect(run.proxied).toContain('"mcp-proxy", "--server", "fs", "--", "mcp-server-filesystem", "."');
    expect(run.restored).toBe(geminiSettings);
  });

  it("opencode opencode.json: the command array runs the proxy; the remote entry is left alone", async () => {
    const { project, env } = workspace();
    const file = join(project, "opencode.json");
    const run = await roundTrip({ host: "opencode", file, text: opencodeJson, env, cwd: project });
    const mcp = (JSON.parse(run.proxied) as { mcp: Record<string, { command?: string[] }> }).mcp;
    expect(mcp["fs"]?.command?.slice(0, 6)).toEqual([
      "/usr/bin/node",
      "/opt/toolgate/dist/cli/main.js",
      "mcp-proxy",
      "--server",
      "fs",
      "--",
    ]);
    expect(run.installed.notes.join("\n")).toContain('"remote"');
    expect(run.restored).toBe(opencodeJson);
  });

  it("Codex config.toml: only the command and args lines change; both tables restored", async () => {
    const { home, project } = workspace();
    const codexHome = join(home, "codex");
    mkdirSync(codexHome);
    const file = join(codexHome, "config.toml");
    const env = { HOME: home, CODEX_HOME: codexHome };
    const run = await roundTrip({ host: "codex", file, text: codexToml, env, cwd: project });
    const servers = parseToml(run.proxied)["mcp_servers"] as Record<
      string,
      { command: string; args: string[]; env?: unknown }
    >;
    expect(servers["fs"]?.command).toBe("/usr/bin/node");
    expect(servers["fs"]?.args.slice(-4)).toEqual(["npx", "-y", "@modelcontextprotocol/server-filesystem", "/repo"]);
    expect(servers["fs"]?.env).toEqual({ DEBUG: "1" });
    expect(servers["other"]?.args.slice(-3)).toEqual(["other-server", "--flag", "value"]);
    expect(run.proxied).toContain("# the filesystem server");
    // the one-line table comes back exactly; the multi-line array comes back as one line with the same values
    const restored = parseToml(run.restored)["mcp_servers"] as Record<string, unknown>;
    expect(restored).toEqual(parseToml(codexToml)["mcp_servers"]);
    expect(run.restored).toContain(
      '[mcp_servers.fs]\ncommand = "npx"\nargs = ["-y", "@modelcontextprotocol/server-filesystem", "/repo"]\n',
    );
  });

  it("a dry run writes nothing; an unknown server and a missing --host are errors that say what to do", async () => {
    const { project, env } = workspace();
    const file = join(project, ".mcp.json");
    writeFileSync(file, claudeMcpJson);
    const dry = await installMcpProxy(
      { host: "claude-code", targets, scope: "project", dryRun: true, cwd: project, env },
      "install",
    );
    expect(dry.changed).toBe(true);
    expect(dry.written).toBe(false);
    expect(readFileSync(file, "utf8")).toBe(claudeMcpJson);
    await expect(
      installMcpProxy(
        { host: "claude-code", targets, server: "nope", scope: "project", dryRun: false, cwd: project, env },
        "install",
      ),
    ).rejects.toThrow(/has no MCP server "nope"; it lists "fs", "docs"/);
    await expect(
      installMcpProxy({ host: undefined, targets, scope: "project", dryRun: false, cwd: project, env }, "install"),
    ).rejects.toThrow(/needs --host claude-code\|codex\|gemini\|opencode/);
    await expect(
      installMcpProxy({ host: "gemini", targets, scope: "project", dryRun: false, cwd: project, env }, "install"),
    ).rejects.toThrow(/does not exist/);
  });
});
