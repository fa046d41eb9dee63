import type { HostDescriptor, HostInstallOptions } from "../host-descriptor.js";

/** The MCP proxy: `toolgate mcp-proxy` between any MCP client and a stdio MCP server (`toolgate install mcp-proxy`). */
export const mcpProxyHost: HostDescriptor = {
  name: "mcp-proxy",
  displayName: "MCP proxy",
  kind: "proxy",
  toolNames: [],
  wrapsMcpServers: true,
  installer: async () => {
    // the hosts whose MCP server entries the proxy takes over come from the registry, imported only now: the
    // registry lists this descriptor, and no host folder reaches another except through the registry
    const [{ installMcpProxy }, { hostsWith }] = await Promise.all([
      import("./install/install-mcp-proxy.js"),
      import("../registry.js"),
    ]);
    const mcp = (options: HostInstallOptions) => ({
      host: options.mcpHost,
      targets: hostsWith("mcpServers"),
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
  help: { command: "for mcp-proxy the toolgate command line (e.g. `npx toolgate`)" },
};
