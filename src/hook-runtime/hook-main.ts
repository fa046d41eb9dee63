/**
 * The hook entry: what a host's settings run for every hook event (`toolgate install` writes
 * `"<node>" "<dist/hook/toolgate-hook.cjs>" hook <host>`). `npm run build` bundles this file into one CommonJS file
 * (`dist/hook/hook-bundle.cjs`, loaded through a V8 code cache by `dist/hook/toolgate-hook.cjs`), so an event costs
 * one small process start: no CLI parser, no ESM loader, and only the modules the event reaches.
 *   <node> dist/hook/toolgate-hook.cjs hook <host> < event.json
 *   <node> dist/hook/toolgate-hook.cjs --version
 * Exit codes: 0 answered, 1 a non-blocking error on a non-gating event, 2 blocked (the reason on stderr) or bad
 * usage (an unknown host). The same code path as `toolgate hook <host>`.
 */
import { readFileSync } from "node:fs";
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
  } = {},
): Promise<number> {
  const { onAnswered, stdinText } = options;
  if (argv[0] === "--version" || argv[0] === "-v") {
    writeAll(1, `${packageVersion()}\n`);
    return 0;
  }
  // `hook <host>` (what installers write, so the command reads like the CLI's) or just `<host>`
  const hostName = argv[0] === "hook" ? argv[1] : argv[0];
  // `hook <host> <event>`: a host whose payload does not name its event gets it on the command line
  const eventName = argv[0] === "hook" ? argv[2] : argv[1];
  return runHookProcess({
    hostName,
    ...(eventName === undefined ? {} : { eventName }),
    ...(onAnswered === undefined ? {} : { onAnswered }),
    ...(stdinText === undefined ? {} : { stdinText }),
  });
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
