/**
 * The real Claude Code binary using one MCP server through `toolgate mcp-proxy`, under `toolgate run`: the shared
 * setup of the MCP end-to-end suites. The project's `.mcp.json` names the server, Claude Code's own settings allow
 * its tools, `toolgate.config.json` denies one, `toolgate install mcp-proxy --host claude-code --server <name>` puts
 * the server behind the proxy, and a scripted model (the harness's fake Messages API on 127.0.0.1) makes the given
 * calls, one per turn.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ScriptedToolUse, startFakeAnthropic } from "../claude/fake-anthropic.js";
import { createWorkspace, runClaude, type Workspace } from "../claude/run-claude.js";
import { removeSnapshot, runToolgate, toolgateCommand } from "../claude/toolgate-cli.js";

export async function claudeThroughMcpProxy(options: {
  /** the temporary workspace's name prefix */
  prefix: string;
  /** the server's name and its `.mcp.json` entry; `entry` gets the workspace, to name files in it */
  server: string;
  entry: (workspace: Workspace) => { command: string; args: string[] };
  /** the tools Claude Code's own settings allow, and the one toolgate's rule denies */
  allow: string[];
  deny: string;
  /** the model's calls, one per turn (given the workspace, to name files in it), and its last words */
  toolUses: (workspace: Workspace) => ScriptedToolUse[];
  finalText?: string;
  prompt: string;
}) {
  const workspace = createWorkspace(options.prefix);
  writeFileSync(
    join(workspace.project, ".mcp.json"),
    `${JSON.stringify({ mcpServers: { [options.server]: options.entry(workspace) } }, null, 2)}\n`,
  );
  workspace.writeProjectSettings({ enableAllProjectMcpServers: true, permissions: { allow: options.allow } });
  workspace.trustProject();
  writeFileSync(
    join(workspace.project, "toolgate.config.json"),
    JSON.stringify({ permissions: { deny: [options.deny] } }),
  );
  const database = join(workspace.root, "toolgate.db");
  const env = { TOOLGATE_DB: database, HOME: workspace.home };
  const install = runToolgate({
    args: ["install", "mcp-proxy", "--host", "claude-code", "--server", options.server],
    cwd: workspace.project,
    env,
  });
  const fake = await startFakeAnthropic({
    conversations: { main: options.toolUses(workspace).map((use) => ({ toolUses: [use] })) },
    ...(options.finalText === undefined ? {} : { finalText: options.finalText }),
  });
  const run = await runClaude({
    workspace,
    baseUrl: fake.url,
    prompt: options.prompt,
    maxTurns: 30,
    env: { TOOLGATE_DB: database },
    wrapper: toolgateCommand("run", "--"),
    timeoutMs: 150_000,
  });
  /** what the suite's afterAll does: the fake server closed, the workspace and the CLI's snapshot removed */
  const close = async () => {
    removeSnapshot();
    await fake.close();
    workspace.remove();
  };
  return { workspace, env, install, fake, run, close };
}
