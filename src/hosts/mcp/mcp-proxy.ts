import { randomUUID } from "node:crypto";
import type { Readable, Writable } from "node:stream";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { CallToolResult, InitializeRequest, JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { GuardSession } from "../../guard/types.js";
import { openToolgate } from "../../root/open-toolgate.js";
import { noteRunAbort, noteRunSession, RUN_DIRECTORY_ENV } from "../../root/run-sessions.js";
import { droppedNotificationLine, forwardsClientNotification } from "./client-notification.js";
import { elicitationAccepted, questionElicitation } from "./grant-elicitation.js";
import { guardMcpToolCall } from "./guard-mcp-tool-call.js";
import { mcpProxyHost } from "./host.js";
import { foldedDuplicateKeys, foldedKeysRefusal, forwardedCallParams } from "./mcp-call-params.js";
import { forwardNotification, forwardRequest, NO_PROXY_TIMEOUT } from "./mcp-proxy-forward.js";
import { HeldTransport } from "./mcp-proxy-held-transport.js";
import { ProxyStdioTransport } from "./mcp-proxy-stdio-transport.js";
import { mcpSessionInteractive } from "./mcp-session-interactive.js";
import { normalizeMcpName, serverNameWarning } from "./mcp-tool-name.js";

/** The real MCP server the proxy starts: a stdio command line, as MCP client configs write it. */
export interface McpServerCommand {
  command: string;
  args: string[];
  /** added to the proxy's own environment for the server */
  env?: Record<string, string>;
  cwd?: string;
}

export interface McpProxyOptions {
  /** the server's name as the client knows it: tools are `mcp__<server>__<tool>` in rules and records */
  server: string;
  child: McpServerCommand;
  /** `undefined`: TOOLGATE_INTERACTIVE, else headless under `toolgate run`, else whether the client can elicit */
  interactive?: boolean;
  /** the proxy's own stdio (default: this process's) */
  input?: Readable;
  output?: Writable;
  /** toolgate's environment and project directory (config discovery, store, run linking) */
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** where the proxy reports its own lines (an abort, a server that exited); default stderr */
  log?: (line: string) => void;
  /** aborted (SIGTERM, SIGINT): close like a client that went away, so records are drained and the child stopped */
  signal?: AbortSignal;
}

export interface McpProxyOutcome {
  /** 0 the client closed the connection, 1 the server exited or did not start, 6 toolgate aborted the session */
  exitCode: 0 | 1 | 6;
  sessionId: string | undefined;
}

/**
 * `toolgate mcp-proxy`: a stdio MCP server that starts the real server as a child and forwards everything with the
 * official SDK (the proxy's `Server` towards the client, a `Client` towards the child; requests and notifications
 * generically, capabilities, server info and instructions copied from the child's `initialize` result, the child
 * started with the client's own capabilities and client info). `tools/call` goes through toolgate
 * (`guardMcpToolCall`); a child that exits is reported to every call still waiting as an error, then the proxy
 * closes. Resolves when the client closes the connection (or the child is gone); the guard is drained and closed.
 */
export async function runMcpProxy(options: McpProxyOptions): Promise<McpProxyOutcome> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const toolgate = await openToolgate({
    host: mcpProxyHost.name,
    state: "memory",
    mirrorState: true,
    env,
    // under `toolgate run`, an abort is noted for run, which ends the agent (a tool result cannot end a client's
    // run): at the next call the agent sends (below), or after run's grace, so the model first reads why
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
  const [{ Client }, { Server }, { StdioClientTransport }, types] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/server/index.js"),
    import("@modelcontextprotocol/sdk/client/stdio.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]);
  const input = options.input ?? process.stdin;
  const held = new HeldTransport(new ProxyStdioTransport({ input, output: options.output ?? process.stdout, log }));
  const inputEnded = () => held.end();
  input.once("end", inputEnded);
  options.signal?.addEventListener("abort", inputEnded, { once: true });
  // a signal aborted while toolgate was opening (the CLI listens for SIGTERM from the start) never fires "abort"
  // again: end now, so the held transport never starts reading and the server is never started
  if (options.signal?.aborted === true) inputEnded();
  await held.open();

  const first = await held.firstMessage();
  if (first === undefined) {
    input.off("end", inputEnded);
    await toolgate.close();
    return { exitCode: 0, sessionId: undefined };
  }
  const init = initializeParams(first);
  const client = new Client(init?.clientInfo ?? { name: "toolgate-mcp-proxy", version: "0" }, {
    capabilities: init?.capabilities ?? {},
  });
  const childTransport = new StdioClientTransport({
    command: options.child.command,
    args: options.child.args,
    env: childEnvironment(env, options.child.env),
    stderr: "inherit",
    ...(options.child.cwd === undefined ? {} : { cwd: options.child.cwd }),
  });
  const serverName = options.server;
  const redact = toolgate.guard.config.ports.redactText;
  const nameWarning = serverNameWarning(serverName);
  if (nameWarning !== undefined) log(nameWarning);
  client.onerror = (error) => log(`toolgate mcp-proxy: the MCP server "${serverName}": ${error.message}`);
  // the client may go away (or the proxy be stopped) while the server has not answered `initialize`: stop waiting
  const connected = client.connect(childTransport, { timeout: NO_PROXY_TIMEOUT }).then(
    () => undefined,
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );
  const started = await Promise.race([connected, held.ended.then(() => ({ ended: true as const }))]);
  if (typeof started === "object") {
    log(
      `toolgate mcp-proxy: the client closed the connection before the MCP server "${serverName}" answered initialize; stopping the server.`,
    );
    input.off("end", inputEnded);
    await closeQuietly(client);
    await toolgate.close();
    return { exitCode: 0, sessionId: undefined };
  }
  const startError = started;
  const server: Server = new Server(client.getServerVersion() ?? { name: serverName, version: "0" }, {
    capabilities: client.getServerCapabilities() ?? {},
    ...(client.getInstructions() === undefined ? {} : { instructions: client.getInstructions() as string }),
  });
  // logging/setLevel goes to the real server like every other request
  server.removeRequestHandler("logging/setLevel");
  if (startError !== undefined) {
    const message = `toolgate mcp-proxy: the MCP server "${serverName}" (${options.child.command}) did not start: ${startError}. Check the command and its arguments; the server's own output is on stderr.`;
    log(message);
    server.removeRequestHandler("initialize");
    server.setRequestHandler(types.InitializeRequestSchema, () => {
      throw new types.McpError(types.ErrorCode.InternalError, message, { code: "MCP_SERVER_START" });
    });
  }

  let childGone = startError !== undefined;
  let closing = false;
  let abortError: string | undefined;
  const underRun = env[RUN_DIRECTORY_ENV] !== undefined;
  const inFlight = new Set<Promise<unknown>>();
  const describeChildGone = () =>
    `toolgate mcp-proxy: the MCP server "${serverName}" exited before it answered; its output is on stderr. The proxy closes now; restart the MCP server in your client.`;
  const track = <T>(promise: Promise<T>): Promise<T> => {
    inFlight.add(promise);
    promise.then(
      () => inFlight.delete(promise),
      () => inFlight.delete(promise),
    );
    return promise;
  };

  let upstreamReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    upstreamReady = resolve;
  });
  server.oninitialized = () => upstreamReady();

  let session: GuardSession | undefined;
  let sessionId: string | undefined;
  let callNumber = 0;
  const clientCanElicit = () => server.getClientCapabilities()?.elicitation !== undefined;
  const interactive = () =>
    mcpSessionInteractive({ flag: options.interactive, env, clientCanElicit: clientCanElicit() });
  // a person is asked only in an interactive session whose client can show an elicitation
  const clientCanAsk = () => clientCanElicit() && interactive();
  const openSession = (): GuardSession => {
    if (session !== undefined) return session;
    sessionId = `mcp-${normalizeMcpName(serverName)}-${randomUUID()}`;
    noteRunSession(env, sessionId);
    session = toolgate.guard.session(sessionId, {
      interactive: interactive(),
      host: mcpProxyHost.name,
      labels: { server: serverName },
    });
    return session;
  };

  // client -> real server
  server.fallbackRequestHandler = async (request, extra) => {
    const forward = (params: Record<string, unknown> | undefined) =>
      track(
        forwardRequest({
          to: client,
          request: { method: request.method, params },
          signal: extra.signal,
          describeGone: describeChildGone,
        }),
      );
    if (request.method !== "tools/call") {
      if (looksLikeToolsCall(request.method)) {
        throw new types.McpError(
          types.ErrorCode.MethodNotFound,
          `toolgate mcp-proxy: "${request.method}" is not "tools/call" and was not forwarded (a server could read it as one, unchecked).`,
          { code: "MCP_CALL_UNREADABLE" },
        );
      }
      return forward(request.params);
    }
    const params = types.CallToolRequestSchema.shape.params.safeParse(request.params);
    if (!params.success) {
      // never forwarded: a lenient server could run a call toolgate could not check
      const issue = params.error.issues[0];
      const where = issue === undefined || issue.path.length === 0 ? "params" : `params.${issue.path.join(".")}`;
      throw new types.McpError(
        types.ErrorCode.InvalidParams,
        `toolgate mcp-proxy: a tools/call toolgate cannot read (${where}: ${issue?.message ?? "invalid"}) was refused, not forwarded.`,
        { code: "MCP_CALL_UNREADABLE" },
      );
    }
    const folded = foldedDuplicateKeys(params.data.arguments);
    if (folded !== undefined) {
      throw new types.McpError(types.ErrorCode.InvalidParams, foldedKeysRefusal(folded, redact), {
        code: "MCP_CALL_AMBIGUOUS",
      });
    }
    if (abortError !== undefined && underRun && sessionId !== undefined) {
      // toolgate already stopped this session and told the model so: this call tells `toolgate run` to end the
      // agent now, and waits for that (bounded) instead of being answered, so the agent cannot go on calling
      noteRunAbort(env, { sessionId, reason: abortError, hostEndsRun: false });
      const closed = await heldUntilClosed(proxyClosed, ABORTED_CALL_HOLD_MS);
      // the agent was ended while the call waited: it was never answered, so it is not decided or recorded either
      if (closed) throw new types.McpError(types.ErrorCode.ConnectionClosed, "toolgate mcp-proxy: closed.");
    }
    callNumber += 1;
    return guardMcpToolCall({
      session: openSession(),
      server: serverName,
      params: params.data,
      // the call's number only: the client's request id is its own text (it could hold a secret) and is stored
      // nowhere; the SDK answers and cancels the request by its id without this
      callId: `mcp-${callNumber}`,
      // what toolgate decided on, rebuilt: never a raw key a case-insensitive server would read instead
      forward: async () => (await forward(forwardedCallParams(params.data))) as CallToolResult,
      ...(clientCanAsk()
        ? {
            ask: async (question) =>
              elicitationAccepted(
                await server.elicitInput(questionElicitation(question), {
                  timeout: NO_PROXY_TIMEOUT,
                  signal: extra.signal,
                }),
              ),
          }
        : {}),
      onAbort: (error) => {
        abortError = error;
        log(`toolgate: ${error}`);
      },
    });
  };
  server.fallbackNotificationHandler = async (notification) => {
    if (forwardsClientNotification(notification.method)) return forwardNotification(client, notification);
    log(droppedNotificationLine(notification.method, redact));
  };
  // progress tokens are end to end (the forwarded request keeps the sender's token): relay every progress update
  // as it arrives instead of the SDK's per-request handlers, which drop one that arrives with the result
  server.setNotificationHandler(types.ProgressNotificationSchema, (notification) =>
    forwardNotification(client, notification),
  );
  client.setNotificationHandler(types.ProgressNotificationSchema, async (notification) => {
    await ready;
    await forwardNotification(server, notification);
  });

  // real server -> client (roots/list, sampling, elicitation, pings of its own; logs and list changes)
  client.fallbackRequestHandler = async (request, extra) => {
    await ready;
    return forwardRequest({
      to: server,
      request: { method: request.method, params: request.params },
      signal: extra.signal,
      describeGone: () => "toolgate mcp-proxy: the MCP client disconnected.",
    });
  };
  client.fallbackNotificationHandler = async (notification) => {
    await ready;
    await forwardNotification(server, notification);
  };

  const finished = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  const proxyClosed = Promise.race([finished, held.ended]);
  client.onclose = () => {
    if (childGone || closing) return;
    childGone = true;
    log(`toolgate mcp-proxy: the MCP server "${serverName}" exited; closing the proxy.`);
    // the SDK rejects the calls still waiting right after this callback: answer them, then close
    setImmediate(() => {
      void Promise.allSettled([...inFlight]).then(() => setTimeout(() => void held.close(), 50));
    });
  };

  await server.connect(held);
  await finished;
  input.off("end", inputEnded);
  closing = true;
  await closeQuietly(client);
  if (session !== undefined) await session.end();
  await toolgate.close();
  const exitCode = abortError !== undefined ? 6 : childGone ? 1 : 0;
  return { exitCode, sessionId };
}

/**
 * How long a call made after an abort waits under `toolgate run` before it is refused anyway: longer than run takes
 * to end the agent (its poll, then SIGTERM and SIGKILL after `STOP_GRACE_MS`), well under an MCP client's timeout.
 */
export const ABORTED_CALL_HOLD_MS = 10_000;

/** Waits until the proxy closes (`true`) or `budgetMs` passed (`false`). */
async function heldUntilClosed(closed: Promise<void>, budgetMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), budgetMs);
  });
  try {
    return await Promise.race([closed.then(() => true), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** A method that a lenient server could take for `tools/call` (another case, spaces, invisible characters). */
function looksLikeToolsCall(method: string): boolean {
  return method.replace(/[\s\p{Cf}\p{Cc}]/gu, "").toLowerCase() === "tools/call";
}

function initializeParams(message: JSONRPCMessage): InitializeRequest["params"] | undefined {
  if (!("method" in message) || message.method !== "initialize" || !("id" in message)) return undefined;
  return message.params as InitializeRequest["params"];
}

/** The proxy's whole environment (the client chose it for this server entry), plus the entry's own variables. */
function childEnvironment(
  env: Record<string, string | undefined>,
  extra: Record<string, string> | undefined,
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) result[key] = value;
  return { ...result, ...extra };
}

async function closeQuietly(client: Client): Promise<void> {
  try {
    await client.close();
  } catch {
    // the child is already gone
  }
}
