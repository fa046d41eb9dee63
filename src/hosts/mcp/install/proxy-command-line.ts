import { fileURLToPath } from "node:url";

/**
 * The command line an MCP client runs for a proxied server, and back: `<node> <toolgate main> mcp-proxy --server
 * <name> -- <the server's own command and arguments>`. Everything after `--` is the original, untouched, so
 * `toolgate uninstall mcp-proxy` restores the entry from the entry itself.
 */
export interface ServerCommandLine {
  command: string;
  args: string[];
}

/** This node running this toolgate's CLI (`--command` may replace it, e.g. `npx toolgate`). */
export function defaultProxyPrefix(): string[] {
  return [process.execPath, fileURLToPath(new URL("../../../cli/main.js", import.meta.url))];
}

export function proxiedCommandLine(options: {
  server: string;
  original: ServerCommandLine;
  prefix: readonly string[];
}): ServerCommandLine {
  const [command, ...prefixArgs] = options.prefix as [string, ...string[]];
  return {
    command,
    args: [
      ...prefixArgs,
      "mcp-proxy",
      "--server",
      options.server,
      "--",
      options.original.command,
      ...options.original.args,
    ],
  };
}

/** The original command line of a proxied entry; undefined when the entry does not run `toolgate mcp-proxy`. */
export function originalCommandLine(line: ServerCommandLine): ServerCommandLine | undefined {
  const proxy = line.args.indexOf("mcp-proxy");
  if (proxy === -1) return undefined;
  const separator = line.args.indexOf("--", proxy);
  if (separator === -1) return undefined;
  const [command, ...args] = line.args.slice(separator + 1);
  return command === undefined ? undefined : { command, args };
}
