import type { ToolCall } from "../../core/events.js";
import { newCallId } from "./gemini-call-id.js";
import {
  defensiveToolPaths,
  GeminiPathError,
  type GeminiPathReading,
  isTildePath,
  resolveGeminiPath,
} from "./resolve-gemini-path.js";

/**
 * Gemini CLI 0.61.0's tools that act on a path: the one input field each reads it from (their schemas in
 * bundle/chunk-JDPZ4CE3.js, `DEFAULT_LEGACY_SET` and `GEMINI_3_SET`), how it reads it (resolve-gemini-path.ts), and
 * whether the schema requires it. `search_file_content` is Gemini's alias of `grep_search` (`TOOL_LEGACY_ALIASES`).
 */
const GEMINI_PATH_TOOLS: Readonly<
  Record<string, { field: "file_path" | "dir_path"; reading: GeminiPathReading; required: boolean }>
> = {
  read_file: { field: "file_path", reading: "defensive", required: true },
  write_file: { field: "file_path", reading: "defensive", required: true },
  replace: { field: "file_path", reading: "defensive", required: true },
  glob: { field: "dir_path", reading: "real", required: false },
  grep_search: { field: "dir_path", reading: "real", required: false },
  search_file_content: { field: "dir_path", reading: "real", required: false },
  list_directory: { field: "dir_path", reading: "literal", required: true },
};

/** Input fields toolgate's policy reads a file tool's path from (`pathOf`, `callTargets`); Gemini reads one of them. */
const POLICY_PATH_FIELDS = ["file_path", "filePath", "notebook_path", "path", "absolute_path", "dir_path", "paths"];

/**
 * A path tool's input as toolgate decides it, or why it cannot be read. Gemini acts on the path it resolves
 * (resolve-gemini-path.ts), not the text the model wrote: the tool's field becomes that path, and a path Gemini may
 * read either way (a leading `@`: the disk decides) names the other in `paths`, so the policy decides both and the
 * stricter wins. A `~` path, which Gemini reads inside its working directory, is decided as the home path too, as
 * toolgate read it before. Every other path field goes: Gemini never reads it, and the policy could read it first.
 * A call whose path toolgate's policy reads as Gemini does is left as it came.
 */
function withGeminiPath(
  call: { tool: string; input: Record<string, unknown> },
  cwd: string | undefined,
): Record<string, unknown> | string {
  const { tool, input } = call;
  const { field, reading, required } = GEMINI_PATH_TOOLS[tool] as (typeof GEMINI_PATH_TOOLS)[string];
  const path = input[field];
  if (typeof path !== "string" && (required || path !== undefined)) return `the ${tool} call has no ${field} string`;
  const others = POLICY_PATH_FIELDS.filter((name) => name !== field && Object.hasOwn(input, name));
  let resolved: { paths: string[]; asWritten: boolean } | undefined;
  if (typeof path === "string" && path !== "") {
    try {
      resolved = resolveGeminiPath(path, { cwd, reading });
    } catch (error) {
      if (error instanceof GeminiPathError) {
        return `the ${field} of the ${tool} call cannot be read as Gemini reads it: ${error.message}`;
      }
      throw error;
    }
  }
  if (others.length === 0 && (resolved === undefined || resolved.asWritten)) return input;
  const rewritten: Record<string, unknown> = { ...input };
  for (const name of others) delete rewritten[name];
  if (resolved === undefined || resolved.asWritten || typeof path !== "string") return rewritten;
  const [first, ...rest] = resolved.paths;
  rewritten[field] = first;
  // the policy reads a `~` path from the home directory: as written, it is decided as before
  const home = (reading === "defensive" ? defensiveToolPaths(path) : [path]).filter(isTildePath);
  const also = [...rest, ...home];
  if (also.length > 0) rewritten["paths"] = also;
  return rewritten;
}

/**
 * One Gemini tool event's call (`tool` already in toolgate's form) as toolgate decides it: a path tool's path as
 * Gemini resolves it, against the event's `cwd`. `unreadable` says why a path tool's input cannot be read (the call is
 * refused); `call` is then the call as Gemini sent it.
 */
export function geminiToolCall(options: { tool: string; input: unknown; cwd: string | undefined }): {
  call: ToolCall;
  unreadable?: string;
} {
  const { tool, cwd } = options;
  const input = options.input ?? {};
  const call: ToolCall = { toolUseId: newCallId(), tool, input };
  if (!Object.hasOwn(GEMINI_PATH_TOOLS, tool)) return { call };
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { call, unreadable: `the input of ${tool} is not an object` };
  }
  const rewritten = withGeminiPath({ tool, input: input as Record<string, unknown> }, cwd);
  if (typeof rewritten === "string") return { call, unreadable: rewritten };
  return { call: { ...call, input: rewritten } };
}
