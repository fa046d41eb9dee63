import type { ToolCall } from "../../core/events.js";

/** What the agent told the editor of one tool call in its `session/update` `tool_call` notifications. */
export interface AcpToolCallSeen {
  /** the agent's own tool name (`_meta.claudeCode.toolName`), else the ACP tool kind (`execute`, `edit`, ...) */
  tool: string;
  /** the call's `rawInput`, when it was an object */
  input?: Record<string, unknown>;
}

/** The ACP tool kind the proxy names a call by when the agent gives no tool name of its own. */
const DEFAULT_KIND = "other";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The tool name of an ACP tool call: the agent's own name when it sends one in `_meta` (an adapter of Claude Code's
 * `_meta.claudeCode.toolName: "Bash"`, or any agent's `_meta.<agent>.toolName`), else its ACP `kind`. Undefined when
 * neither is a non-empty string.
 */
export function acpToolName(fields: { kind?: unknown; meta?: unknown }): string | undefined {
  if (isRecord(fields.meta)) {
    for (const value of Object.values(fields.meta)) {
      if (isRecord(value) && typeof value["toolName"] === "string" && value["toolName"].trim() !== "") {
        return value["toolName"];
      }
    }
  }
  return typeof fields.kind === "string" && fields.kind !== "" ? fields.kind : undefined;
}

/**
 * Folds one `session/update` into what is known of its tool call (`tool_call` and `tool_call_update` both carry
 * parts: the first announcement often has an empty `rawInput`, a later one the real input). Returns undefined for
 * any other update.
 */
export function seenToolCall(
  update: Record<string, unknown>,
  known: AcpToolCallSeen | undefined,
): { toolCallId: string; seen: AcpToolCallSeen } | undefined {
  const kind = update["sessionUpdate"];
  if (kind !== "tool_call" && kind !== "tool_call_update") return undefined;
  const toolCallId = update["toolCallId"];
  if (typeof toolCallId !== "string") return undefined;
  const tool = acpToolName({ kind: update["kind"], meta: update["_meta"] }) ?? known?.tool ?? DEFAULT_KIND;
  const raw = update["rawInput"];
  const input = isRecord(raw) && Object.keys(raw).length > 0 ? raw : known?.input;
  return { toolCallId, seen: input === undefined ? { tool } : { tool, input } };
}

/**
 * The call a `session/request_permission` asks about, as toolgate decides it: the request's `toolCall` with what the
 * agent announced of it before. `unreadable` says why toolgate cannot check it (its input is not an object): such a
 * call is refused, never passed to the person as if it were checked.
 */
export function permissionToolCall(
  toolCall: { toolCallId: string; kind?: unknown; rawInput?: unknown; _meta?: unknown },
  seen: AcpToolCallSeen | undefined,
): { call: ToolCall; unreadable?: string } {
  const tool = acpToolName({ kind: toolCall.kind, meta: toolCall._meta }) ?? seen?.tool ?? DEFAULT_KIND;
  const raw = toolCall.rawInput;
  if (raw !== undefined && !isRecord(raw)) {
    const what = raw === null ? "null" : Array.isArray(raw) ? "an array" : `a ${typeof raw}`;
    return {
      call: { toolUseId: toolCall.toolCallId, tool, input: {} },
      unreadable: `its rawInput is ${what}, not an object`,
    };
  }
  const input = isRecord(raw) && Object.keys(raw).length > 0 ? raw : (seen?.input ?? {});
  return { call: { toolUseId: toolCall.toolCallId, tool, input: withShellScript(input) } };
}

/** A shell that runs the script after `-c`, by its file name in any folder: `bash`, `/opt/homebrew/bin/zsh`, `fish`, ... */
const SHELL = /(?:^|\/)(?:ba|z|da|k|mk|fi)?sh$/;
/** `env` in any folder, which runs the program after its own options and `NAME=value` assignments */
const ENV = /(?:^|\/)env$/;
/** an option word holding `c` among single-letter options: `-c`, `-lc`, `-ec`, `-ilc` */
const SCRIPT_FLAG = /^-[A-Za-z]*c[A-Za-z]*$/;

/**
 * An execute call whose `command` is a shell running one script (`["/bin/bash", "-lc", "rm -rf x"]`, as some
 * adapters send it, the user's own login shell from wherever it is installed, or through `env`) is the script itself
 * as rules read it (`Bash(rm *)`); words after the script are its `$0`, `$1`, ... Any other input is the agent's own.
 */
function withShellScript(input: Record<string, unknown>): Record<string, unknown> {
  const script = shellScript(input["command"]);
  return script === undefined ? input : { ...input, command: script };
}

function shellScript(command: unknown): string | undefined {
  if (!Array.isArray(command) || command.length > 64 || !command.every((word) => typeof word === "string")) {
    return undefined;
  }
  const words = command as string[];
  let index = 0;
  if (ENV.test(words[0] ?? "")) {
    index = 1;
    // env's own options and the variables it sets; `-u NAME` takes a value
    while (index < words.length) {
      const word = words[index] as string;
      if (word === "-u" || word === "--unset") index += 2;
      else if (word === "-" || word.startsWith("-") || /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) index += 1;
      else break;
    }
  }
  if (!SHELL.test(words[index] ?? "")) return undefined;
  for (index += 1; index < words.length; index += 1) {
    const word = words[index] as string;
    if (SCRIPT_FLAG.test(word)) return words[index + 1];
    // a shell's options before `-c`: `-o pipefail` and `+o name` take a value, `-l`, `-e`, `--login` do not
    if (word === "-o" || word === "+o") index += 1;
    else if (!word.startsWith("-") && !word.startsWith("+")) return undefined;
  }
  return undefined;
}
