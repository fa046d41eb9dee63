import { basename } from "node:path";
import { ToolgateError } from "../../core/errors.js";
import type { McpServerCommand } from "../../hosts/mcp/mcp-proxy.js";
import { defineCommand } from "../args/command-spec.js";
import { EXIT } from "../exit-codes.js";

export default defineCommand({
  meta: {
    name: "mcp-proxy",
    summary: "Run an MCP server behind toolgate: a stdio MCP server that forwards everything and guards tools/call.",
    usageTail: "-- <server command...>",
    details: `Put it where your MCP client starts the server (\`toolgate install mcp-proxy --host <host> --server <name>\`
does that for you). The proxy starts the real server as a child with the client's own capabilities, copies the
server's capabilities, and forwards every request, the client's notifications/*, progress updates and
cancellations; a tools/call's params are rebuilt from what toolgate checked.
Each tools/call is named mcp__<server>__<tool> (Claude Code's naming) and goes through toolgate's policy and loop
detector first; a denial comes back as an isError tool result with toolgate's guidance, and the server's own
permission refusals (isError results such as "Access denied") count too. At the threshold an interactive session
asks the person for the minimum-scope session grant through an MCP elicitation; a headless one (under \`toolgate
run\`, TOOLGATE_INTERACTIVE=0, --headless, or a client without elicitation) applies the headless strategy (abort by
default: every later call is refused, the proxy says why on stderr, and \`toolgate run\` exits 6). If the server
exits, calls still waiting get an error and the proxy closes. Every denial is recorded like the other hosts'
(\`toolgate report\`).
The proxy's stdout is the MCP channel: its own lines go to stderr.`,
    exitCodes:
      "0 the client closed the connection, 1 the server exited or did not start, 2 bad usage or config, 6 toolgate aborted the session (escalation), 7 the store could not be opened.",
    examples: [
      "toolgate mcp-proxy --server fs -- npx -y @modelcontextprotocol/server-filesystem /path/to/project",
      "toolgate mcp-proxy --config .mcp.json --server github   # the entry's command, args, env and cwd",
      "toolgate mcp-proxy --server fs --headless -- mcp-server-filesystem .   # never ask, apply the headless strategy",
    ],
  },
  passthrough: true,
  args: {
    server: {
      type: "string",
      description:
        "the server's name in your client (tools are mcp__<server>__<tool>); default: the command's file name",
      valueHint: "name",
    },
    config: {
      type: "string",
      description: 'a file with an "mcpServers" object (.mcp.json shape): run its --server entry',
      valueHint: "file",
    },
    interactive: {
      type: "boolean",
      description:
        "an interactive session (grants offered by elicitation) whatever the environment; default: TOOLGATE_INTERACTIVE, else headless under `toolgate run`, else whether the client supports elicitation",
    },
    headless: { type: "boolean", description: "never ask the person; apply the headless strategy at the threshold" },
  },
  async run({ args, rest }) {
    const fail = (message: string, code: number = EXIT.usage) => {
      process.stderr.write(`toolgate mcp-proxy: ${message}\n`);
      process.exitCode = code;
    };
    if (args.interactive && args.headless) return fail("choose one of --interactive or --headless.");
    let child: McpServerCommand;
    let interactive: boolean | undefined = args.interactive ? true : args.headless ? false : undefined;
    let server = args.server;
    if (args.config !== undefined) {
      if (rest.length > 0) return fail("give either --config or a server command after --, not both.");
      if (server === undefined) return fail("--config needs --server <name>: the entry of the file to run.");
      const { loadMcpProxyServer } = await import("../../hosts/mcp/mcp-proxy-config.js");
      try {
        const entry = loadMcpProxyServer({ file: args.config, server, cwd: process.cwd() });
        child = {
          command: entry.command,
          args: entry.args,
          ...(entry.env === undefined ? {} : { env: entry.env }),
          ...(entry.cwd === undefined ? {} : { cwd: entry.cwd }),
        };
        interactive ??= entry.interactive;
      } catch (error) {
        if (ToolgateError.is(error)) return fail(error.message);
        throw error;
      }
    } else {
      const [command, ...commandArgs] = rest;
      if (command === undefined) {
        return fail(
          'give the MCP server command after "--", e.g. toolgate mcp-proxy --server fs -- npx -y @modelcontextprotocol/server-filesystem .',
        );
      }
      child = { command, args: commandArgs };
      server ??= basename(command).replace(/\.[cm]?js$/, "");
    }
    const { runMcpProxy } = await import("../../hosts/mcp/mcp-proxy.js");
    try {
      // a client that stops the server with a signal gets the same orderly close as one that closes stdin
      const stop = new AbortController();
      const onSignal = () => stop.abort();
      process.once("SIGTERM", onSignal);
      process.once("SIGINT", onSignal);
      const outcome = await runMcpProxy({
        server,
        child,
        signal: stop.signal,
        ...(interactive === undefined ? {} : { interactive }),
      });
      process.off("SIGTERM", onSignal);
      process.off("SIGINT", onSignal);
      process.exitCode = outcome.exitCode;
    } catch (error) {
      if (ToolgateError.is(error)) {
        const store = error.code.startsWith("STORE_");
        return fail(error.message, store ? EXIT.store : error.code === "CONFIG_INVALID" ? EXIT.usage : EXIT.error);
      }
      throw error;
    }
  },
});
