import type { ToolCall } from "../../core/events.js";
import type { PiToolCallEvent } from "./pi-extension-api.js";
import { PiPathError, type PiPathSystem, resolvePiPath } from "./resolve-pi-path.js";

/**
 * pi's shell tools: `powershell` (pi on Windows, or `--tools powershell`) runs a command as `bash` does (pi 1.6.0
 * builds both with `createShellToolDefinition`, input `{ command, timeout }`); rules read both as `Bash`
 * (policy/tool-families.ts), and records keep pi's own name.
 */
const PI_SHELL_TOOLS: ReadonlySet<string> = new Set(["bash", "powershell"]);

/**
 * pi's tools that act on a path, and whether pi requires it: `read`, `write` and `edit` take `path`; `ls`, `grep` and
 * `find` search `path || "."` (pi 1.6.0 dist/core/tools/*.js, each through `resolveToCwd`).
 */
const PI_PATH_TOOLS: Readonly<Record<string, "required" | "optional">> = {
  read: "required",
  write: "required",
  edit: "required",
  ls: "optional",
  grep: "optional",
  find: "optional",
};

/** Input fields toolgate's policy reads as a file tool's path before `path` (`pathOf`); pi never reads them. */
const OTHER_PATH_FIELDS = ["file_path", "filePath", "notebook_path"] as const;

/**
 * A path tool's input with `path` as pi resolves it (and no other field toolgate could take for the path), or why it
 * cannot be read. pi acts on `resolveToCwd(path, cwd)`, so toolgate decides on that path, not the text the model wrote.
 */
function withPiPath(
  call: { tool: string; input: Record<string, unknown> },
  where: { cwd: string | undefined; system: PiPathSystem },
): Record<string, unknown> | string {
  const { tool, input } = call;
  const path = input["path"];
  const required = PI_PATH_TOOLS[tool] === "required";
  if (typeof path !== "string" && (required || path !== undefined)) return `the ${tool} call has no path string`;
  let resolved: string;
  try {
    resolved = resolvePiPath(typeof path === "string" && path !== "" ? path : ".", where);
  } catch (error) {
    if (error instanceof PiPathError)
      return `the path of the ${tool} call cannot be read as pi reads it: ${error.message}`;
    throw error;
  }
  const rewritten: Record<string, unknown> = { ...input, path: resolved };
  for (const field of OTHER_PATH_FIELDS) delete rewritten[field];
  return rewritten;
}

/**
 * The call as toolgate decides it, or why it cannot be checked (a refusal: malformed input never runs). A path tool's
 * path is the one pi acts on; a shell tool's command must be a string.
 */
export function piToolCall(
  event: PiToolCallEvent,
  where: { cwd: string | undefined; system: PiPathSystem },
): ToolCall | string {
  if (typeof event.toolName !== "string" || event.toolName === "") return "the call names no tool";
  if (typeof event.toolCallId !== "string" || event.toolCallId === "") return "the call has no id";
  const input = event.input;
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return `the input of ${event.toolName} is not an object`;
  }
  if (PI_SHELL_TOOLS.has(event.toolName) && typeof (input as { command?: unknown }).command !== "string") {
    return `the ${event.toolName} call has no command string`;
  }
  if (Object.hasOwn(PI_PATH_TOOLS, event.toolName)) {
    const rewritten = withPiPath({ tool: event.toolName, input: input as Record<string, unknown> }, where);
    if (typeof rewritten === "string") return rewritten;
    return { toolUseId: event.toolCallId, tool: event.toolName, input: rewritten };
  }
  return { toolUseId: event.toolCallId, tool: event.toolName, input };
}
