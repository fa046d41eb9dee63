import { type Script, type ScriptedReply, toolResults } from "../opencode/fake-openai.js";

/** A model that runs `commands` one per step with Qwen's shell tool (whatever it is told), then gives up. */
export function shellScript(commands: readonly string[], final = "FINAL: I could not do it."): Script {
  return (request): ScriptedReply => {
    const offered = (request.tools ?? []).some((tool) => tool.function?.name === "run_shell_command");
    const step = toolResults(request);
    const command = commands[step];
    if (!offered || command === undefined) return { kind: "text", text: final };
    return { kind: "tools", calls: [{ tool: "run_shell_command", args: { command } }] };
  };
}

/** Six spellings of the same deletion: Qwen's own loop detector (identical calls) does not end the run early. */
export const STUBBORN_RM = [
  "rm -rf victim",
  "rm -rf ./victim",
  "rm -r victim",
  "rm -rf victim/",
  "rm -fr victim",
  "rm -r -f victim",
];
