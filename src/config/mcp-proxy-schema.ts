import * as z from "zod";

/**
 * The servers file of the MCP proxy's `--config <file> --server <name>`: the `mcpServers` shape most hosts' MCP
 * settings use (`.mcp.json` and the like), so an existing file works as it is. Only the entry the
 * proxy runs is validated (a file may list HTTP servers the proxy never starts).
 */
export const mcpProxyServerSchema = z.strictObject({
  /** Claude Code writes `"type": "stdio"`; other transports cannot be proxied over stdio */
  type: z.literal("stdio").optional(),
  command: z.string().min(1, "give the server's executable, e.g. npx"),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().min(1).optional(),
  /** `true`/`false` forces toolgate's interactive or headless escalation; absent: interactive when the client can elicit */
  interactive: z.boolean().optional(),
});

export const mcpProxyFileSchema = z.looseObject({
  mcpServers: z.record(z.string(), z.unknown()),
});

export type McpProxyServerEntry = z.infer<typeof mcpProxyServerSchema>;
