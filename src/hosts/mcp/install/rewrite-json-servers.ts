import { readFileSync, writeFileSync } from "node:fs";
import { findNodeAtLocation, parseTree } from "jsonc-parser";
import { ToolgateError } from "../../../core/errors.js";
import { editJsonText, parseJsonc } from "../../common/json-file-edit.js";
import { lineDiff } from "../../common/line-diff.js";
import type { JsonServersShape } from "./mcp-json-servers.js";
import { originalCommandLine, proxiedCommandLine, type ServerCommandLine } from "./proxy-command-line.js";

export interface RewriteOptions {
  file: string;
  action: "install" | "uninstall";
  /** one entry; absent: every stdio entry in the file */
  server?: string;
  /** the toolgate command line the proxied entry runs (`defaultProxyPrefix()`) */
  prefix: readonly string[];
  dryRun: boolean;
}

export interface RewriteOutcome {
  path: string;
  changed: boolean;
  diff: string[];
  written: boolean;
  notes: string[];
}

/** The entries to rewrite in a servers table, with the new command line of each (shared by JSON and TOML files). */
export function plannedChanges(options: {
  file: string;
  servers: Record<string, ServerCommandLine | undefined>;
  action: "install" | "uninstall";
  server?: string;
  prefix: readonly string[];
}): { changes: Map<string, ServerCommandLine>; notes: string[] } {
  const names = Object.keys(options.servers);
  if (options.server !== undefined && !names.includes(options.server)) {
    throw new ToolgateError({
      code: "CONFIG_NOT_FOUND",
      message: `${options.file} has no MCP server "${options.server}"${names.length === 0 ? "" : `; it lists ${names.map((name) => `"${name}"`).join(", ")}`}. Add the server in your host first, or pass one of those with --server.`,
      data: { file: options.file, server: options.server },
    });
  }
  const changes = new Map<string, ServerCommandLine>();
  const notes: string[] = [];
  for (const name of options.server === undefined ? names : [options.server]) {
    const line = options.servers[name];
    if (line === undefined) {
      notes.push(
        `MCP server "${name}" in ${options.file} is not a stdio server (a URL): the proxy cannot run it; left as it is.`,
      );
      continue;
    }
    const original = originalCommandLine(line);
    if (options.action === "install" && original === undefined) {
      changes.set(name, proxiedCommandLine({ server: name, original: line, prefix: options.prefix }));
    } else if (options.action === "uninstall" && original !== undefined) {
      changes.set(name, original);
    }
  }
  return { changes, notes };
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
export function rewriteJsonServers(options: RewriteOptions & { shape: JsonServersShape }): RewriteOutcome {
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

/** Replaces each changed entry's one-line array values (`args`, opencode's `command`) with one-line text. */
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
