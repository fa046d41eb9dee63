import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import type {
  AgentConnection,
  ClientConnection,
  RequestPermissionOutcome,
  RequestPermissionRequest,
  RequestPermissionResponse,
} from "@agentclientprotocol/sdk";
import type { GuardSession } from "../../guard/types.js";
import { openToolgate } from "../../root/open-toolgate.js";
import { noteRunSession } from "../../root/run-sessions.js";
import { AcpSessionGate } from "./acp-session-gate.js";
import { acpSessionInteractive } from "./acp-session-interactive.js";
import { acpProxyHost } from "./host.js";

/** The real ACP agent the proxy starts: a stdio command line, as editors write it in their settings. */
export interface AcpAgentCommand {
  command: string;
  args: string[];
  /** added to the proxy's own environment for the agent */
  env?: Record<string, string>;
  cwd?: string;
}

export interface AcpProxyOptions {
  agent: AcpAgentCommand;
  /** `undefined`: TOOLGATE_INTERACTIVE, else headless under `toolgate run`, else interactive */
  interactive?: boolean;
  /** the proxy's own stdio towards the editor (default: this process's) */
  input?: NodeJS.ReadableStream & Readable;
  output?: NodeJS.WritableStream & Writable;
  /** toolgate's environment and project directory (config discovery, store, run linking) */
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** where the proxy reports its own lines (an abort, an agent that exited); default stderr */
  log?: (line: string) => void;
  /** aborted (SIGTERM, SIGINT): close like an editor that went away, so records are drained and the agent stopped */
  signal?: AbortSignal;
}

export interface AcpProxyOutcome {
  /** 0 the editor closed the connection, 1 the agent exited or did not start, 6 toolgate aborted a session */
  exitCode: 0 | 1 | 6;
  /** toolgate's session ids, one per ACP session (`acp-<the agent's session id>`) */
  sessionIds: string[];
}

/** How long a cancelled prompt gets to end after a headless abort before the proxy stops the agent anyway. */
export const ABORT_GRACE_MS = 5_000;

/**
 * `toolgate acp-proxy`: a stdio ACP agent towards the editor that starts the real agent as a child and forwards every
 * request, response and notification in both directions with the official SDK (`@agentclientprotocol/sdk`: an agent
 * app towards the editor, a client app towards the agent; each connection numbers its own request ids). What toolgate
 * sees or changes: every `session/request_permission` goes through `AcpSessionGate` (policy first, then the person,
 * with toolgate's grant option at the threshold), every `session/update` is read for the tool calls it announces and
 * ends, and toolgate's guidance is added to the next `session/prompt` as a text block. A headless abort cancels the
 * session (`session/cancel`), lets the prompt end, stops the agent and resolves with exit code 6.
 */
