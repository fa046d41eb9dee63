import { fileURLToPath } from "node:url";

/**
 * This node running this toolgate's CLI: the start of the command line an MCP client runs for a proxied server
 * (`<node> <toolgate main> mcp-proxy --server <name> -- <the server's own command line>`; `--command` may replace it,
 * e.g. `npx toolgate`).
 */
export function defaultProxyPrefix(): string[] {
  return [process.execPath, fileURLToPath(new URL("../../../cli/main.js", import.meta.url))];
}
