import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { ToolgateError } from "../../../core/errors.js";
import { commandArgsShape, commandArrayShape } from "./mcp-json-servers.js";
/** The hosts whose MCP server entries `toolgate install mcp-proxy --host <host>` rewrites. */
import { MCP_PROXY_HOSTS, type McpProxyHost } from "./mcp-proxy-hosts.js";
import { defaultProxyPrefix } from "./proxy-command-line.js";
import { rewriteCodexServers } from "./rewrite-codex-servers.js";
import { type RewriteOutcome, rewriteJsonServers } from "./rewrite-json-servers.js";

export { MCP_PROXY_HOSTS, type McpProxyHost };

export interface McpProxyInstallOptions {
  host: string | undefined;
  /** one entry; absent: every stdio server in the file */
  server?: string;
  scope: "project" | "local" | "user";
  dryRun: boolean;
  /** the toolgate command the entry runs, split on spaces (default: this node running this toolgate) */
  command?: string;
  cwd?: string;
  env?: Record<string, string | undefined>;
}

/**
 * `toolgate install mcp-proxy` / `uninstall mcp-proxy`: rewrites existing MCP server entries of a host's config to
 * run through `toolgate mcp-proxy` (their original command line kept after `--`), or restores them. Where each host
 * keeps them:
 * - Claude Code: `.mcp.json` (`--project`), `~/.claude.json` `mcpServers` (`--user`) or its
 *   `projects["<cwd>"].mcpServers` (`--local`);
 * - Codex: `$CODEX_HOME/config.toml` (default `~/.codex`) `[mcp_servers.<name>]` (every scope);
 * - Gemini CLI: `.gemini/settings.json` (`--project`) or `~/.gemini/settings.json` (`--user`) `mcpServers`;
 * - opencode: `opencode.json` (`--project`) or `~/.config/opencode/opencode.json` (`--user`) `mcp`.
 */
export function installMcpProxy(options: McpProxyInstallOptions, action: "install" | "uninstall"): RewriteOutcome {
  const host = options.host;
  if (host === undefined || !(MCP_PROXY_HOSTS as readonly string[]).includes(host)) {
    throw new ToolgateError({
      code: "CONFIG_INVALID",
      message: `${action} mcp-proxy needs --host ${MCP_PROXY_HOSTS.join("|")}: the host whose MCP server entry to ${action === "install" ? "rewrite" : "restore"}. Example: toolgate ${action} mcp-proxy --host claude-code --server fs`,
    });
  }
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const home = env["HOME"] ?? homedir();
  const prefix = options.command === undefined ? defaultProxyPrefix() : options.command.split(/\s+/).filter(Boolean);
  const common = {
    action,
    prefix,
    dryRun: options.dryRun,
    ...(options.server === undefined ? {} : { server: options.server }),
  };
  switch (host as McpProxyHost) {
    case "claude-code": {
      if (options.scope === "project") {
        return rewriteJsonServers({ ...common, file: join(cwd, ".mcp.json"), shape: commandArgsShape(["mcpServers"]) });
      }
      const path = options.scope === "user" ? ["mcpServers"] : ["projects", resolve(cwd), "mcpServers"];
      return rewriteJsonServers({ ...common, file: join(home, ".claude.json"), shape: commandArgsShape(path) });
    }
    case "codex": {
      const codexHome = env["CODEX_HOME"] ?? join(home, ".codex");
      return rewriteCodexServers({ ...common, file: join(codexHome, "config.toml") });
    }
    case "gemini": {
      const file =
        options.scope === "user" ? join(home, ".gemini", "settings.json") : join(cwd, ".gemini", "settings.json");
      return rewriteJsonServers({ ...common, file, shape: commandArgsShape(["mcpServers"]) });
    }
    case "opencode": {
      const file =
        options.scope === "user" ? join(home, ".config", "opencode", "opencode.json") : join(cwd, "opencode.json");
      return rewriteJsonServers({ ...common, file, shape: commandArrayShape(["mcp"]) });
    }
  }
}
