import type { HostDescriptor } from "../host-descriptor.js";

/** The Vercel AI SDK: `toolgate/ai-sdk` wraps an app's `ToolSet` (tool names are the app's own). */
export const aiSdkHost: HostDescriptor = {
  name: "ai-sdk",
  displayName: "Vercel AI SDK",
  kind: "in-process",
  toolNames: [],
};
