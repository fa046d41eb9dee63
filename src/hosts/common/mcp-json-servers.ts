import type { ServerCommandLine } from "./mcp-servers.js";

/**
 * How a host's JSON config holds its MCP servers: where the servers object is, and how one stdio entry spells its
 * command line: `{ command, args }` (most hosts) or `{ type: "local", command: [argv...] }`.
 */
export interface JsonServersShape {
  /** the key path of the servers object (`["mcpServers"]`, `["projects", "/repo", "mcpServers"]`, `["mcp"]`) */
  path: string[];
  /** the entry's command line, or undefined for an entry that is not a stdio server (http, sse, remote) */
  read(entry: Record<string, unknown>): ServerCommandLine | undefined;
  /** the entry with its command line replaced; every other key kept */
  write(entry: Record<string, unknown>, line: ServerCommandLine): Record<string, unknown>;
}

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === "string") ? (value as string[]) : undefined;
}

/** `{ command: "npx", args: ["-y", "server"] }` (the common `mcpServers` form) */
export function commandArgsShape(path: string[]): JsonServersShape {
  return {
    path,
    read(entry) {
      if (typeof entry["command"] !== "string") return undefined;
      if (entry["type"] !== undefined && entry["type"] !== "stdio") return undefined;
      const args = entry["args"] === undefined ? [] : strings(entry["args"]);
      return args === undefined ? undefined : { command: entry["command"], args };
    },
    write(entry, line) {
      // `args` is always written (an entry that had none gets `"args": []` back, as the hosts' own `mcp add` commands write it)
      return { ...entry, command: line.command, args: line.args };
    },
  };
}

/** `{ type: "local", command: ["npx", "-y", "server"] }` (an argv array) */
export function commandArrayShape(path: string[]): JsonServersShape {
  return {
    path,
    read(entry) {
      if (entry["type"] !== undefined && entry["type"] !== "local") return undefined;
      const argv = strings(entry["command"]);
      if (argv === undefined || argv.length === 0) return undefined;
      const [command, ...args] = argv as [string, ...string[]];
      return { command, args };
    },
    write(entry, line) {
      return { ...entry, command: [line.command, ...line.args] };
    },
  };
}
