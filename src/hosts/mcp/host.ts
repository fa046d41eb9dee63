import type { HostDescriptor, HostInstallOptions } from "../host-descriptor.js";

/** The MCP proxy: `toolgate mcp-proxy` between any MCP client and a stdio MCP server (`toolgate install mcp-proxy`). */
export const mcpProxyHost: HostDescriptor = {
  name: "mcp-proxy",
  displayName: "MCP proxy",
  kind: "proxy",
  toolNames: [],
  installer: async () => {
    const { installMcpProxy } = await import("./install/install-mcp-proxy.js");
    const mcp = (options: HostInstallOptions) => ({
      host: options.mcpHost,
      scope: options.scope,
      dryRun: options.dryRun,
      ...(options.server === undefined ? {} : { server: options.server }),
      ...(options.command === undefined ? {} : { command: options.command }),
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      ...(options.env === undefined ? {} : { env: { ...options.env } }),
    });
    return {
      install: (options) => installMcpProxy(mcp(options), "install"),
      uninstall: (options) => installMcpProxy(mcp(options), "uninstall"),
    };
  },
};
