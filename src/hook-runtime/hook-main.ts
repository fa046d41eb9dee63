/**
 * The hook entry: what a host's settings run for every hook event (`toolgate install` writes
 * `"<node>" "<dist/hook/toolgate-hook.cjs>" hook <host>`). `npm run build` bundles this file into one CommonJS file
 * (`dist/hook/hook-bundle.cjs`, loaded through a V8 code cache by `dist/hook/toolgate-hook.cjs`), so an event costs
 * one small process start: no CLI parser, no ESM loader, and only the modules the event reaches.
 *   <node> dist/hook/toolgate-hook.cjs hook <host> < event.json
 *   <node> dist/hook/toolgate-hook.cjs --version
 *   <node> dist/hook/toolgate-hook.cjs --drain <host> <project dir>   (what a SessionEnd starts, detached)
 *   <node> dist/hook/toolgate-hook.cjs --serve <server file>   (the resident hook server, docs/resident-hook.md)
 * Exit codes: 0 answered, 1 a non-blocking error on a non-gating event, 2 blocked (the reason on stderr) or bad
 * usage (an unknown host). The same code path as `toolgate hook <host>`.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { HOOK_SERVER_FILE_ENV, startServerAfterAnswer } from "./hook-server-start.js";
import { drainSpool } from "./run-hook.js";
import { runHookProcess } from "./run-hook-process.js";
import { writeAll } from "./write-hook-answer.js";

/**
 * Runs the hook entry for `argv` (after node and the script) and returns the exit code; `onAnswered` learns the
 * answer's exit code as soon as the answer is written.
 */
export async function hookMain(
  argv: readonly string[],
  options: {
    onAnswered?: (exitCode: 0 | 1 | 2) => void;
    /** the event, when the caller already read stdin (the launcher does, to pick its code cache) */
    stdinText?: string;
    /**
     * the launcher's own path (`dist/hook/toolgate-hook.cjs`): a due drain (SessionEnd's) is then handed to a
     * detached `<launcher> --drain` process, so the host does not wait for the store; without it, drained here
     */
    launcher?: string;
  } = {},
): Promise<number> {
  const { onAnswered, stdinText, launcher } = options;
  if (argv[0] === "--version" || argv[0] === "-v") {
    writeAll(1, `${packageVersion()}\n`);
    return 0;
  }
  if (argv[0] === DRAIN_FLAG) {
    const [, hostName, cwd] = argv;
    if (hostName === undefined || cwd === undefined) {
      writeAll(2, `toolgate hook: usage: ${DRAIN_FLAG} <host> <project dir>\n`);
      return 2;
    }
    // the project (or the home it ran under) is gone: nothing to find the config by; the spool keeps the records
    if (!existsSync(cwd)) return 0;
    await drainSpool({ hostName, cwd, budgetMs: BACKGROUND_DRAIN_BUDGET_MS });
    return 0;
  }
  if (argv[0] === SERVE_FLAG) {
    const serverFile = argv[1];
    if (serverFile === undefined || launcher === undefined) {
      writeAll(2, `toolgate hook: usage: ${SERVE_FLAG} <server file> (through dist/hook/toolgate-hook.cjs)\n`);
      return 2;
    }
    // a part of its own: no hook event loads the server's code
    const { serveHookEvents } = await import("./hook-server-process.js");
    const idle = Number(process.env["TOOLGATE_HOOK_SERVER_IDLE_MS"]);
    await serveHookEvents({
      serverFile,
      bundleFile: join(dirname(launcher), "hook-bundle.cjs"),
      ...(Number.isSafeInteger(idle) && idle > 0 ? { idleMs: idle } : {}),
    });
    return 0;
  }
  // `hook <host>` (what installers write, so the command reads like the CLI's) or just `<host>`
  const hostName = argv[0] === "hook" ? argv[1] : argv[0];
  // `hook <host> <event>`: a host whose payload does not name its event gets it on the command line
  const eventName = argv[0] === "hook" ? argv[2] : argv[1];
  const code = await runHookProcess({
    hostName,
    ...(eventName === undefined ? {} : { eventName }),
    ...(onAnswered === undefined ? {} : { onAnswered }),
    ...(stdinText === undefined ? {} : { stdinText }),
    ...(launcher === undefined ? {} : { deferDrain: (where) => drainInBackground(launcher, where) }),
  });
  // run for the resident hook's client, which found no server that answered: one is started for its next events
  if (launcher !== undefined && process.env[HOOK_SERVER_FILE_ENV] !== undefined) {
    startServerAfterAnswer(process.env, {
      start: (serverFile) => startInBackground([process.execPath, launcher, SERVE_FLAG, serverFile]),
    });
  }
  return code;
}

