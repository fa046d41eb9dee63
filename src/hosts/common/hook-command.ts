import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ToolgateError } from "../../core/errors.js";

/**
 * The command a host's settings run for `toolgate hook <host>`: this node running this toolgate's bundled hook entry
 * (`dist/hook/toolgate-hook.cjs`: one small CommonJS file loaded through a code cache, the same code path as
 * `toolgate hook <host>` at a fraction of the start-up cost), quoted so paths with spaces work, and ending in
 * `hook <host>` like the CLI's command. A build without the bundle (tsc alone) gets the CLI itself. One place for
 * every command-hook host, so every installer writes the same entry.
 */
export function defaultHookCommand(host: string): string {
  const entry = fileURLToPath(new URL("../../hook/toolgate-hook.cjs", import.meta.url));
  const main = existsSync(entry) ? entry : fileURLToPath(new URL("../../cli/main.js", import.meta.url));
  return `"${process.execPath}" "${main}" hook ${host}`;
}

/**
 * The command `toolgate install <host> --resident` writes (docs/resident-hook.md): bash running toolgate's resident
 * hook client, `dist/hook/toolgate-hook.sh`, with this node for the Node hook it falls back to, ending in `hook <host>`
 * like the default. Throws (INPUT_INVALID) where it cannot run: Windows, no bash 4 or later, no bundled hook.
 */
export function residentHookCommand(host: string, options: { bash?: string; path?: string } = {}): string {
  if (process.platform === "win32") {
    throw new ToolgateError({
      code: "INPUT_INVALID",
      message: "--resident needs bash, which Windows does not have: install without it.",
    });
  }
  const client = join(bundledHookDirectory(), "toolgate-hook.sh");
  if (!existsSync(client)) {
    throw new ToolgateError({
      code: "INPUT_INVALID",
      message: `${client} is missing (a build without the bundled hook): run \`npm run build\`, or install without --resident.`,
    });
  }
  const bash = options.bash ?? bashFourOrLater(options.path ?? process.env["PATH"] ?? "");
  if (bash === undefined) {
    throw new ToolgateError({
      code: "INPUT_INVALID",
      message:
        "--resident needs bash 4 or later on PATH or in /bin (macOS ships bash 3.2: `brew install bash`), or install without it.",
    });
  }
  return `"${bash}" "${client}" "${process.execPath}" hook ${host}`;
}

/** This toolgate's `dist/hook`: the bundled hook and the resident hook's client. */
export function bundledHookDirectory(): string {
  return fileURLToPath(new URL("../../hook", import.meta.url));
}

/** The first bash on `path`, then in /bin, whose major version is 4 or more; undefined when none is. */
function bashFourOrLater(path: string): string | undefined {
  const candidates = [...path.split(delimiter).filter((entry) => entry.startsWith("/")), "/bin", "/usr/bin"];
  for (const directory of new Set(candidates)) {
    const bash = join(directory, "bash");
    if (!existsSync(bash)) continue;
    const run = spawnSync(bash, ["-c", "echo $BASH_VERSINFO"], { encoding: "utf8", timeout: 5_000 });
    if (run.status === 0 && Number(run.stdout.trim()) >= 4) return bash;
  }
  return undefined;
}
