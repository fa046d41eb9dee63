import type { OsDenialKind } from "../core/events.js";
import { lowerCase } from "./lower-case.js";
import {
  ABSOLUTE_PATH,
  mayNamePath,
  mayNameRefusal,
  NETWORK_SYMPTOM,
  NOT_A_PATH,
  NOT_OS_PERMISSION,
  PATH_PATTERNS,
  PERMISSION_LINE,
  SOCKET_CONTEXT,
  SOURCE_LINE,
} from "./os-denial-patterns.js";
import { redactText } from "./redact.js";
import { truncateCodePoints } from "./summarize-input.js";

/**
 * Tells an OS or sandbox refusal (EACCES, EPERM, "Operation not permitted", "Read-only file system", a seccomp
 * SIGSYS, a blocked network inside a sandbox) from an ordinary failure (`rg` exit 1, `command not found`, a test
 * that failed), so that models stop reading sandbox refusals as bugs. Pure and linear in the size of the output.
 */

export interface OsDenialInput {
  /** the tool that ran (`Bash`, `exec_command`, `Read`) */
  tool: string;
  exitCode?: number;
  /** the signal that ended the process (`SIGSYS` or its number, 31) */
  signal?: string | number;
  stdout?: string;
  stderr?: string;
  /** aggregated output when the host does not separate the streams */
  output?: string;
  /** whether the command ran inside a sandbox (Seatbelt, Landlock, seccomp, bubblewrap, ...) */
  sandboxed?: boolean;
}

export interface OsDenialClassification {
  kind: OsDenialKind | "none";
  /** the line (redacted, at most 300 characters) or fact that decided; empty for `none` */
  evidence: string;
  /** the refused path when the text names one */
  path?: string;
}

const NONE: OsDenialClassification = { kind: "none", evidence: "" };
/** Outputs past this size are scanned at their head and tail, where tools print their errors. */
const HEAD = 64 * 1024;
const TAIL = 192 * 1024;
const SIGSYS_EXIT = 128 + 31;
/** exit 0 with a per-path refusal line: `ls: x: Operation not permitted`, `find: '/p': Permission denied` */
const PER_PATH_LINE =
  /^\/?(?:[\w.+-]{1,255}\/){0,16}[\w.-]{1,40}: (?:line \d+: )?(?:cannot [\w ]{1,40} )?'?[^'\n:]{1,4096}'?: (?:Operation not permitted|Permission denied|Read-only file system)(?: \(os error \d+\))?\s*$/i;

/** What every PER_PATH_LINE ends with, lower-cased (the pattern ignores case). */
const PER_PATH_REFUSALS = ["operation not permitted", "permission denied", "read-only file system"];

function aggregate(input: OsDenialInput): string {
  const text = [input.stderr, input.stdout, input.output]
    .filter((part) => part !== undefined && part !== "")
    .join("\n");
  return text.length <= HEAD + TAIL ? text : `${text.slice(0, HEAD)}\n${text.slice(-TAIL)}`;
}

function evidenceOf(line: string): string {
  return truncateCodePoints(redactText(line.trim()), 300);
}

function cleanPath(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const path = raw.trim().replace(/[.,;]+$/, "");
  if (path.length === 0 || path.includes("..") || /\s{2,}/.test(path) || NOT_A_PATH.test(path)) return undefined;
  return path;
}

function pathOf(line: string, fallback: boolean): string | undefined {
  if (!mayNamePath(line)) return undefined; // no pattern matches such a line: none is compiled for it
  for (const pattern of PATH_PATTERNS) {
    const path = cleanPath(pattern.exec(line)?.[1]);
    if (path !== undefined) return path;
  }
  return fallback ? cleanPath(ABSOLUTE_PATH.exec(line)?.[1]) : undefined;
}

/** Lines around a refusal that often name its path (`npm error path ...`, cargo's `failed to open: ...`). */
const NEIGHBOURS = 6;

