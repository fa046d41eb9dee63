import type { HostDescriptor, HostInstallOptions } from "../host-descriptor.js";

/**
 * The ACP proxy: `toolgate acp-proxy -- <agent command...>` between an editor and any agent it talks to over the Agent
 * Client Protocol (the ACP adapters of the agents, an agent's own ACP mode, ...). Its tools are the agent's own names when
 * the agent sends them (`_meta.claudeCode.toolName: "Bash"`), else the ACP tool kinds.
 */
export const acpProxyHost: HostDescriptor = {
  name: "acp-proxy",
  displayName: "ACP proxy",
  kind: "proxy",
  wrapsEditorAgents: true,
  // the ACP tool kinds a call is named by when the agent sends no tool name of its own
  toolNames: ["execute", "read", "edit", "fetch"],
  installer: async () => {
    const { installAcpProxy } = await import("./install/install-acp-proxy.js");
    return {
      install: (options) => installAcpProxy(acpOptions(options), "install"),
      uninstall: (options) => installAcpProxy(acpOptions(options), "uninstall"),
    };
  },
  defaultInstallScope: { scope: "user", why: "editors keep their ACP agents in your user settings" },
  doctor: async () => {
    const module = await import("./install/check-acp-proxy.js");
    return { found: module.acpProxyFound, locations: module.acpProxyLocations, check: module.checkAcpProxy };
  },
  help: {
    examples: {
      install: [
        ["toolgate install acp-proxy --editor zed", "every agent_servers entry of ~/.config/zed/settings.json"],
        ["toolgate install acp-proxy --editor jetbrains --server MyAgent", "one agent of ~/.jetbrains/acp.json"],
      ],
      uninstall: [["toolgate uninstall acp-proxy --editor zed", "the agents' own command lines back"]],
    },
    settings: {
      project: ".zed/settings.json (acp-proxy --editor zed)",
      user: "~/.config/zed/settings.json or ~/.jetbrains/acp.json (acp-proxy --editor zed|jetbrains)",
    },
    command: "for acp-proxy the toolgate command line (e.g. `npx toolgate`)",
    looksIn: "~/.config/zed/settings.json and ~/.jetbrains/acp.json (agent_servers) for the ACP proxy",
  },
};

function acpOptions(options: HostInstallOptions) {
  return {
    editor: options.editor,
    scope: options.scope,
    dryRun: options.dryRun,
    ...(options.server === undefined ? {} : { agent: options.server }),
    ...(options.command === undefined ? {} : { command: options.command }),
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    ...(options.env === undefined ? {} : { env: options.env }),
  };
}
