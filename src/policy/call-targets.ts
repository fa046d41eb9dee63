import type { RuleFamily } from "./tool-families.js";

/** How many targets of one call are decided one by one; a call naming more is decided on these and refused past them */
const MAX_TARGETS = 64;

/**
 * The targets of a call that names more than one, or names its target where rules do not look, each as the input of
 * a call with that one target (`{ path }`, `{ url }`): the policy decides each, and the strictest decision is the
 * call's (policy/compile-policy.ts). Undefined for a call with one target in the usual place (`file_path`, `path`,
 * `url`), decided as it is.
 *
 * - read and edit tools with `paths` (a string or strings, as some hosts' `grep` and `glob` take), each path and the usual
 *   field's;
 * - a patch (`*** Begin Patch` ... `*** Add File:` / `*** Update File:` / `*** Delete File:` / `*** Move to:`, as
 *   hosts' `apply_patch` tools send it in `command`, `input`, `patch`,
 *   `patchText` or as the whole input), each file it names; a patch that names none is one call with no path (it
 *   needs approval); an `operation.path` (the AI SDK's OpenAI `apply_patch`);
 * - web tools without `url` whose `prompt` holds URLs (a `web_fetch` that takes its URLs in its prompt), each URL.
 */
export function callTargets(family: RuleFamily, input: unknown): readonly unknown[] | undefined {
  if (family === "read" || family === "edit") return pathTargets(family, input);
  if (family === "web") return urlTargets(input);
  return undefined;
}

function pathTargets(family: "read" | "edit", input: unknown): readonly unknown[] | undefined {
  const patch = family === "edit" ? patchText(input) : undefined;
  if (patch !== undefined) {
    const paths = patchPaths(patch);
    return paths.length === 0 ? [{}] : bounded(paths.map((path) => ({ file_path: path })));
  }
  if (typeof input !== "object" || input === null || Array.isArray(input)) return undefined;
  // the AI SDK's OpenAI `apply_patch` tool: `{ callId, operation: { type, path, diff } }`
  const operation = (input as { operation?: unknown }).operation;
  if (family === "edit" && typeof operation === "object" && operation !== null && !("file_path" in input)) {
    const path = (operation as { path?: unknown }).path;
    return [typeof path === "string" && path !== "" ? { file_path: path } : {}];
  }
  const listed = (input as { paths?: unknown }).paths;
  const paths = typeof listed === "string" ? [listed] : Array.isArray(listed) ? listed : undefined;
  if (paths === undefined) return undefined;
  const { paths: _paths, ...rest } = input as Record<string, unknown>;
  const targets: unknown[] = [];
  // the usual field's path too, when there is one: every place the call names is decided
  if (Object.keys(rest).some((key) => PATH_FIELDS.has(key))) targets.push(rest);
  for (const path of paths) {
    // an entry that is not a path cannot be checked: decided as the file system's root, which no working directory
    // holds (it needs approval, and a rule that denies reading anywhere denies it)
    targets.push({ ...withoutPaths(rest), path: typeof path === "string" && path !== "" ? path : "/" });
  }
  return bounded(targets.length === 0 ? [withoutPaths(rest)] : targets);
}

const PATH_FIELDS = new Set(["file_path", "filePath", "notebook_path", "path", "absolute_path", "dir_path"]);

function withoutPaths(input: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) if (!PATH_FIELDS.has(key)) result[key] = value;
  return result;
}

const PATCH_START = "*** Begin Patch";

/** A patch's text: the whole input, or its `command`, `input`, `patch` or `patchText` field, when it is one. */
function patchText(input: unknown): string | undefined {
  if (typeof input === "string") return input.includes(PATCH_START) ? input : undefined;
  if (typeof input !== "object" || input === null) return undefined;
  for (const field of ["command", "input", "patch", "patchText"] as const) {
    const value = (input as Record<string, unknown>)[field];
    if (typeof value === "string" && value.includes(PATCH_START)) return value;
  }
  return undefined;
}

/**
 * The files a patch names: each `*** Add File:`, `*** Update File:`, `*** Delete File:` and `*** Move to:` line's path
 * (a trailing `\r` dropped, trimmed), in order. Also the host adapters' reader of a patch (Cline's `apply_patch`).
 */
export function patchPaths(patch: string): string[] {
  const paths: string[] = [];
  for (const line of patch.split("\n")) {
    const header = /^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/.exec(line.replace(/\r$/, ""));
    if (header !== null) paths.push((header[1] as string).trim());
  }
  return paths;
}

/** Every http(s) URL in a web tool's `prompt`, when it has no `url` of its own. */
function urlTargets(input: unknown): readonly unknown[] | undefined {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return undefined;
  const fields = input as { url?: unknown; prompt?: unknown };
  if (fields.url !== undefined || typeof fields.prompt !== "string") return undefined;
  const urls = fields.prompt.match(/\bhttps?:\/\/[^\s<>"'`)\]}]+/gi);
  if (urls === null) return undefined;
  return bounded(urls.map((url) => ({ ...(input as Record<string, unknown>), url })));
}

/** At most `MAX_TARGETS`; past them a call with no subject stands for the rest (it needs approval). */
function bounded(targets: unknown[]): readonly unknown[] {
  return targets.length <= MAX_TARGETS ? targets : [...targets.slice(0, MAX_TARGETS), {}];
}

/**
 * The files a shell command's patch names, when its text holds one (`apply_patch <<'EOF'` ..., which a host may
 * apply itself instead of running it), each as an `Edit` call's input; undefined when it holds none.
 */
export function shellPatchTargets(input: unknown): readonly unknown[] | undefined {
  if (typeof input !== "object" || input === null) return undefined;
  const fields = input as { command?: unknown; cmd?: unknown };
  const command = typeof fields.command === "string" ? fields.command : fields.cmd;
  if (typeof command !== "string" || !command.includes(PATCH_START)) return undefined;
  const paths = patchPaths(command);
  return paths.length === 0 ? [{}] : bounded(paths.map((path) => ({ file_path: path })));
}
