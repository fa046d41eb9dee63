import { fileURLToPath } from "node:url";

/**
 * The command a host's settings run for `toolgate hook <host>`: this toolgate's CLI, run by this node, quoted so
 * paths with spaces work. One place for every command-hook host (Claude Code, Codex, Gemini CLI, Qwen Code), so a
 * faster hook entry changes every host's installed command at once.
 */
export function defaultHookCommand(host: string): string {
  const main = fileURLToPath(new URL("../cli/main.js", import.meta.url));
  return `"${process.execPath}" "${main}" hook ${host}`;
}
