/**
 * A tiny Claude Code command hook that appends every payload it receives (one JSON line) to a file, answers
 * nothing and exits 0. Used to record real hook payloads from the binary.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLAUDE_HOOK_EVENTS } from "../../../src/hosts/claude-code/hook-input.js";
import type { Workspace } from "./run-claude.js";

const LOGGER_SOURCE = `import { appendFileSync } from "node:fs";
let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  appendFileSync(process.argv[2], JSON.stringify(JSON.parse(input)) + "\\n");
});
`;

/** Every hook event Claude Code sends (the adapter's own list), so the recorder logs them all. */
export const ALL_HOOK_EVENTS = CLAUDE_HOOK_EVENTS;

/** Installs the logger in the workspace and returns the `hooks` settings block plus a reader for the log. */
export function installHookLogger(workspace: Workspace) {
  const script = join(workspace.root, "hook-logger.mjs");
  const log = join(workspace.root, "hooks.jsonl");
  writeFileSync(script, LOGGER_SOURCE);
  writeFileSync(log, "");
  const command = `"${process.execPath}" "${script}" "${log}"`;
  const hooks = Object.fromEntries(
    ALL_HOOK_EVENTS.map((event) => [event, [{ matcher: "*", hooks: [{ type: "command", command }] }]]),
  );
  return {
    hooks,
    read(): Record<string, unknown>[] {
      return readFileSync(log, "utf8")
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    },
  };
}
