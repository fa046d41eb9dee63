import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { ToolgateError } from "../../core/errors.js";
import { lineDiff } from "../common/line-diff.js";
import {
  type McpServersConfig,
  type McpServersRewriteOutcome,
  plannedChanges,
  type ServerCommandLine,
} from "../common/mcp-servers.js";
import { type RewriteOptions, readSettingsText } from "../common/rewrite-json-servers.js";
import { codexHome } from "./codex-execpolicy.js";

/** Codex keeps its MCP servers in `$CODEX_HOME/config.toml` (default `~/.codex`) `[mcp_servers.<name>]`, every scope. */
export const codexMcpServers: McpServersConfig = {
  rewrite: (options) =>
    rewriteCodexServers({
      action: options.action,
      prefix: options.prefix,
      dryRun: options.dryRun,
      ...(options.server === undefined ? {} : { server: options.server }),
      file: join(codexHome({ ...options.env, HOME: options.home }), "config.toml"),
    }),
};

/**
 * Rewrites `[mcp_servers.<name>]` tables of Codex's `config.toml` by replacing only their `command` and `args`
 * lines (comments, order and every other line stay), then checks the result parses to the intended values.
 * `args` is written on one line (an entry that had none gets `args = []` back on uninstall).
 */
export function rewriteCodexServers(options: RewriteOptions): McpServersRewriteOutcome {
  const { file } = options;
  const text = readSettingsText(file);
  const parsed = parse(text, file);
  const table = parsed["mcp_servers"];
  const servers: Record<string, ServerCommandLine | undefined> = {};
  if (typeof table === "object" && table !== null && !Array.isArray(table)) {
    for (const [name, entry] of Object.entries(table as Record<string, unknown>)) servers[name] = commandLineOf(entry);
  }
  const { changes, notes } = plannedChanges({
    file,
    servers,
    action: options.action,
    prefix: options.prefix,
    ...(options.server === undefined ? {} : { server: options.server }),
  });
  if (changes.size === 0) return { path: file, changed: false, diff: [], written: false, notes };
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  let lines = text.split(/\r?\n/);
  for (const [name, line] of changes) lines = rewriteTable({ lines, name, line, file });
  const next = lines.join(eol);
  const check = parse(next, file)["mcp_servers"] as Record<string, unknown>;
  for (const [name, line] of changes) {
    if (JSON.stringify(commandLineOf(check[name])) !== JSON.stringify(line)) {
      throw new ToolgateError({
        code: "CONFIG_INVALID",
        message: `toolgate could not rewrite [mcp_servers.${name}] in ${file} safely (its command or args are written in a form the installer does not edit). Write them as single \`command = "..."\` and \`args = [...]\` lines, then run the command again.`,
        data: { file, server: name },
      });
    }
  }
  if (!options.dryRun) writeFileSync(file, next);
  return { path: file, changed: true, diff: lineDiff({ before: text, after: next }), written: !options.dryRun, notes };
}

function parse(text: string, file: string): Record<string, unknown> {
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (error) {
    throw new ToolgateError({
      code: "CONFIG_INVALID",
      message: `${file} is not valid TOML (${(error as Error).message.split("\n")[0]}). Fix it, then run the command again.`,
      data: { file },
    });
  }
}

function commandLineOf(entry: unknown): ServerCommandLine | undefined {
  if (typeof entry !== "object" || entry === null) return undefined;
  const { command, args } = entry as { command?: unknown; args?: unknown };
  if (typeof command !== "string") return undefined;
  if (args === undefined) return { command, args: [] };
  if (!Array.isArray(args) || !args.every((arg) => typeof arg === "string")) return undefined;
  return { command, args: args as string[] };
}

function tomlString(value: string): string {
  return JSON.stringify(value); // a JSON string is a TOML basic string
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Replaces the `command` and `args` lines of one `[mcp_servers.<name>]` table. */
function rewriteTable(options: { lines: string[]; name: string; line: ServerCommandLine; file: string }): string[] {
  const { lines, name } = options;
  const key = escapeRegExp(name);
  const header = new RegExp(`^\\s*\\[\\s*mcp_servers\\s*\\.\\s*(?:${key}|"${key}"|'${key}')\\s*\\]\\s*(?:#.*)?$`);
  const start = lines.findIndex((line) => header.test(line));
  if (start === -1) {
    throw new ToolgateError({
      code: "CONFIG_INVALID",
      message: `${options.file} defines the MCP server "${name}" without a [mcp_servers.${name}] table (inline or dotted keys), which the installer does not edit. Write it as a [mcp_servers.${name}] table, then run the command again.`,
      data: { file: options.file, server: name },
    });
  }
  let end = lines.length;
  for (let index = start + 1; index < lines.length; index++) {
    if (/^\s*\[/.test(lines[index] as string)) {
      end = index;
      break;
    }
  }
  const body = lines.slice(start + 1, end);
  const commandAt = body.findIndex((line) => /^\s*command\s*=/.test(line));
  const argsAt = body.findIndex((line) => /^\s*args\s*=/.test(line));
  const argsLine = `args = [${options.line.args.map(tomlString).join(", ")}]`;
  const result = [...body];
  // args first: it may span several lines, and it may come before or after `command`
  if (argsAt !== -1) {
    const span = arraySpan(body, argsAt);
    result.splice(argsAt, span, argsLine);
  }
  const commandIndex = result.findIndex((line) => /^\s*command\s*=/.test(line));
  if (commandAt === -1 || commandIndex === -1) return lines; // the parse check reports it
  result[commandIndex] = `command = ${tomlString(options.line.command)}`;
  if (argsAt === -1) result.splice(commandIndex + 1, 0, argsLine);
  return [...lines.slice(0, start + 1), ...result, ...lines.slice(end)];
}

/** How many lines the array assignment starting at `index` spans (brackets outside strings). */
function arraySpan(body: readonly string[], index: number): number {
  let depth = 0;
  for (let offset = index; offset < body.length; offset++) {
    let quote: string | undefined;
    const line = body[offset] as string;
    for (let position = 0; position < line.length; position++) {
      const character = line[position] as string;
      if (quote !== undefined) {
        if (character === "\\" && quote === '"') position++;
        else if (character === quote) quote = undefined;
      } else if (character === '"' || character === "'") quote = character;
      else if (character === "#") break;
      else if (character === "[") depth++;
      else if (character === "]") depth--;
    }
    if (depth <= 0) return offset - index + 1;
  }
  return body.length - index;
}
