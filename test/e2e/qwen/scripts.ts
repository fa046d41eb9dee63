import { type Script, type ScriptedReply, toolResults } from "../opencode/fake-openai.js";

/**
 * A model that runs `commands` one per step with Qwen's shell tool (whatever it is told), then gives up. With
 * `classifierBlocks`, it also answers Qwen's auto-mode classifier requests (`respond_in_schema`) with a block.
 */
export function shellScript(
  commands: readonly string[],
  final = "FINAL: I could not do it.",
  options: { classifierBlocks?: boolean } = {},
): Script {
  return (request): ScriptedReply => {
    const tools = (request.tools ?? []) as { function?: { name?: string; parameters?: { properties?: object } } }[];
    if (options.classifierBlocks === true && tools.length === 1 && tools[0]?.function?.name === "respond_in_schema") {
      const properties = (tools[0].function.parameters?.properties ?? {}) as Record<string, { type?: string }>;
      const args = Object.fromEntries(
        Object.entries(properties).map(([key, value]) => [
          key,
          value.type === "boolean" ? /block/i.test(key) : "scripted classifier verdict",
        ]),
      );
      return { kind: "tools", calls: [{ tool: "respond_in_schema", args }] };
    }
    const offered = (request.tools ?? []).some((tool) => tool.function?.name === "run_shell_command");
    const step = toolResults(request);
    const command = commands[step];
    if (!offered || command === undefined) return { kind: "text", text: final };
    return { kind: "tools", calls: [{ tool: "run_shell_command", args: { command } }] };
  };
}

export { STUBBORN_RM } from "../stubborn-rm.js";
