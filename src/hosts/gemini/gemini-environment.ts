import { hookParentPid } from "../common/hook-host.js";
import { findHostProcess, type HostProcess, interactiveSession, isFlag } from "../common/host-environment.js";

/**
 * Whether a person can answer Gemini CLI's prompts in the session a hook serves. Gemini 0.61.0 tells its hooks
 * nothing about it (no env variable, no payload field), so, in this order: toolgate's own signals
 * (`TOOLGATE_INTERACTIVE=1|0`; a run under `toolgate run` or with `CI` set is headless); then the Gemini process that
 * spawned the hook, read with Gemini's own rule (`interactiveFromParent`). Where that process cannot be found it
 * assumes interactive: an `ask` is then left to Gemini (which still declines it headless; toolgate just does not
 * count that decline).
 */
export function isGeminiInteractive(
  env: Readonly<Record<string, string | undefined>>,
  parent: () => GeminiParent | undefined = () => findHostProcess(hookParentPid(env), { program: GEMINI_PROGRAM }),
): boolean {
  return interactiveSession(env, { read: parent, rule: interactiveFromParent });
}

/** What the hook reads about the Gemini process that spawned it (terminals undefined when unknown). */
export type GeminiParent = Pick<HostProcess, "args" | "stdinIsTerminal"> &
  Partial<Pick<HostProcess, "stdoutIsTerminal">>;

/** Gemini CLI's program: the `gemini` bin, `gemini.js`, or a script of the `@google/gemini-cli` package */
const GEMINI_PROGRAM = /(^|[\\/])gemini(\.js)?$|[\\/]@google[\\/]gemini-cli[\\/]/;

/**
 * Gemini's own rule (0.61.0, `parseArguments` and `isHeadlessMode`): `-i`/`--prompt-interactive` and ACP mode
 * (`--acp`, `--experimental-acp`: the editor asks the person) are interactive; `-p`/`--prompt` is headless; otherwise
 * it is interactive only when both its stdin and its stdout are terminals (`gemini "a prompt"` too: 0.61.0 runs a
 * positional prompt interactively on a terminal and headless without one). A terminal that cannot be read counts as
 * one.
 */
export function interactiveFromParent(parent: GeminiParent): boolean {
  let prompt = false;
  for (const argument of parent.args) {
    if (isFlag(argument, ["-i", "--prompt-interactive"]) || isFlag(argument, ["--acp", "--experimental-acp"])) {
      return true;
    }
    if (isFlag(argument, ["-p", "--prompt"])) prompt = true;
  }
  if (prompt) return false;
  return (parent.stdinIsTerminal ?? true) && (parent.stdoutIsTerminal ?? true);
}
