import { existsSync } from "node:fs";
import { join } from "node:path";
import { hookCacheDirectory, type LoadedHookBundle, loadHookBundle } from "./load-hook-bundle.js";
import { readHookStdin } from "./read-hook-stdin.js";
import { writeAll } from "./write-hook-answer.js";

/**
 * The launcher a host's settings run (`dist/hook/toolgate-hook.cjs`, a few kB): loads the bundled hook through the
 * code cache, runs it for this process's arguments, saves a fresh code cache when there was none (after the answer
 * and the drain, so it never delays a decision), and exits with the hook's code: exiting also ends any delivery
 * still hanging after the drain budget. A failure before the hook could answer (a broken bundle, an exception
 * nothing caught) exits 2, which every command-hook host treats as blocking: a broken install never lets a call
 * through. One after the answer exits with the answer's own code, so it cannot change the outcome either.
 */
export function runHookEntry(options: {
  bundlePath: string;
  /** the launcher's own require (it sits beside the bundle), so node:module need not be loaded to make one */
  require?: NodeJS.Require;
}): void {
  const exit = (code: number, loaded?: LoadedHookBundle) => {
    loaded?.saveCache();
    process.exit(code);
  };
  const failed = (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    writeAll(
      2,
      `toolgate hook: could not run (${message}); the call is blocked. Reinstall toolgate, then run \`toolgate doctor\`.\n`,
    );
    exit(2);
  };
  let answered: number | undefined;
  const crashed = (error: unknown) => {
    if (answered === undefined) return failed(error);
    writeAll(2, `toolgate hook: ${error instanceof Error ? error.message : String(error)} (after the answer)\n`);
    exit(answered);
  };
  process.on("uncaughtException", crashed);
  process.on("unhandledRejection", crashed);
  try {
    const argv = process.argv.slice(2);
    // the event is read first: its host and name pick the code cache for the path this process runs
    const stdinText = readsEvent(argv) ? readStdinOrUndefined() : undefined;
    const loaded = loadHookBundle({
      bundlePath: options.bundlePath,
      cacheDirectory: drainCacheDirectory(argv, hookCacheDirectory(process.env)),
      path: codePath(argv, stdinText),
      require: options.require,
    });
    enableNodeCompileCache(loaded.cacheDirectory);
    const hookMain = loaded.exports["hookMain"] as (
      argv: readonly string[],
      options: { onAnswered: (exitCode: number) => void; stdinText?: string; launcher?: string },
    ) => Promise<number>;
    const launcher = process.argv[1];
    hookMain(argv, {
      onAnswered: (exitCode) => {
        answered = exitCode;
      },
      ...(stdinText === undefined ? {} : { stdinText }),
      // a SessionEnd's drain runs in a detached `<launcher> --drain` process, not while the host waits
      ...(launcher === undefined ? {} : { launcher }),
    }).then((code) => exit(code, loaded), crashed);
  } catch (error) {
    failed(error);
  }
}

/**
 * Node's own compile cache (Node >= 22.1, `module.enableCompileCache`) for the JavaScript Node loads from
 * node_modules after this point: better-sqlite3 and pg when the hook drains, pino when a config file logs. Kept in
 * `<hook cache>/node`, inside the hook's private cache directory; nothing on older Node (the bundle and its parts
 * have their own cache either way). Node's NODE_DISABLE_COMPILE_CACHE turns it off as usual.
 */
export function enableNodeCompileCache(cacheDirectory: string | undefined): void {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  if (cacheDirectory === undefined || major < 22 || (major === 22 && minor < 1)) return;
  // loaded only here: node:module costs a hook process a few tenths of a millisecond on Node 20
  const enable = (process.getBuiltinModule("node:module") as { enableCompileCache?: (directory: string) => unknown })
    .enableCompileCache;
  if (typeof enable !== "function") return;
  try {
    enable(join(cacheDirectory, "node"));
  } catch {
    // a cache that cannot be used only costs compiles
  }
}

/**
 * A detached drain (`--drain`) uses the code cache only where the directory exists: it may outlive what started it
 * (a test's or a benchmark's temporary home, removed meanwhile), and must not create that home again.
 */
function drainCacheDirectory(argv: readonly string[], directory: string | undefined): string | undefined {
  if (argv[0] !== "--drain" || directory === undefined) return directory;
  return existsSync(directory) ? directory : undefined;
}

/** Whether these arguments run a hook event (then stdin holds it), rather than `--version`. */
function readsEvent(argv: readonly string[]): boolean {
  return argv[0] !== "--version" && argv[0] !== "-v" && argv[0] !== "--drain" && argv[0] !== "--serve";
}

/** The event text, or undefined when stdin cannot be read (the hook then reads it itself and reports the error). */
function readStdinOrUndefined(): string | undefined {
  try {
    return readHookStdin();
  } catch {
    return undefined;
  }
}

/**
 * `<host>-<event>` (e.g. `<host>-PreToolUse`) from the arguments and the event's `hook_event_name`, found by
 * a pattern rather than a parse: it only picks a code cache, so a wrong guess costs a compile, never a decision.
 */
export function codePath(argv: readonly string[], stdinText: string | undefined): string | undefined {
  // a detached drain (`--drain <host> <dir>`): its own cache, as it runs the store's code and nothing else
  if (argv[0] === "--drain")
    return argv[1] !== undefined && /^[a-z-]{1,24}$/.test(argv[1]) ? `${argv[1]}-drain` : undefined;
  const host = argv[0] === "hook" ? argv[1] : argv[0];
  if (host === undefined || !/^[a-z-]{1,24}$/.test(host)) return undefined;
  const event = stdinText === undefined ? undefined : /"hook_event_name"\s*:\s*"([A-Za-z]{1,32})"/.exec(stdinText)?.[1];
  return event === undefined ? host : `${host}-${event}`;
}
