import type { Server, Socket } from "node:net";
import { HOOK_PARENT_PID_ENV } from "../hosts/common/hook-host.js";
import { HOOK_ANSWER_BUDGET_MS, HOOK_DRAIN_BUDGET_MS } from "./hook-budgets.js";
import { HOOK_HOST_NAMES, hookHostLoader } from "./hook-hosts.js";
import { startHook } from "./run-hook.js";

/**
 * The resident hook server: one Node process per user and toolgate install that answers hook events for the client
 * hosts run instead of a Node process per event (`dist/hook/toolgate-hook.sh`, a bash script; docs/resident-hook.md).
 * It answers with the same code a hook process runs (`startHook`), for the event, arguments, environment, working
 * directory and parent process the client sends, so an answer is the one the Node hook gives. The client falls back
 * to the Node hook whenever the server gives no answer (none running, a wrong token, a stale build, a crash), so a
 * missing server costs time, never a decision.
 *
 * Wire format, on 127.0.0.1 TCP (bash reaches no Unix socket), one request per connection:
 *   request:  `toolgate-hook/1 <token> <stdin bytes>\n`, then NUL-terminated fields: the host process's pid, the
 *             working directory, the argument count, the arguments, the environment (`NAME=value`, one per field),
 *             an empty field; then exactly <stdin bytes> bytes of the event.
 *   answer:   `<exit code> <stdout bytes> <stderr bytes>\n`, then stdout's bytes, then stderr's.
 *   `toolgate-hook/1 <token> cpu\n` answers `cpu <microseconds>\n`: the server's CPU time so far (benchmarks,
 *   `toolgate doctor`).
 *   `toolgate-hook/1 <token> stop\n` answers `stopped\n` and stops the server (`toolgate uninstall`): its file goes,
 *   and the requests it is answering finish.
 * Anything else (a wrong token first of all) closes the connection unanswered: the client then runs the Node hook.
 */
export const HOOK_SERVER_PROTOCOL = "toolgate-hook/1";

/** The queries a client with the token may ask besides hook events. */
type ServerQuery = "cpu" | "stop";

/** A request the server answers: what a hook process would have had. */
export interface HookServerRequest {
  hostPid: number | undefined;
  cwd: string;
  argv: string[];
  env: Record<string, string>;
  stdinText: string;
}

