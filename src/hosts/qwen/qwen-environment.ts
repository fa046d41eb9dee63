import { hookParentPid } from "../common/hook-host.js";
import { findHostProcess, type HostProcess, interactiveSession, isFlag } from "../common/host-environment.js";

/**
 * Whether a person can answer in this Qwen Code session. Qwen 0.24.4 gives hooks no marker of `-p` runs (its env
 * has `QWEN_CODE_SESSION_ID`, `QWEN_PROJECT_DIR`, no entrypoint), so, in this order: toolgate's own signals
 * (`TOOLGATE_INTERACTIVE=1|0`; a run under `toolgate run` or with `CI` set is headless); then the Qwen process that
 * spawned the hook, read with Qwen's own rule (`interactiveFromQwen`). Where that process cannot be found it assumes
 * interactive.
 */
export function isInteractiveQwenSession(
  environment: Readonly<Record<string, string | undefined>>,
  parent: () => QwenParent | undefined = () => findHostProcess(hookParentPid(environment), { program: QWEN_PROGRAM }),
): boolean {
  return interactiveSession(environment, { read: parent, rule: interactiveFromQwen });
}

/** What the hook reads about the Qwen process that spawned it (its stdin undefined when unknown). */
export type QwenParent = Pick<HostProcess, "args" | "stdinIsTerminal">;

/**
 * Qwen Code's program: the `qwen` bin, or the package's `cli.js` / `cli-entry.js` (the bin relaunches itself as
 * `node --expose-gc .../@qwen-code/qwen-code/cli.js <arguments>`, and that child runs the hooks).
 */
const QWEN_PROGRAM = /(^|[\\/])qwen$|[\\/]qwen-code[\\/](cli|cli-entry)\.js$/;

/** the subcommands of Qwen 0.24.4 (`qwen mcp ...`): no prompt of the person's to read a mode from */
const SUBCOMMANDS = new Set([
  "mcp",
  "extensions",
  "auth",
  "hooks",
  "channel",
  "board",
  "review",
  "serve",
  "sessions",
  "update",
  "sandbox",
]);

/** Qwen 0.24.4's options that take one value (`type: "string"` or `"number"`), long and short */
const VALUE_OPTIONS = new Set([
  "model",
  "m",
  "prompt",
  "p",
  "prompt-interactive",
  "i",
  "system-prompt",
  "append-system-prompt",
  "output-style",
  "sandbox-image",
  "approval-mode",
  "channel",
  "mcp-config",
  "openai-logging-dir",
  "openai-api-key",
  "openai-base-url",
  "input-format",
  "output-format",
  "o",
  "json-fd",
  "json-file",
  "json-schema",
  "input-file",
  "resume",
  "r",
  "session-id",
  "worktree",
  "max-session-turns",
  "max-wall-time",
  "max-tool-calls",
  "max-subagent-depth",
  "auth-type",
  "telemetry-target",
  "telemetry-otlp-endpoint",
  "telemetry-otlp-protocol",
  "telemetry-outfile",
  "proxy",
  "sandbox-session-id",
]);

/** Qwen 0.24.4's switches (`type: "boolean"`), long and short; `--no-<switch>` too */
const SWITCHES = new Set([
  "sandbox",
  "s",
  "yolo",
  "y",
  "acp",
  "experimental-acp",
  "experimental-skills",
  "experimental-lsp",
  "restore-ask-user-question",
  "list-extensions",
  "l",
  "openai-logging",
  "screen-reader",
  "include-partial-messages",
  "continue",
  "c",
  "fork-session",
  "telemetry",
  "telemetry-log-prompts",
  "debug",
  "d",
  "bare",
  "safe-mode",
  "insecure",
  "chat-recording",
  "help",
  "h",
  "version",
  "v",
]);

/**
 * Whether Qwen 0.24.4 reads a positional prompt in `args` (`qwen --yolo "fix it"`), with its own option table: an
 * option's value is skipped, and the first other argument is the prompt. Undefined where that cannot be told: after an
 * option the table does not know (a newer Qwen's), or one that takes a list (`--allowed-tools a b`: yargs reads every
 * following argument into it).
 */
function positionalPrompt(args: readonly string[]): boolean | undefined {
  for (let index = 0; index < args.length; index += 1) {
    const argument = args[index] as string;
    if (argument === "--") return index + 1 < args.length;
    if (!argument.startsWith("-") || argument === "-") return true;
    if (argument.includes("=")) continue;
    const long = argument.startsWith("--");
    const name = long ? argument.slice(2).replace(/^no-/, "") : argument.slice(1);
    if (long || name.length === 1) {
      if (VALUE_OPTIONS.has(name)) index += 1;
      else if (!SWITCHES.has(name)) return undefined;
    } else if (![...name].every((letter) => SWITCHES.has(letter))) {
      // `-yd`: switches together; anything else is not read
      return undefined;
    }
  }
  return false;
}

/**
 * Qwen's own rule (0.24.4, `loadCliConfig` and the tool scheduler's non-interactive deny): `-i`/`--prompt-interactive`
 * is interactive; so are ACP mode (`--acp`, `--experimental-acp`: the editor asks the person) and
 * `--input-format stream-json` (an SDK's client is asked), where Qwen does not decline a confirmation itself; a prompt
 * (`-p`/`--prompt`, or a positional one: `qwen --yolo "fix it"`, read with Qwen's option table) is headless; with
 * neither, it is interactive when its stdin is a terminal. A subcommand, or a stdin that cannot be read, counts as
 * interactive.
 */
export function interactiveFromQwen(parent: QwenParent): boolean {
  const args = parent.args;
  let prompt = false;
  for (const [index, argument] of args.entries()) {
    if (isFlag(argument, ["-i", "--prompt-interactive"]) || argument === "--acp" || argument === "--experimental-acp") {
      return true;
    }
    if (
      argument === "--input-format=stream-json" ||
      (argument === "--input-format" && args[index + 1] === "stream-json")
    ) {
      return true;
    }
    if (isFlag(argument, ["-p", "--prompt"])) prompt = true;
  }
  const first = args[0];
  if (first !== undefined && SUBCOMMANDS.has(first)) return true;
  if (prompt || positionalPrompt(args) === true) return false;
  return parent.stdinIsTerminal ?? true;
}
