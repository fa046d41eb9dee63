import type { HelpExample, HostDescriptor, HostHelp } from "../../hosts/host-descriptor.js";
import { HOSTS } from "../../hosts/registry.js";

/**
 * What the commands' help says of the hosts, read from the registry (each host's `help` part), so a command's help
 * names no host itself: a new host's examples and files appear in every `--help` from its own folder.
 */

type ExampleKind = Exclude<keyof NonNullable<HostHelp["examples"]>, "mcpProxy" | "run">;

/**
 * Every host's examples for `command`, in registry order; a host's MCP proxy examples (its arguments only) become
 * `toolgate install|uninstall <the target that wraps MCP servers> <arguments>`.
 */
export function hostExamples(command: ExampleKind | "mcpProxy.install" | "mcpProxy.uninstall"): HelpExample[] {
  const proxy = HOSTS.find((host) => host.wrapsMcpServers === true)?.name;
  const proxied = (action: "install" | "uninstall", examples: readonly HelpExample[] | undefined): HelpExample[] =>
    proxy === undefined
      ? []
      : (examples ?? []).map((example) =>
          typeof example === "string"
            ? `toolgate ${action} ${proxy} ${example}`
            : [`toolgate ${action} ${proxy} ${example[0]}`, example[1]],
        );
  return HOSTS.flatMap((host) => {
    const examples = host.help?.examples;
    if (command === "mcpProxy.install") return proxied("install", examples?.mcpProxy?.install);
    if (command === "mcpProxy.uninstall") return proxied("uninstall", examples?.mcpProxy?.uninstall);
    return examples?.[command] ?? [];
  });
}

/** The agent command lines `toolgate run` reads a stream of, in registry order (`claude -p ...`). */
export function runCommandExamples(): string[] {
  return HOSTS.flatMap((host) => host.help?.examples?.run ?? []);
}

/**
 * Example lines as the help prints them: a bare line as it is; a line with a comment followed by `# comment`, the
 * comments aligned four columns after the longest commented line (`align`), or two spaces after each.
 */
export function formatExamples(examples: readonly HelpExample[], options: { align: boolean }): string[] {
  const width = Math.max(0, ...examples.map((example) => (typeof example === "string" ? 0 : example[0].length)));
  return examples.map((example) => {
    if (typeof example === "string") return example;
    const [command, comment] = example;
    return `${options.align ? command.padEnd(width + 4) : `${command}  `}# ${comment}`;
  });
}

/** The hosts that have `part` in their help, with it. */
export function hostsWithHelp<Part extends keyof HostHelp>(
  part: Part,
): { host: HostDescriptor; value: NonNullable<HostHelp[Part]> }[] {
  return HOSTS.flatMap((host) => {
    const value = host.help?.[part];
    return value === undefined ? [] : [{ host, value: value as NonNullable<HostHelp[Part]> }];
  });
}

/**
 * "a, b, and c" (`and`) or "a, b, or c" (`or`), as `Intl.ListFormat("en")` writes them, without it: building one
 * loads ICU's list data (about 18 ms), and `analyze` and `doctor` build their help text at start-up.
 */
export function listOf(items: readonly string[], join: "and" | "or"): string {
  if (items.length <= 1) return items[0] ?? "";
  if (items.length === 2) return `${items[0]} ${join} ${items[1]}`;
  return `${items.slice(0, -1).join(", ")}, ${join} ${items.at(-1)}`;
}

/** A help's examples: never empty (every command shows at least one). */
export function examplesOf(lines: readonly string[], fallback: string): [string, ...string[]] {
  const [first, ...rest] = lines;
  return first === undefined ? [fallback] : [first, ...rest];
}
