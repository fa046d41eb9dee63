import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

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
