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

/**
 * Qwen's own rule (0.24.4, `loadCliConfig` and the tool scheduler's non-interactive deny): `-i`/`--prompt-interactive`
 * is interactive; so are ACP mode (`--acp`, `--experimental-acp`: the editor asks the person) and
 * `--input-format stream-json` (an SDK's client is asked), where Qwen does not decline a confirmation itself; a prompt
 * (`-p`/`--prompt`, or a positional one: `qwen "fix it"`) is headless; with neither, it is interactive when its stdin
 * is a terminal. A positional prompt is recognised as the first argument (after options, their values cannot be told
 * from it); a subcommand, or a stdin that cannot be read, counts as interactive.
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
  if (first !== undefined && !first.startsWith("-")) {
    if (SUBCOMMANDS.has(first)) return true;
    prompt = true;
  }
  if (prompt) return false;
  return parent.stdinIsTerminal ?? true;
}
