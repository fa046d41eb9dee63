import { homedir } from "node:os";
import { resolve } from "node:path";
import { ToolgateError } from "../../../core/errors.js";
import type { McpServersConfig, McpServersRewriteOutcome } from "../../common/mcp-servers.js";
import { defaultProxyPrefix } from "./proxy-command-line.js";

/** A host whose MCP server entries the proxy can take over: its name and its `mcpServers` descriptor part. */
export interface McpProxyTarget {
  name: string;
  mcpServers: () => Promise<McpServersConfig>;
}

export interface McpProxyInstallOptions {
  host: string | undefined;
  /** the hosts `--host` may name, in registry order (the registered hosts with an `mcpServers` part) */
  targets: readonly McpProxyTarget[];
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
 * keeps them, and how its file is rewritten, is that host's `mcpServers` part (src/hosts/<host>/host.ts).
 */
export async function installMcpProxy(
  options: McpProxyInstallOptions,
  action: "install" | "uninstall",
): Promise<McpServersRewriteOutcome> {
  const target = options.targets.find((candidate) => candidate.name === options.host);
  if (target === undefined) {
    const names = options.targets.map((candidate) => candidate.name);
    throw new ToolgateError({
      code: "CONFIG_INVALID",
      message: `${action} mcp-proxy needs --host ${names.join("|")}: the host whose MCP server entry to ${action === "install" ? "rewrite" : "restore"}. Example: toolgate ${action} mcp-proxy --host ${names[0] ?? "<host>"} --server fs`,
    });
  }
  const env = options.env ?? process.env;
  const servers = await target.mcpServers();
  return servers.rewrite({
    action,
    scope: options.scope,
    cwd: resolve(options.cwd ?? process.cwd()),
    home: env["HOME"] ?? homedir(),
    env,
    // the toolgate command line, then the proxy's own subcommand: the word that marks a proxied entry
    prefix: [
      ...(options.command === undefined ? defaultProxyPrefix() : options.command.split(/\s+/).filter(Boolean)),
      "mcp-proxy",
    ],
    dryRun: options.dryRun,
    ...(options.server === undefined ? {} : { server: options.server }),
  });
}
