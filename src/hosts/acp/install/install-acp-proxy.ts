import { readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { applyEdits, findNodeAtLocation, modify, parseTree } from "jsonc-parser";
import { ToolgateError } from "../../../core/errors.js";
import { editJsonText, formattingOf, parseJsonc } from "../../common/json-file-edit.js";
import { lineDiff } from "../../common/line-diff.js";
import type { HostInstallOutcome } from "../../host-descriptor.js";
import {
  type AgentCommandLine,
  agentCommandLine,
  originalAgentCommandLine,
  proxiedAgentCommandLine,
} from "./acp-agent-command-line.js";
import { acpEditor } from "./acp-editors.js";

export interface AcpProxyInstallOptions {
  editor: string | undefined;
  scope: "project" | "local" | "user";
  dryRun: boolean;
  /** one agent entry (its name under `agent_servers`); absent: every entry with a command */
  agent?: string;
  /** the toolgate command the entry runs, split on spaces (default: this node running this toolgate) */
  command?: string;
  cwd?: string;
  env?: Readonly<Record<string, string | undefined>>;
}

const KEY = "agent_servers";

/** This node running this toolgate's CLI: the start of the command line the editor runs for a proxied agent. */
function defaultPrefix(): string[] {
  return [process.execPath, fileURLToPath(new URL("../../../cli/main.js", import.meta.url))];
}

/**
 * `toolgate install acp-proxy --editor <editor>` / `uninstall acp-proxy`: rewrites the editor's existing ACP agent
 * entries (`agent_servers.<name>`: `command`, `args`) to run `<toolgate> acp-proxy -- <the original command line>`,
 * or restores them from that line. Only the changed values are touched; a one-line `args` stays on one line, so
 * uninstall gives back the very bytes install replaced. Entries without a command of their own (an editor's built-in
 * agents) are left alone and named in the notes.
 */
export function installAcpProxy(options: AcpProxyInstallOptions, action: "install" | "uninstall"): HostInstallOutcome {
  const env = options.env ?? process.env;
  const editor = acpEditor(options.editor, action);
  const file = join(
    ...editor.file({
      scope: options.scope,
      cwd: resolve(options.cwd ?? process.cwd()),
      home: env["HOME"] ?? homedir(),
      env,
    }),
  );
  const text = readSettings(file, editor.displayName);
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
  const servers = isObject(value) ? value[KEY] : undefined;
  if (!isObject(servers)) {
    throw new ToolgateError({
      code: "CONFIG_NOT_FOUND",
      message: `${file} has no "${KEY}" object: there is no ACP agent to run through the proxy. Add the agent in ${editor.displayName} first.`,
      data: { file },
    });
  }
  if (options.agent !== undefined && !Object.hasOwn(servers, options.agent)) {
    throw new ToolgateError({
      code: "CONFIG_INVALID",
      message: `${file} has no agent "${options.agent}" under "${KEY}" (it has: ${Object.keys(servers).join(", ") || "none"}).`,
      data: { file },
    });
  }
  const prefix = options.command === undefined ? defaultPrefix() : options.command.split(/\s+/).filter(Boolean);
  const changes = new Map<string, AgentCommandLine>();
  const notes: string[] = [];
  for (const [name, entry] of Object.entries(servers)) {
    if (options.agent !== undefined && name !== options.agent) continue;
    const line = isObject(entry) ? agentCommandLine(entry) : undefined;
    if (line === undefined) {
      notes.push(`${file}: "${name}" has no command of its own (a built-in agent); left as it is.`);
      continue;
    }
    const original = originalAgentCommandLine(line);
    if (action === "install" && original === undefined)
      changes.set(name, proxiedAgentCommandLine({ original: line, prefix }));
    if (action === "uninstall" && original !== undefined) changes.set(name, original);
  }
  if (changes.size === 0) return { path: file, changed: false, diff: [], written: false, notes };
  const after = structuredClone(value) as Record<string, Record<string, Record<string, unknown>>>;
  // an entry that had no `args` gets them on install and loses them again on uninstall: added and removed by one
  // JSONC edit each (after the rest), which keep the entry's own commas and layout, so the round trip is exact
  const argsAdded = new Map<string, string[]>();
  const argsRemoved: string[] = [];
  for (const [name, line] of changes) {
    const entry = after[KEY]?.[name] as Record<string, unknown>;
    entry["command"] = line.command;
    if (action === "uninstall" && line.args.length === 0) argsRemoved.push(name);
    else if (action === "install" && entry["args"] === undefined) argsAdded.set(name, line.args);
    else entry["args"] = line.args;
  }
  const inline = inlineArgs({ text, after, names: [...changes.keys()] });
  let next = editJsonText({ text: inline, before: parseJsonc(inline), after });
  const formattingOptions = formattingOf(next);
  for (const [name, args] of argsAdded) {
    next = applyEdits(next, modify(next, [KEY, name, "args"], args, { formattingOptions }));
  }
  for (const name of argsRemoved) {
    next = applyEdits(next, modify(next, [KEY, name, "args"], undefined, { formattingOptions }));
  }
  if (!options.dryRun) writeFileSync(file, next);
  return { path: file, changed: true, diff: lineDiff({ before: text, after: next }), written: !options.dryRun, notes };
}

function readSettings(file: string, editor: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ToolgateError({
      code: code === "ENOENT" ? "CONFIG_NOT_FOUND" : "CONFIG_INVALID",
      message:
        code === "ENOENT"
          ? `${file} does not exist: there is no ACP agent to run through the proxy. Add the agent in ${editor} first.`
          : `Cannot read ${file} (${code ?? String(error)}). Check the file's permissions.`,
      data: { file },
    });
  }
}

/** Replaces each changed entry's one-line `args` with the new one-line text, before the rest of the edit. */
function inlineArgs(options: { text: string; after: unknown; names: string[] }): string {
  let text = options.text;
  for (const name of options.names) {
    const value = (options.after as Record<string, Record<string, Record<string, unknown>>>)[KEY]?.[name]?.["args"];
    if (!Array.isArray(value)) continue;
    const tree = parseTree(text);
    const node = tree === undefined ? undefined : findNodeAtLocation(tree, [KEY, name, "args"]);
    if (node === undefined || node.type !== "array") continue;
    const old = text.slice(node.offset, node.offset + node.length);
    if (old.includes("\n")) continue;
    const separator = old.includes(", ") || node.children === undefined || node.children.length < 2 ? ", " : ",";
    text = `${text.slice(0, node.offset)}[${value.map((item) => JSON.stringify(item)).join(separator)}]${text.slice(node.offset + node.length)}`;
  }
  return text;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