/** The answer as the client prints it. */
export interface HookServerAnswer {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface HookServerOptions {
  /** what a request must carry first (the server file holds it, readable by its owner only) */
  token: string;
  /** no request for this long: the server stops */
  idleMs: number;
  /** checked before each request: false (the install changed under it) stops the server, unanswered */
  current?: () => boolean;
  /** answers one request; default `answerHookRequest` */
  answer?: (request: HookServerRequest, log: (message: string) => void) => Promise<HookServerAnswer>;
  /** what happens after an answer (errors in deliveries, drains) */
  log?: (message: string) => void;
  /** a request not read whole within this long is closed unanswered (default 10 s) */
  requestTimeoutMs?: number;
  /** told once the server stopped listening (idle, stale build, `close`) */
  onStop?: (why: "idle" | "stale" | "closed") => void;
}

export interface HookServer {
  port: number;
  close(): Promise<void>;
}

/** The client writes its whole request at once: one still incomplete after this long never will be. */
const REQUEST_TIMEOUT_MS = 10_000;

/** Requests larger than this are refused (an event is a few kB; a PostToolUse with a large tool result, a few MB). */
const MAX_REQUEST_BYTES = 64 * 1024 * 1024;

/** Starts listening on 127.0.0.1 (a free port); resolves once it listens. */
export async function startHookServer(options: HookServerOptions): Promise<HookServer> {
  const net = process.getBuiltinModule("node:net") as typeof import("node:net");
  const log = options.log ?? (() => undefined);
  const answer = options.answer ?? answerHookRequest;
  let idleTimer: NodeJS.Timeout | undefined;
  let stopped = false;
  let open = 0;
  const server: Server = net.createServer((socket) => {
    open += 1;
    armIdle();
    socket.on("close", () => {
      open -= 1;
      armIdle();
    });
    socket.on("error", () => undefined);
    readRequest(socket, options.token, options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS)
      .then(async (request) => {
        if (request === undefined) return void socket.destroy();
        if (request === "cpu") {
          const used = process.cpuUsage();
          return void socket.end(`cpu ${used.user + used.system}\n`);
        }
        if (request === "stop") {
          socket.end("stopped\n");
          stop("closed");
          return;
        }
        if (options.current !== undefined && !options.current()) {
          socket.destroy();
          stop("stale");
          return;
        }
        const answered = await answer(request, log);
        const stdout = Buffer.from(answered.stdout, "utf8");
        const stderr = Buffer.from(answered.stderr, "utf8");
        socket.end(
          Buffer.concat([Buffer.from(`${answered.exitCode} ${stdout.length} ${stderr.length}\n`), stdout, stderr]),
        );
      })
      .catch((error: unknown) => {
        // unanswered: the client runs the Node hook, which answers
        log(`request: ${error instanceof Error ? error.message : String(error)}`);
        socket.destroy();
      });
  });
  const stop = (why: "idle" | "stale" | "closed") => {
    if (stopped) return;
    stopped = true;
    clearTimeout(idleTimer);
    server.close();
    options.onStop?.(why);
  };
  function armIdle(): void {
    clearTimeout(idleTimer);
    if (stopped || open > 0) return;
    idleTimer = setTimeout(() => stop("idle"), options.idleMs);
    idleTimer.unref?.();
  }
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  armIdle();
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the hook server has no TCP address");
  return {
    port: address.port,
    close: async () => {
      stop("closed");
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * One request read from the socket: undefined when it is not one (a wrong token or protocol, a malformed or
 * oversized body, a connection closed early), `"cpu"` or `"stop"` for those queries.
 */
function readRequest(
  socket: Socket,
  token: string,
  timeoutMs: number,
): Promise<HookServerRequest | ServerQuery | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => finish(undefined), timeoutMs);
    const chunks: Buffer[] = [];
    let length = 0;
    let needed: number | undefined;
    let done = false;
    const finish = (value: HookServerRequest | ServerQuery | undefined) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.removeListener("data", onData);
      resolve(value);
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
      if (length > MAX_REQUEST_BYTES) return finish(undefined);
      // the size is known once the fields are read: the chunks are joined once, when all of them are here
      if (needed !== undefined && length < needed) return undefined;
      const buffer = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      if (chunks.length > 1) chunks.splice(0, chunks.length, buffer);
      const headerEnd = buffer.indexOf(10);
      if (headerEnd < 0) return buffer.length > 200 ? finish(undefined) : undefined;
      const header = buffer.subarray(0, headerEnd).toString("latin1").split(" ");
      if (header.length !== 3 || header[0] !== HOOK_SERVER_PROTOCOL || !sameToken(header[1]!, token)) {
        return finish(undefined);
      }
      if (header[2] === "cpu" || header[2] === "stop") return finish(header[2]);
      const stdinBytes = /^\d{1,12}$/.test(header[2]!) ? Number(header[2]) : undefined;
      if (stdinBytes === undefined) return finish(undefined);
      if (needed === undefined) {
        const fieldsEnd = endOfFields(buffer, headerEnd + 1);
        if (fieldsEnd === undefined) return undefined;
        needed = fieldsEnd + stdinBytes;
      }
      if (buffer.length < needed) return undefined;
      finish(parseBody(buffer.subarray(headerEnd + 1, needed), stdinBytes));
    };
    socket.on("data", onData);
    socket.once("end", () => finish(undefined));
    socket.once("close", () => finish(undefined));
  });
}

/** Where the fields end (after the empty field that closes the environment), or undefined while not all read. */
function endOfFields(buffer: Buffer, start: number): number | undefined {
  // pid, cwd, count, `count` arguments, then environment entries up to an empty field
  let at = start;
  let field = 0;
  let count: number | undefined;
  for (;;) {
    const end = buffer.indexOf(0, at);
    if (end < 0) return undefined;
    if (field === 2) count = Number(buffer.subarray(at, end).toString("latin1"));
    const empty = end === at;
    at = end + 1;
    field += 1;
    if (count !== undefined && field > 3 + count && empty) return at;
    if (count !== undefined && !Number.isSafeInteger(count)) return at;
  }
}

