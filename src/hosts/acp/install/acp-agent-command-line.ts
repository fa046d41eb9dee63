/** An ACP agent's command line as an editor's settings spell it. */
export interface AgentCommandLine {
  command: string;
  args: string[];
}

/** `<toolgate> acp-proxy -- <the agent's own command and arguments>`: everything after `--` is the original. */
export function proxiedAgentCommandLine(options: {
  original: AgentCommandLine;
  prefix: readonly string[];
}): AgentCommandLine {
  const [command, ...prefixArgs] = options.prefix as [string, ...string[]];
  return { command, args: [...prefixArgs, "acp-proxy", "--", options.original.command, ...options.original.args] };
}

/** The original command line of a proxied entry; undefined when the entry does not run `toolgate acp-proxy`. */
export function originalAgentCommandLine(line: AgentCommandLine): AgentCommandLine | undefined {
  const proxy = line.args.indexOf("acp-proxy");
  if (proxy === -1 || line.args[proxy + 1] !== "--") return undefined;
  const [command, ...args] = line.args.slice(proxy + 2);
  return command === undefined ? undefined : { command, args };
}

/** An entry's command line, when it has a string `command` and (absent or) a string array `args`. */
export function agentCommandLine(entry: Record<string, unknown>): AgentCommandLine | undefined {
  const { command, args } = entry;
  if (typeof command !== "string" || command === "") return undefined;
  if (args === undefined) return { command, args: [] };
  if (!Array.isArray(args) || !args.every((arg) => typeof arg === "string")) return undefined;
  return { command, args: args as string[] };
}
