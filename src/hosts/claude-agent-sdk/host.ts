import type { HostDescriptor } from "../host-descriptor.js";

/** The Claude Agent SDK: `toolgate/claude-agent-sdk` wraps `canUseTool` and hooks in the app's own process. */
export const claudeAgentSdkHost: HostDescriptor = {
  name: "claude-agent-sdk",
  displayName: "Claude Agent SDK",
  kind: "in-process",
  toolNames: ["Bash", "Read", "Grep", "Glob", "Edit", "MultiEdit", "Write", "NotebookEdit", "WebFetch", "WebSearch"],
};
