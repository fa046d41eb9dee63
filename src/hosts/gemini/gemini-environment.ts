import { readFileSync, readlinkSync } from "node:fs";
import { hookParentPid } from "../common/hook-host.js";

/**
 * Whether a person can answer Gemini CLI's prompts in the session a hook serves. Gemini 0.61.0 tells its hooks
 * nothing about it (no env variable, no payload field), so, in this order: `TOOLGATE_INTERACTIVE=1|0`; a run under
 * `toolgate run` or with `CI` set is headless; then the command line of the Gemini process that spawned the hook
 * (Linux `/proc`): `-p`/`--prompt` is headless, `-i`/`--prompt-interactive` is interactive, otherwise Gemini is
 * interactive when its stdin is a terminal. Where none of that can be read it assumes interactive: an `ask` is
 * then left to Gemini (which still declines it headless; toolgate just does not count that decline).
 */
export function isGeminiInteractive(
  env: Readonly<Record<string, string | undefined>>,
  parent: () => GeminiParent | undefined = () => readParent(hookParentPid(env)),
): boolean {
  const override = env["TOOLGATE_INTERACTIVE"];
  if (override === "1" || override === "true") return true;
  if (override === "0" || override === "false") return false;
  if (env["TOOLGATE_RUN"] === "1") return false;
  const ci = env["CI"];
  if (ci !== undefined && ci !== "" && ci !== "0" && ci !== "false") return false;
  const process = parent();
  return process === undefined ? true : interactiveFromParent(process);
}

/** What the hook reads about the Gemini process that spawned it. */
export interface GeminiParent {
  argv: readonly string[];
  /** whether its stdin is a terminal; undefined when unknown */
  stdinIsTerminal: boolean | undefined;
}

/** Gemini's own rule (0.61.0): a prompt flag is headless, `-i` is interactive, else a terminal on stdin is. */
export function interactiveFromParent(parent: GeminiParent): boolean {
  for (const argument of parent.argv) {
    if (argument === "-i" || argument === "--prompt-interactive" || argument.startsWith("--prompt-interactive=")) {
      return true;
    }
    if (argument === "-p" || argument === "--prompt" || argument.startsWith("--prompt=")) return false;
  }
  return parent.stdinIsTerminal ?? true;
}

/**
 * The nearest ancestor process that is Gemini CLI (its command line names `gemini`), at most four levels up: the
 * shell Gemini runs hook commands with usually execs the command, so it is normally the direct parent.
 */
function readParent(start: number): GeminiParent | undefined {
  try {
    let pid = start;
    for (let level = 0; level < 4 && pid > 1; level += 1) {
      const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
      if (argv.some((argument) => /(^|[\\/])gemini(\.js)?$|gemini-cli/.test(argument))) {
        return { argv, stdinIsTerminal: terminalOnStdin(pid) };
      }
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      pid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    }
    return undefined;
  } catch {
    return undefined;
  }
}

function terminalOnStdin(pid: number): boolean | undefined {
  try {
    return /^\/dev\/(pts\/|tty)/.test(readlinkSync(`/proc/${pid}/fd/0`));
  } catch {
    return undefined;
  }
}
