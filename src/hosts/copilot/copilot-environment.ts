import { hookParentPid } from "../common/hook-host.js";
import { findHostProcess, type HostProcess, interactiveSession, isFlag } from "../common/host-environment.js";

/**
 * Whether a person can answer in this Copilot CLI session. Copilot 1.0.102 gives hooks no marker of `-p` runs
 * (their environment has `COPILOT_CLI=1`, `COPILOT_PROJECT_DIR`, no mode), so, in this order: toolgate's own signals
 * (`TOOLGATE_INTERACTIVE=1|0`; a run under `toolgate run` or with `CI` set is headless); then the Copilot process
 * that spawned the hook, read with `interactiveFromCopilot`. Where that process cannot be found it assumes
 * interactive.
 */
export function isInteractiveCopilotSession(
  env: Readonly<Record<string, string | undefined>>,
  parent: () => CopilotParent | undefined = () => findHostProcess(hookParentPid(env), { program: COPILOT_PROGRAM }),
): boolean {
  return interactiveSession(env, { read: parent, rule: interactiveFromCopilot });
}

/** What the hook reads about the Copilot process that spawned it (its stdin undefined when unknown). */
export type CopilotParent = Pick<HostProcess, "args" | "stdinIsTerminal">;

/**
 * Copilot CLI's program: its native binary (`copilot`, which runs the hooks), or the npm package's loader that
 * starts it with the same arguments.
 */
const COPILOT_PROGRAM = /(^|[\\/])copilot(\.exe)?$|[\\/]@github[\\/]copilot[\\/]npm-loader\.js$/;

/**
 * Copilot's modes as `copilot --help` (1.0.102) gives them and its binary runs them: `-i`/`--interactive` and ACP
 * mode (`--acp`: the editor asks the person) are interactive; `-p`/`--prompt` runs non-interactively, and so does a
 * prompt piped to its stdin (`echo task | copilot`: observed, it runs the prompt and exits). Otherwise interactive
 * when its stdin is a terminal; a stdin that cannot be read counts as one.
 */
export function interactiveFromCopilot(parent: CopilotParent): boolean {
  let prompt = false;
  for (const argument of parent.args) {
    if (isFlag(argument, ["-i", "--interactive"]) || argument === "--acp") return true;
    if (isFlag(argument, ["-p", "--prompt"])) prompt = true;
  }
  if (prompt) return false;
  return parent.stdinIsTerminal ?? true;
}
