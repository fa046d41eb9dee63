import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findNodeAtLocation, parseTree } from "jsonc-parser";
import { ToolgateError } from "../../core/errors.js";
import { editJsonText, parseJsonc } from "./json-file-edit.js";
import { lineDiff } from "./line-diff.js";
import { commandArgsShape, commandArrayShape, type JsonServersShape } from "./mcp-json-servers.js";
import {
  type McpServersConfig,
  type McpServersRewriteOptions,
  type McpServersRewriteOutcome,
  plannedChanges,
  type ServerCommandLine,
} from "./mcp-servers.js";

/** What one rewrite of a settings file needs besides the file: the action, the entry, the proxy command line. */
export type RewriteOptions = Pick<McpServersRewriteOptions, "action" | "server" | "prefix" | "dryRun"> & {
  file: string;
};

/**
 * The MCP servers of a host that keeps them in a JSON (or JSONC) settings file: `location` gives, per scope, the
 * file (path segments, joined) and the key path of its servers object; `shape` how one stdio entry spells its
 * command line (`command-args`: `{ command, args }`; `command-array`: `{ type: "local", command: [argv...] }`).
 */
export function jsonMcpServers(options: {
  location: (where: { scope: McpServersRewriteOptions["scope"]; cwd: string; home: string }) => {
    file: string[];
    key: string[];
  };
  shape: "command-args" | "command-array";
}): McpServersConfig {
  return {
    rewrite(rewrite) {
      const { file, key } = options.location({ scope: rewrite.scope, cwd: rewrite.cwd, home: rewrite.home });
      return rewriteJsonServers({
        action: rewrite.action,
        prefix: rewrite.prefix,
        dryRun: rewrite.dryRun,
        ...(rewrite.server === undefined ? {} : { server: rewrite.server }),
        file: join(...file),
        shape: options.shape === "command-args" ? commandArgsShape(key) : commandArrayShape(key),
      });
    },
  };
}

/** Reads a settings file; a missing or unreadable one is an error that says what to do. */
export function readSettingsText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ToolgateError({
      code: code === "ENOENT" ? "CONFIG_NOT_FOUND" : "CONFIG_INVALID",
      message:
        code === "ENOENT"
          ? `${file} does not exist: there is no MCP server to run through the proxy. Add the server in your host first.`
          : `Cannot read ${file} (${code ?? String(error)}). Check the file's permissions.`,
      data: { file },
    });
  }
}

/** Rewrites MCP server entries of a JSON/JSONC settings file in place (only the changed values are touched). */
export function rewriteJsonServers(options: RewriteOptions & { shape: JsonServersShape }): McpServersRewriteOutcome {
  const { file, shape } = options;
  const text = readSettingsText(file);
  let value: unknown;
  try {
    value = parseJsonc(text);
  } catch (error) {
    throw new ToolgateError({
      code: "CONFIG_INVALID",
      message: `${file} is not valid JSON (${(error as Error).message}). Fix it, then run the command again.`,
      data: { file },
    });
  }
  const servers = objectAt(value, shape.path);
  if (servers === undefined) {
    throw new ToolgateError({
      code: "CONFIG_NOT_FOUND",
      message: `${file} has no "${shape.path.join(".")}" object: there is no MCP server to run through the proxy. Add the server in your host first.`,
      data: { file },
    });
  }
  const lines: Record<string, ServerCommandLine | undefined> = {};
  for (const [name, entry] of Object.entries(servers)) lines[name] = isObject(entry) ? shape.read(entry) : undefined;
  const { changes, notes } = plannedChanges({
    file,
    servers: lines,
    action: options.action,
    prefix: options.prefix,
    ...(options.server === undefined ? {} : { server: options.server }),
  });
  if (changes.size === 0) return { path: file, changed: false, diff: [], written: false, notes };
  const after = structuredClone(value) as Record<string, unknown>;
  const target = objectAt(after, shape.path) as Record<string, unknown>;
  for (const [name, line] of changes) target[name] = shape.write(target[name] as Record<string, unknown>, line);
  // a one-line array stays on one line (so uninstall gives back the very text install replaced), then the rest
  const inline = inlineArrays({ text, after, path: shape.path, names: [...changes.keys()] });
  const next = editJsonText({ text: inline, before: parseJsonc(inline), after });
  if (!options.dryRun) writeFileSync(file, next);
  return { path: file, changed: true, diff: lineDiff({ before: text, after: next }), written: !options.dryRun, notes };
}

/** Replaces each changed entry's one-line array values (`args`, or `command` as an argv array) with one-line text. */
function inlineArrays(options: { text: string; after: unknown; path: readonly string[]; names: string[] }): string {
  let text = options.text;
  for (const name of options.names) {
    const entry = objectAt(options.after, [...options.path, name]);
    for (const key of ["args", "command"]) {
      const value = entry?.[key];
      if (!Array.isArray(value)) continue;
      const node = findNodeAtLocation(parseTree(text) as NonNullable<ReturnType<typeof parseTree>>, [
        ...options.path,
        name,
        key,
      ]);
      if (node === undefined || node.type !== "array") continue;
      const old = text.slice(node.offset, node.offset + node.length);
      if (old.includes("\n")) continue;
      const separator = old.includes(", ") || node.children === undefined || node.children.length < 2 ? ", " : ",";
      const replacement = `[${value.map((item) => JSON.stringify(item)).join(separator)}]`;
      text = text.slice(0, node.offset) + replacement + text.slice(node.offset + node.length);
    }
  }
  return text;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function objectAt(value: unknown, path: readonly string[]): Record<string, unknown> | undefined {
  let current = value;
  for (const key of path) {
    if (!isObject(current)) return undefined;
    current = current[key];
  }
  return isObject(current) ? current : undefined;
}