function parseBody(body: Buffer, stdinBytes: number): HookServerRequest | undefined {
  const fieldsText = body.subarray(0, body.length - stdinBytes).toString("utf8");
  const fields = fieldsText.split("\0");
  // the last separator leaves an empty string after it
  fields.pop();
  const [pid, cwd, countText] = fields;
  const count = Number(countText);
  if (cwd === undefined || cwd === "" || !Number.isSafeInteger(count) || count < 0 || fields.length < 3 + count + 1) {
    return undefined;
  }
  const argv = fields.slice(3, 3 + count);
  const env: Record<string, string> = {};
  for (const entry of fields.slice(3 + count, -1)) {
    const equals = entry.indexOf("=");
    if (equals > 0) env[entry.slice(0, equals)] = entry.slice(equals + 1);
  }
  if (fields[fields.length - 1] !== "") return undefined;
  const hostPid = /^\d{1,10}$/.test(pid ?? "") ? Number(pid) : undefined;
  return {
    hostPid,
    cwd,
    argv,
    env,
    stdinText: body.subarray(body.length - stdinBytes).toString("utf8"),
  };
}

function sameToken(given: string, token: string): boolean {
  if (given.length !== token.length) return false;
  let difference = 0;
  for (let index = 0; index < token.length; index++) difference |= given.charCodeAt(index) ^ token.charCodeAt(index);
  return difference === 0;
}

/** The deliveries of answered requests still under way. */
const underWay = new Set<Promise<void>>();

/** Resolves once the deliveries of every request answered so far ended (each within its budget). */
export async function deliveriesSettled(): Promise<void> {
  await Promise.allSettled([...underWay]);
}

/**
 * A hook event answered as the hook process answers it (`runHookProcess`): the host named by the arguments, the
 * request's environment (with the host process's pid, for a host that reads its command line), its working
 * directory, the answer budget; what is reported before the answer goes to its stderr, what happens after it (the
 * deliveries, a drain the event made due, run in this process) to `log`.
 */
export async function answerHookRequest(
  request: HookServerRequest,
  log: (message: string) => void,
): Promise<HookServerAnswer> {
  const { argv } = request;
  const hostName = argv[0] === "hook" ? argv[1] : argv[0];
  const eventName = argv[0] === "hook" ? argv[2] : argv[1];
  const load = hostName === undefined ? undefined : hookHostLoader(hostName);
  if (load === undefined) {
    return {
      exitCode: 2,
      stdout: "",
      stderr: `toolgate hook: unknown host ${JSON.stringify(hostName ?? "")}. Supported: ${HOOK_HOST_NAMES.join(", ")}. Example: toolgate hook ${HOOK_HOST_NAMES[0] ?? "<host>"}\n`,
    };
  }
  let stderr = "";
  let answered = false;
  const onError = (message: string) => {
    if (answered) log(message);
    else stderr += `toolgate: ${message}\n`;
  };
  const env: Record<string, string | undefined> = { ...request.env };
  if (request.hostPid !== undefined) env[HOOK_PARENT_PID_ENV] = String(request.hostPid);
  const host = await load();
  const started = await startHook(host, {
    stdinText: request.stdinText,
    ...(eventName === undefined ? {} : { eventName }),
    env,
    cwd: request.cwd,
    ...(request.hostPid === undefined ? {} : { hostPid: request.hostPid }),
    answerBudgetMs: HOOK_ANSWER_BUDGET_MS,
    onError,
  });
  answered = true;
  const { answer } = started;
  const stdout = answer.output === undefined ? "" : `${JSON.stringify(answer.output)}\n`;
  const text = answer.stderr === undefined ? stderr : `${stderr}${answer.stderr}\n`;
  // deliveries and a due drain go on after the answer, in this process (nobody waits for them)
  const finishing = started.finish({ budgetMs: HOOK_DRAIN_BUDGET_MS * 5 }).then((done) => {
    if (!done) log("deliveries still under way after the drain budget");
  });
  underWay.add(finishing);
  void finishing.finally(() => underWay.delete(finishing));
  return { exitCode: answer.exitCode, stdout, stderr: text };
}