export async function runAcpProxy(options: AcpProxyOptions): Promise<AcpProxyOutcome> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const interactive = acpSessionInteractive({ flag: options.interactive, env });
  const toolgate = await openToolgate({
    host: acpProxyHost.name,
    state: "memory",
    mirrorState: true,
    env,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
  const acp = await import("@agentclientprotocol/sdk");
  const agentName = options.agent.command;
  const child = spawn(options.agent.command, options.agent.args, {
    stdio: ["pipe", "pipe", "inherit"],
    // its own process group: stopping the agent stops the helpers it started too (some adapters leave some)
    detached: true,
    env: childEnvironment(env, options.agent.env),
    ...(options.agent.cwd === undefined ? {} : { cwd: options.agent.cwd }),
  });
  let startFailed = false;
  const childExited = new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.once("error", (error) => {
      startFailed = true;
      log(
        `toolgate acp-proxy: the agent "${agentName}" did not start: ${error.message}. Check the command and its arguments.`,
      );
      resolve();
    });
  });

  // both connections are made below; the handlers that use them run only once they are
  let toAgent: ClientConnection;
  let toEditor: AgentConnection;
  const gates = new Map<string, { gate: AcpSessionGate; session: GuardSession }>();
  let abortError: string | undefined;
  let stopAfterAbort: (() => void) | undefined;
  const abortStopped = new Promise<void>((resolve) => {
    stopAfterAbort = resolve;
  });
  const promptsInFlight = new Map<string, Promise<unknown>>();

  const gateFor = (sessionId: string): AcpSessionGate => {
    const known = gates.get(sessionId);
    if (known !== undefined) return known.gate;
    const id = `acp-${sessionId}`;
    noteRunSession(env, id);
    const session = toolgate.guard.session(id, { interactive, host: acpProxyHost.name, labels: { agent: agentName } });
    const gate = new AcpSessionGate({
      session,
      headless: !interactive,
      onAbort: (error) => {
        if (abortError !== undefined) return;
        abortError = error;
        log(`toolgate: ${error}`);
        // the agent stops the turn; the editor reads the prompt's `cancelled` stop reason, then the proxy ends
        void toAgent.agent.notify("session/cancel", { sessionId }).catch(() => undefined);
        const prompt = promptsInFlight.get(sessionId) ?? Promise.resolve();
        const grace = new Promise((resolve) => setTimeout(resolve, ABORT_GRACE_MS).unref());
        void Promise.race([prompt.catch(() => undefined), grace]).then(() => stopAfterAbort?.());
      },
    });
    gates.set(sessionId, { gate, session });
    return gate;
  };

  // the agent -> the editor
  const clientApp = acp
    .client({ name: "toolgate-acp-proxy" })
    .onRequest("session/request_permission", async ({ params, signal }): Promise<RequestPermissionResponse> => {
      const request = params as RequestPermissionRequest;
      // the SDK dispatches a typed request in fewer steps than a notification to the fallback handler: let the
      // `session/update` the agent sent before this request (the call's tool name and input) be read first
      await new Promise((resolve) => setImmediate(resolve));
      return gateFor(request.sessionId).permission(
        request,
        async (asked: RequestPermissionRequest): Promise<RequestPermissionOutcome> => {
          const answer: RequestPermissionResponse = await toEditor.client.request("session/request_permission", asked, {
            cancellationSignal: signal,
          });
          return answer.outcome;
        },
      );
    })
    .onRequest(
      "*",
      ({ method, params, signal }): Promise<unknown> =>
        toEditor.client.request(method, params, { cancellationSignal: signal }),
    )
    .onNotification("*", async ({ method, params }) => {
      let observed: Promise<void> | undefined;
      if (method === "session/update" && isRecord(params) && typeof params["sessionId"] === "string") {
        const update = params["update"];
        // read before it is forwarded (what the agent announces of a call precedes its permission request)
        if (isRecord(update)) observed = gateFor(params["sessionId"]).update(update);
      }
      // `$/cancel_request` and the like belong to one connection (its request ids): the SDK already cancels the
      // proxy's own request on the other one, so forwarding the sender's would cancel the wrong request there
      if (!method.startsWith("$/")) await toEditor.client.notify(method, params);
      await observed;
    });

  // the editor -> the agent
  const agentApp = acp
    .agent({ name: "toolgate-acp-proxy" })
    .onRequest("*", async ({ method, params, signal }): Promise<unknown> => {
      let sent = params;
      if (method === "session/prompt" && isRecord(params) && typeof params["sessionId"] === "string") {
        const sessionId = params["sessionId"];
        const guidance = gateFor(sessionId).takeGuidance();
        if (guidance !== "" && Array.isArray(params["prompt"])) {
          sent = { ...params, prompt: [...params["prompt"], { type: "text", text: guidance }] };
        }
        const answer: Promise<unknown> = toAgent.agent.request(method, sent, { cancellationSignal: signal });
        promptsInFlight.set(sessionId, answer);
        try {
          return await answer;
        } finally {
          if (promptsInFlight.get(sessionId) === answer) promptsInFlight.delete(sessionId);
        }
      }
      return toAgent.agent.request(method, sent, { cancellationSignal: signal });
    })
    .onNotification("*", async ({ method, params }) => {
      // as from the agent: a connection's own protocol notifications stay on it
      if (!method.startsWith("$/")) await toAgent.agent.notify(method, params);
    });

  toAgent = clientApp.connect(
    acp.ndJsonStream(
      Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
    ),
  );
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  toEditor = agentApp.connect(
    acp.ndJsonStream(
      Writable.toWeb(output) as WritableStream<Uint8Array>,
      Readable.toWeb(input) as ReadableStream<Uint8Array>,
    ),
  );
  // a signal that came while the proxy started (before this listener) ends it too
  const stopped = new Promise<void>((resolve) => {
    if (options.signal?.aborted) resolve();
    else options.signal?.addEventListener("abort", () => resolve(), { once: true });
  });

  const ended = await Promise.race([
    toEditor.closed.then(() => "editor" as const),
    childExited.then(() => "agent" as const),
    abortStopped.then(() => "abort" as const),
    stopped.then(() => "signal" as const),
  ]);
  if (ended === "agent" && abortError === undefined && !startFailed) {
    log(`toolgate acp-proxy: the agent "${agentName}" exited; closing the proxy.`);
  }
  toEditor.close();
  toAgent.close();
  await stopChild(child, childExited);
  for (const { session } of gates.values()) await session.end().catch(() => undefined);
  await toolgate.close();
  const exitCode = abortError !== undefined ? 6 : ended === "agent" ? 1 : 0;
  return { exitCode, sessionIds: [...gates.values()].map(({ session }) => session.id) };
}

/**
 * Closes the agent's stdin, then SIGTERM after a moment, SIGKILL after a longer one, each to the agent's own process
 * group (the agent and the helpers it started, nothing else); the group is ended even when the agent itself exited.
 */
async function stopChild(child: ReturnType<typeof spawn>, exited: Promise<void>): Promise<void> {
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal);
    } catch {
      // the group is gone
    }
  };
  const waited = (ms: number) =>
    Promise.race([exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);
  if (child.exitCode === null && child.signalCode === null) {
    child.stdin?.end();
    if (!(await waited(1_000))) {
      signalGroup("SIGTERM");
      if (!(await waited(5_000))) signalGroup("SIGKILL");
    }
    await exited;
  }
  // helpers the agent left behind in its group
  signalGroup("SIGTERM");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The proxy's whole environment (the editor chose it for this agent), plus the command's own variables. */
function childEnvironment(
  env: Record<string, string | undefined>,
  extra: Record<string, string> | undefined,
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) result[key] = value;
  return { ...result, ...extra };
}
