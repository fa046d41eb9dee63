/** Scripted model behaviours shared by the Claude end-to-end scenarios. */
import type { ScriptedTurn } from "./fake-anthropic.js";

export function bash(command: string, description = command): ScriptedTurn {
  return { toolUses: [{ name: "Bash", input: { command, description } }] };
}

/**
 * A stubborn model: asks for the same rule-denied `rm -rf` again and again, with a different target each time
 * (so it is one escalation pattern, not one identical call). `directory` keeps the targets inside a scratch dir.
 */
export function stubbornRemover(options: { attempts: number; directory: string }): ScriptedTurn[] {
  return Array.from({ length: options.attempts }, (_, index) => bash(`rm -rf ${options.directory}/build-${index}`));
}

/** The same exact call every time: what the loop detector looks for. */
export function identicalRetries(options: { attempts: number; command: string }): ScriptedTurn[] {
  return Array.from({ length: options.attempts }, () => bash(options.command));
}
