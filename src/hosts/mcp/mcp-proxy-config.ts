import { isAbsolute, resolve } from "node:path";
import { type McpProxyServerEntry, mcpProxyFileSchema, mcpProxyServerSchema } from "../../config/mcp-proxy-schema.js";
import { ToolgateError } from "../../core/errors.js";
import { readJsonFile } from "../../root/read-json-file.js";

/**
 * Reads one server entry of an `mcpServers` file (`.mcp.json` and the like) for `toolgate mcp-proxy --config`.
 * Throws CONFIG_NOT_FOUND (no file, no such server) or CONFIG_INVALID (not JSON, a bad entry) naming the file, the
 * key and the fix. A relative `cwd` is resolved against the file's directory.
 */
export function loadMcpProxyServer(options: { file: string; server: string; cwd: string }): McpProxyServerEntry {
  const file = isAbsolute(options.file) ? options.file : resolve(options.cwd, options.file);
  const value = readJsonFile(file);
  if (value === undefined) {
    throw new ToolgateError({
      code: "CONFIG_NOT_FOUND",
      message: `${file} does not exist. Give the file that lists your MCP servers under "mcpServers" (e.g. .mcp.json).`,
      data: { file },
    });
  }
  const parsed = mcpProxyFileSchema.safeParse(value);
  if (!parsed.success) {
    throw new ToolgateError({
      code: "CONFIG_INVALID",
      message: `${file} has no "mcpServers" object. Write {"mcpServers": {"<name>": {"command": "...", "args": [...]}}}.`,
      data: { file },
    });
  }
  const servers = parsed.data.mcpServers;
  const entry = servers[options.server];
  if (entry === undefined) {
    const names = Object.keys(servers);
    throw new ToolgateError({
      code: "CONFIG_NOT_FOUND",
      message: `${file} has no MCP server "${options.server}"${names.length === 0 ? "" : `; it lists ${names.map((name) => `"${name}"`).join(", ")}`}. Pass one of those with --server.`,
      data: { file, server: options.server },
    });
  }
  const server = mcpProxyServerSchema.safeParse(entry);
  if (!server.success) {
    const lines = server.error.issues.map(
      (issue) =>
        `  - mcpServers.${options.server}${issue.path.map((part) => `.${String(part)}`).join("")}: ${issue.message}`,
    );
    throw new ToolgateError({
      code: "CONFIG_INVALID",
      message: `${file}: the MCP server "${options.server}" cannot run through the proxy:\n${lines.join("\n")}\nOnly stdio servers ({"command", "args", "env", "cwd"}) can; fix the keys above.`,
      data: { file, server: options.server },
    });
  }
  const data = server.data;
  return data.cwd === undefined || isAbsolute(data.cwd) ? data : { ...data, cwd: resolve(file, "..", data.cwd) };
}
