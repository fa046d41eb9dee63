import { closeSync, mkdirSync, openSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { deliveriesSettled, startHookServer } from "./hook-server.js";
import { askHookServer } from "./hook-server-client.js";
import { appendServerLog, serverLogFile } from "./hook-server-log.js";
import { HOOK_SERVER_IDLE_MS, readServerFile } from "./hook-server-start.js";

/**
 * The resident hook server's process (`toolgate-hook.cjs --serve <server file>`, docs/resident-hook.md): a part of
 * the hook bundle of its own (`hook-part-server.cjs`), so a hook event never loads it.
 */
/**
 * The server process: listens, publishes its address in `serverFile` (mode 0600, in a 0700 directory; a server
 * there before is asked to stop, its clients now come here), serves until idle or until the install changes
 * under it (`bundleFile`'s size or time), then removes its file (when it is still its own). Resolves once it stopped serving and the deliveries of its last requests ended.
 */
export async function serveHookEvents(options: {
  serverFile: string;
  bundleFile: string;
  idleMs?: number;
  log?: (message: string) => void;
}): Promise<"idle" | "stale" | "closed"> {
  const { serverFile } = options;
  const marker = `${serverFile}.starting`;
  mkdirSync(dirname(serverFile), { recursive: true, mode: 0o700 });
  const { randomBytes } = process.getBuiltinModule("node:crypto") as typeof import("node:crypto");
  const token = randomBytes(24).toString("hex");
  const built = stamp(options.bundleFile);
  const logFile = serverLogFile(serverFile);
  const log = options.log ?? ((message: string) => appendServerLog(logFile, message));
  let stopped: (why: "idle" | "stale" | "closed") => void = () => undefined;
  const done = new Promise<"idle" | "stale" | "closed">((resolve) => {
    stopped = resolve;
  });
  const server = await startHookServer({
    token,
    idleMs: options.idleMs ?? HOOK_SERVER_IDLE_MS,
    current: () => stamp(options.bundleFile) === built,
    log,
    onStop: (why) => {
      if (readServerFile(serverFile)?.pid === process.pid) removeQuietly(serverFile);
      log(`stopped: ${STOPPED[why]}`);
      stopped(why);
    },
  });
  const finished = done.then(async (why) => {
    // the requests already answered finish their deliveries (each within its budget) before the process ends
    await deliveriesSettled();
    return why;
  });
  // stopped by a signal (`kill`, a logout): its file goes with it, so no client tries a dead address
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.once(signal, () => void server.close());
  try {
    const replaced = readServerFile(serverFile);
    publish(serverFile, `${server.port} ${token} ${process.pid}\n`);
    log(`started: 127.0.0.1:${server.port}, node ${process.version}, ${options.bundleFile} (${built})`);
    // the server this one replaces gets no more events: asked to stop now rather than when idle (one that does not
    // answer, stuck or of another token, is left to its idle time)
    if (replaced !== undefined && replaced.pid !== process.pid) {
      void askHookServer(replaced, "stop").then((answer) =>
        log(`replaced the server of pid ${replaced.pid}: ${answer === "stopped" ? "it stopped" : "it did not answer"}`),
      );
    }
  } catch (error) {
    log(`could not publish ${serverFile}: ${error instanceof Error ? error.message : String(error)}`);
    await server.close();
    throw error;
  } finally {
    removeQuietly(marker);
  }
  return finished;
}

const STOPPED = {
  idle: "idle (no request for the idle time)",
  stale: "its install changed (an upgrade or a rebuild): the next event's Node hook starts the new version",
  closed: "asked to (a signal, or a stop query: toolgate uninstall)",
} as const;

/** Writes the address under `file` (replacing a server's before it: the clients go to the newest). */
function publish(file: string, text: string): void {
  const temporary = join(dirname(file), `.${process.pid}.server.tmp`);
  const descriptor = openSync(temporary, "w", 0o600);
  try {
    writeSync(descriptor, text);
  } finally {
    closeSync(descriptor);
  }
  renameSync(temporary, file);
}

function stamp(file: string): string {
  try {
    const stats = statSync(file);
    return `${stats.size} ${stats.mtimeMs}`;
  } catch {
    return "missing";
  }
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // gone already
  }
}
