import { isToolgateCodexCommand } from "./codex-hooks-file.js";

/**
 * Codex's trust records of hooks: `[hooks.state."<hooks.json path>:<event>:<group>:<hook>"]` tables with a
 * `trusted_hash` in `$CODEX_HOME/config.toml`, written by Codex itself when `toolgate install codex` asks it to trust
 * toolgate's entries (`codex app-server`, `config/batchWrite`). `toolgate uninstall codex` removes exactly the tables
 * of the entries it removes, so install then uninstall leaves config.toml as it was.
 */

/** `PreToolUse` -> `pre_tool_use`: the event as Codex spells it in a hook's key. */
function snakeCase(event: string): string {
  return event.replace(/(?<=[a-z0-9])([A-Z])/g, "_$1").toLowerCase();
}

/** The keys Codex gives toolgate's entries of a hooks.json object read from `path` (`<path>:<event>:<group>:<hook>`). */
export function toolgateHookStateKeys(path: string, file: Record<string, unknown>): string[] {
  const hooks = file["hooks"];
  if (typeof hooks !== "object" || hooks === null || Array.isArray(hooks)) return [];
  const keys: string[] = [];
  for (const [event, groups] of Object.entries(hooks as Record<string, unknown>)) {
    if (!Array.isArray(groups)) continue;
    groups.forEach((group, groupIndex) => {
      const entries = (group as { hooks?: unknown } | null)?.hooks;
      if (!Array.isArray(entries)) return;
      entries.forEach((entry, hookIndex) => {
        const command = (entry as { command?: unknown } | null)?.command;
        if (typeof command === "string" && isToolgateCodexCommand(command)) {
          keys.push(`${path}:${snakeCase(event)}:${groupIndex}:${hookIndex}`);
        }
      });
    });
  }
  return keys;
}

const HEADER = /^\s*\[/;
const STATE_TABLE = /^\s*\[\s*hooks\s*\.\s*state\s*\.\s*("(?:[^"\\]|\\.)*")\s*\]\s*(?:#.*)?$/;
const STATE_PARENT = /^\s*\[\s*hooks\s*\.\s*state\s*\]\s*(?:#.*)?$/;
const STATE_CHILD = /^\s*\[\s*hooks\s*\.\s*state\s*\./;

function isBlank(line: string): boolean {
  return line.trim() === "";
}

/** The lines of the table whose header is at `index`: from the blank line before it to the next table's blank lines. */
function tableSpan(lines: readonly string[], index: number): [number, number] {
  const start = index > 0 && isBlank(lines[index - 1] as string) ? index - 1 : index;
  let end = index + 1;
  while (end < lines.length && !HEADER.test(lines[end] as string)) end += 1;
  if (end < lines.length) while (end > index + 1 && isBlank(lines[end - 1] as string)) end -= 1;
  return [start, end];
}

/**
 * `text` (a config.toml) without the `[hooks.state."<key>"]` tables of `keys`, and without a `[hooks.state]` table
 * left with nothing in it by that. Every other line stays as it was.
 */
export function removeHookStateTables(text: string, keys: readonly string[]): { text: string; removed: number } {
  const wanted = new Set(keys);
  let lines = text.split(/(?<=\n)/);
  let removed = 0;
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const match = STATE_TABLE.exec((lines[index] as string).replace(/\r?\n$/, ""));
    if (match === null) continue;
    let key: unknown;
    try {
      key = JSON.parse(match[1] as string);
    } catch {
      continue;
    }
    if (typeof key !== "string" || !wanted.has(key)) continue;
    const [start, end] = tableSpan(lines, index);
    lines = [...lines.slice(0, start), ...lines.slice(end)];
    removed += 1;
    index = start;
  }
  if (removed > 0 && !lines.some((line) => STATE_CHILD.test(line))) {
    const parent = lines.findIndex((line) => STATE_PARENT.test(line.replace(/\r?\n$/, "")));
    if (parent >= 0) {
      const [start, end] = tableSpan(lines, parent);
      if (lines.slice(parent + 1, end).every(isBlank)) lines = [...lines.slice(0, start), ...lines.slice(end)];
    }
  }
  return { text: lines.join(""), removed };
}