function fileDenial(kind: OsDenialKind, lines: readonly string[], index: number): OsDenialClassification {
  const line = lines[index] ?? "";
  let path = pathOf(line, true);
  for (let distance = 1; path === undefined && distance <= NEIGHBOURS; distance += 1) {
    path = pathOf(lines[index + distance] ?? "", false) ?? pathOf(lines[index - distance] ?? "", false);
  }
  const result: OsDenialClassification = { kind, evidence: evidenceOf(line) };
  return path === undefined ? result : { ...result, path: redactText(path) };
}

function isSigsys(input: OsDenialInput, sandboxed: boolean): boolean {
  if (input.signal === "SIGSYS" || input.signal === 31) return true;
  // exit 159 = 128 + SIGSYS as a shell reports it; without a sandbox it may be any program's own exit code
  return sandboxed && input.exitCode === SIGSYS_EXIT;
}

/** Classify one finished tool call. */
export function classifyOsDenial(input: OsDenialInput): OsDenialClassification {
  const sandboxed = input.sandboxed === true;
  const text = aggregate(input);
  const succeeded = input.exitCode === 0 && input.signal === undefined;
  // a process that exited 0 counts only with a per-path refusal line, which names one of these: most outputs name
  // none, and are passed over without compiling the line patterns (what a hook process would pay for every call)
  if (succeeded && !PER_PATH_REFUSALS.some((refusal) => lowerCase(text).includes(refusal))) return NONE;
  // outside a sandbox only a refusal line counts, and it holds one of a few words: an output without any (most of
  // them) is passed over without compiling the line patterns, and so is each line without any
  const wordsOnly = !succeeded && !sandboxed;
  if (wordsOnly && !mayNameRefusal(lowerCase(text)))
    return isSigsys(input, sandboxed) ? sigsys(input, sandboxed) : NONE;
  const lines = text.split("\n");
  let permissionIndex: number | undefined;
  let socketLine: string | undefined;
  let symptomLine: string | undefined;
  for (const [index, line] of lines.entries()) {
    if (line.length === 0 || (wordsOnly && !mayNameRefusal(line.toLowerCase()))) continue;
    if (SOURCE_LINE.test(line) || NOT_OS_PERMISSION.test(line)) continue;
    if (succeeded) {
      // a process that exited 0 only counts when it printed an unambiguous per-path refusal
      if (permissionIndex === undefined && PER_PATH_LINE.test(line)) permissionIndex = index;
      continue;
    }
    if (PERMISSION_LINE.test(line)) {
      if (socketLine === undefined && SOCKET_CONTEXT.test(line) && !/\bunix\b/i.test(line)) socketLine = line;
      else if (permissionIndex === undefined || pathOf(lines[permissionIndex] ?? "", false) === undefined) {
        // prefer the first refusal line that names its path (npm prints `code EACCES` before the message)
        if (permissionIndex === undefined || pathOf(line, false) !== undefined) permissionIndex = index;
      }
    } else if (socketLine === undefined && SOCKET_CONTEXT.test(line)) {
      socketLine = line;
    } else if (symptomLine === undefined && NETWORK_SYMPTOM.test(line)) {
      symptomLine = line;
    }
  }
  if (socketLine !== undefined) {
    return { kind: sandboxed ? "sandbox-network" : "os-permission", evidence: evidenceOf(socketLine) };
  }
  if (permissionIndex !== undefined) {
    return fileDenial(sandboxed ? "sandbox-filesystem" : "os-permission", lines, permissionIndex);
  }
  if (sandboxed && symptomLine !== undefined) return { kind: "sandbox-network", evidence: evidenceOf(symptomLine) };
  return isSigsys(input, sandboxed) ? sigsys(input, sandboxed) : NONE;
}

/** SIGSYS is how a seccomp filter kills a process; Linux sandboxes use seccomp for the network. */
function sigsys(input: OsDenialInput, sandboxed: boolean): OsDenialClassification {
  const evidence = `exit ${input.exitCode ?? "-"} signal ${input.signal ?? "SIGSYS"}: a system call was blocked by a seccomp filter`;
  return { kind: sandboxed ? "sandbox-network" : "os-permission", evidence };
}
