import { closeSync, constants, fstatSync, openSync, readdirSync, readSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import {
  type ExecpolicyProblem,
  type ExecpolicyRule,
  type ParsedExecpolicy,
  parseExecpolicyRules,
} from "./execpolicy-rules.js";

/** A `.rules` file larger than this is reported, not read (Codex's own files are a few KB). */
const MAX_RULES_FILE = 1024 * 1024;

/** `$CODEX_HOME`, else `~/.codex`. */
export function codexHome(env: Readonly<Record<string, string | undefined>>): string {
  const configured = env["CODEX_HOME"];
  return configured !== undefined && configured !== "" ? resolve(configured) : join(env["HOME"] ?? homedir(), ".codex");
}

function readBounded(path: string): string | undefined {
  let descriptor: number | undefined;
  try {
    descriptor = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const stat = fstatSync(descriptor);
    if (!stat.isFile() || stat.size > MAX_RULES_FILE) return undefined;
    const buffer = Buffer.alloc(stat.size);
    let read = 0;
    while (read < stat.size) {
      const count = readSync(descriptor, buffer, read, stat.size - read, read);
      if (count === 0) break;
      read += count;
    }
    return buffer.subarray(0, read).toString("utf8");
  } catch {
    return undefined;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

/** The `*.rules` files of one folder, sorted by name (Codex's load order), or none when it does not exist. */
export function rulesFiles(directory: string): string[] {
  try {
    return readdirSync(directory)
      .filter((name) => name.endsWith(".rules"))
      .sort()
      .map((name) => join(directory, name));
  } catch {
    return [];
  }
}

/**
 * Whether Codex trusts a project folder: `[projects."<path>"] trust_level = "trusted"` in `$CODEX_HOME/config.toml`
 * for the folder or one of its parents. Codex 0.169.0 loads a project's `.codex/` (its rules and hooks) only then.
 */
export function isTrustedCodexProject(options: { home: string; project: string }): boolean {
  const text = readBounded(join(options.home, "config.toml"));
  if (text === undefined || !text.includes("trust_level")) return false;
  const trusted = new Set<string>();
  let current: string | undefined;
  for (const line of text.split("\n")) {
    const header = /^\s*\[projects\.(?:"((?:[^"\\]|\\.)*)"|'([^']*)')\]\s*$/.exec(line);
    if (header !== null) {
      current = header[1] !== undefined ? JSON.parse(`"${header[1]}"`) : header[2];
      continue;
    }
    if (/^\s*\[/.test(line)) current = undefined;
    else if (current !== undefined && /^\s*trust_level\s*=\s*["']trusted["']/.test(line)) trusted.add(resolve(current));
  }
  for (let folder = resolve(options.project); ; ) {
    if (trusted.has(folder)) return true;
    const parent = resolve(folder, "..");
    if (parent === folder) return false;
    folder = parent;
  }
}

/** Which `.rules` files Codex loads for a project: the user's, then the project's own when Codex trusts it. */
export function codexRulesFiles(options: {
  cwd: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
}): { files: string[]; untrustedProjectFiles: string[] } {
  const home = codexHome(options.env);
  const files = rulesFiles(join(home, "rules"));
  const project = options.cwd === undefined ? [] : rulesFiles(join(options.cwd, ".codex", "rules"));
  if (project.length === 0 || options.cwd === undefined) return { files, untrustedProjectFiles: [] };
  return isTrustedCodexProject({ home, project: options.cwd })
    ? { files: [...files, ...project], untrustedProjectFiles: [] }
    : { files, untrustedProjectFiles: project };
}

/** Codex's execpolicy rules for a project, parsed without running Starlark; unreadable files become problems. */
export function loadCodexExecpolicy(options: {
  cwd: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
}): ParsedExecpolicy {
  const rules: ExecpolicyRule[] = [];
  const problems: ExecpolicyProblem[] = [];
  for (const file of codexRulesFiles(options).files) {
    const text = readBounded(file);
    if (text === undefined) {
      problems.push({ source: file, message: `cannot be read (or is larger than ${MAX_RULES_FILE} bytes)` });
      continue;
    }
    const parsed = parseExecpolicyRules(text, file);
    rules.push(...parsed.rules);
    problems.push(...parsed.problems);
  }
  return { rules, problems };
}
