import { ToolgateError } from "../../core/errors.js";

/**
 * A host's MCP server entries as the MCP proxy's installer sees them: the descriptor part `mcpServers` says where
 * the host keeps them and rewrites them. A proxied entry runs `<prefix> --server <name> -- <the server's own command
 * and arguments>`, the prefix being the toolgate command line and the proxy's subcommand: everything after `--` is
 * the original, untouched, so uninstalling the proxy restores the entry from the entry itself.
 */
export interface McpServersConfig {
  /** rewrites (install) or restores (uninstall) the host's MCP server entries in the scope's file */
  rewrite(options: McpServersRewriteOptions): McpServersRewriteOutcome;
}

export interface McpServersRewriteOptions {
  action: "install" | "uninstall";
  scope: "project" | "local" | "user";
  /** the project directory, absolute */
  cwd: string;
  /** the home directory (`HOME`, else the process's) */
  home: string;
  /** the environment that locates the host's files (`HOME`, the host's own variables) */
  env: Readonly<Record<string, string | undefined>>;
  /** one entry; absent: every stdio entry in the file */
  server?: string;
  /**
   * the command line the proxied entry runs before `--server`: this node running this toolgate's CLI (or
   * `--command`), then the proxy's subcommand, whose word marks an entry as proxied
   */
  prefix: readonly string[];
  dryRun: boolean;
}

export interface McpServersRewriteOutcome {
  path: string;
  changed: boolean;
  diff: string[];
  written: boolean;
  notes: string[];
}

/** A stdio MCP server's command line. */
export interface ServerCommandLine {
  command: string;
  args: string[];
}

export function proxiedCommandLine(options: {
  server: string;
  original: ServerCommandLine;
  prefix: readonly string[];
}): ServerCommandLine {
  const [command, ...prefixArgs] = options.prefix as [string, ...string[]];
  return {
    command,
    args: [...prefixArgs, "--server", options.server, "--", options.original.command, ...options.original.args],
  };
}

/**
 * The original command line of a proxied entry: what follows `--` after the proxy's subcommand (`subcommand`, the
 * last word of the prefix), whatever toolgate command line runs it; undefined when the entry does not run the proxy.
 */
export function originalCommandLine(line: ServerCommandLine, subcommand: string): ServerCommandLine | undefined {
  const proxy = line.args.indexOf(subcommand);
  if (proxy === -1) return undefined;
  const separator = line.args.indexOf("--", proxy);
  if (separator === -1) return undefined;
  const [command, ...args] = line.args.slice(separator + 1);
  return command === undefined ? undefined : { command, args };
}

/** The entries to rewrite in a servers table, with the new command line of each (shared by every file format). */
export function plannedChanges(options: {
  file: string;
  servers: Record<string, ServerCommandLine | undefined>;
  action: "install" | "uninstall";
  server?: string;
  prefix: readonly string[];
}): { changes: Map<string, ServerCommandLine>; notes: string[] } {
  const names = Object.keys(options.servers);
  if (options.server !== undefined && !names.includes(options.server)) {
    throw new ToolgateError({
      code: "CONFIG_NOT_FOUND",
      message: `${options.file} has no MCP server "${options.server}"${names.length === 0 ? "" : `; it lists ${names.map((name) => `"${name}"`).join(", ")}`}. Add the server in your host first, or pass one of those with --server.`,
      data: { file: options.file, server: options.server },
    });
  }
  const changes = new Map<string, ServerCommandLine>();
  const notes: string[] = [];
  for (const name of options.server === undefined ? names : [options.server]) {
    const line = options.servers[name];
    if (line === undefined) {
      notes.push(
        `MCP server "${name}" in ${options.file} is not a stdio server (a URL): the proxy cannot run it; left as it is.`,
      );
      continue;
    }
    const original = originalCommandLine(line, options.prefix[options.prefix.length - 1] ?? "");
    if (options.action === "install" && original === undefined) {
      changes.set(name, proxiedCommandLine({ server: name, original: line, prefix: options.prefix }));
    } else if (options.action === "uninstall" && original !== undefined) {
      changes.set(name, original);
    }
  }
  return { changes, notes };
}
