import type { HostDescriptor } from "../host-descriptor.js";

/**
 * The ACP proxy: `toolgate acp-proxy -- <agent command...>` between an editor and any agent it talks to over the Agent
 * Client Protocol (claude-code-acp, codex-acp, Gemini CLI's `--experimental-acp`, ...). Its tools are the agent's
 * own names when the agent sends them (`_meta.claudeCode.toolName: "Bash"`), else the ACP tool kinds.
 */
export const acpProxyHost: HostDescriptor = {
  name: "acp-proxy",
  displayName: "ACP proxy",
  kind: "proxy",
  // the ACP tool kinds a call is named by when the agent sends no tool name of its own
  toolNames: ["execute", "read", "edit", "fetch"],
};