/** The launcher's argument for the resident hook server (`--serve <server file>`, docs/resident-hook.md). */
export const SERVE_FLAG = "--serve";

/** The launcher's argument for a detached drain (`--drain <host> <project dir>`). */
export const DRAIN_FLAG = "--drain";

/** How long a detached drain may take: nobody waits for it, and what it cannot ship stays in the spool. */
const BACKGROUND_DRAIN_BUDGET_MS = 15_000;

/**
 * Starts `<node> <launcher> --drain <host> <cwd>` detached (its own process group, no stdio, not waited for), so the
 * hook exits as soon as its answer is written. Throws when the process cannot be started synchronously (the caller
 * then drains itself); a later failure leaves the records in the spool, where the next drain (a later SessionEnd,
 * a spool older than 30 s at any non-gating event, `report`, `tail`, `run`, the dashboard) ships them.
 */
export function drainInBackground(launcher: string, where: { hostName: string; cwd: string }): void {
  startInBackground([process.execPath, launcher, DRAIN_FLAG, where.hostName, where.cwd]);
}

/** `argv` started detached (its own session, no stdio, not waited for); throws when it cannot be started at once. */
function startInBackground(argv: readonly string[]): void {
  if (process.platform !== "win32" && startedThroughShell(argv)) return;
  // loaded only here, and only when the shell way failed: node:child_process loads node:net and streams (~20 M
  // instructions), more than the drain's own start
  const { spawn } = process.getBuiltinModule("node:child_process") as typeof import("node:child_process");
  const child = spawn(argv[0]!, argv.slice(1), { detached: true, stdio: "ignore", env: process.env });
  child.on("error", () => undefined);
  child.unref();
}

interface SpawnSyncBinding {
  spawn(options: {
    file: string;
    args: string[];
    envPairs: string[];
    stdio: { type: "ignore" }[];
    detached: boolean;
    windowsHide: boolean;
  }): { status: number | null; error?: number };
}

/**
 * `argv` started in the background by `/bin/sh` (its own session; no stdin, stdout or stderr), the shell waited
 * for (it exits as soon as the job is started). Through Node's `spawn_sync` binding, which `spawnSync` itself uses
 * and `process.binding` still allows on Node 20-24: it costs a few hundred thousand instructions where
 * node:child_process costs about 20 M. False when the binding is missing or the shell failed (the caller then uses
 * node:child_process). The arguments reach the job as the shell's positional parameters, never parsed as shell text.
 */
function startedThroughShell(argv: readonly string[]): boolean {
  try {
    const binding = (process as unknown as { binding(name: string): SpawnSyncBinding }).binding("spawn_sync");
    const envPairs: string[] = [];
    for (const [key, value] of Object.entries(process.env)) if (value !== undefined) envPairs.push(`${key}=${value}`);
    const result = binding.spawn({
      file: "/bin/sh",
      args: ["/bin/sh", "-c", '"$0" "$@" </dev/null >/dev/null 2>&1 &', ...argv],
      envPairs,
      stdio: [{ type: "ignore" }, { type: "ignore" }, { type: "ignore" }],
      detached: true,
      windowsHide: true,
    });
    return result.error === undefined && result.status === 0;
  } catch {
    return false;
  }
}

function packageVersion(): string {
  try {
    // this file is dist/hook-runtime/hook-main.js, bundled as dist/hook/hook-bundle.cjs: package.json is two levels up
    const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    return String(manifest.version);
  } catch {
    return "unknown";
  }
}
