import { compileCoreConfig } from "../../src/core/compile-config.js";
import type { CompiledConfig, CoreOptions, CorePorts } from "../../src/core/config.js";
import type { Effect } from "../../src/core/effects.js";
import type { DenialSource, ToolCall, ToolgateEvent } from "../../src/core/events.js";
import { initialState } from "../../src/core/initial-state.js";
import { callSignature } from "../../src/core/signature.js";
import type { SessionState } from "../../src/core/state.js";
import { step } from "../../src/core/step.js";

/**
 * Small, obviously-correct ports for testing the reducer on its own (the guard wires the real detect/policy ones).
 * Pattern: a shell command's first word; a file tool's path; otherwise the tool name. Redaction: `sk-...` tokens.
 */
export const testPorts: CorePorts = {
  describeCall(tool, input) {
    const record = (input ?? {}) as Record<string, unknown>;
    const command = typeof record["command"] === "string" ? record["command"] : undefined;
    const path = typeof record["file_path"] === "string" ? record["file_path"] : undefined;
    const pattern = command !== undefined ? (command.trim().split(/\s+/)[0] ?? "") : (path ?? tool);
    const summary = testPorts.redactText(command ?? path ?? JSON.stringify(input));
    const redactedInput = testPorts.redactValue(input);
    return { signature: callSignature(tool, redactedInput), pattern, summary, redactedInput };
  },
  redactValue(value) {
    return JSON.parse(testPorts.redactText(JSON.stringify(value ?? null)));
  },
  redactText(text) {
    return text.replace(/sk-[A-Za-z0-9]{8,}/g, "[REDACTED:openai]");
  },
  grantScope({ tool, inputs, pattern, wholeTool }) {
    if (wholeTool) return { tool, kind: "tool", rule: tool, description: `every ${tool} call` };
    const commands = inputs.map((input) => (input as { command?: string }).command);
    if (commands.length > 0 && commands.every((command) => command === commands[0])) {
      return { tool, kind: "exact", rule: `${tool}(${commands[0]})`, description: `"${commands[0]}"` };
    }
    return {
      tool,
      kind: "prefix",
      rule: `${tool}(${pattern} *)`,
      description: `${tool} commands starting with "${pattern}"`,
    };
  },
  suggestRule(tool, input) {
    const command = (input as { command?: string } | undefined)?.command;
    return command === undefined ? tool : `${tool}(${command})`;
  },
};

export function testConfig(
  options: CoreOptions = {},
  warnings: { code: string; message: string }[] = [],
): CompiledConfig {
  return compileCoreConfig({ options, ports: testPorts, warnings });
}

let clock = 1_700_000_000_000;
export function resetClock(at = 1_700_000_000_000): void {
  clock = at;
}
export function tick(ms = 1000): number {
  clock += ms;
  return clock;
}

let callCounter = 0;
export function bash(command: string, toolUseId = `toolu_${++callCounter}`): ToolCall {
  return { toolUseId, tool: "Bash", input: { command } };
}
export function toolCall(tool: string, input: unknown, toolUseId = `toolu_${++callCounter}`): ToolCall {
  return { toolUseId, tool, input };
}

export function denied(
  call: ToolCall,
  source: DenialSource = "rule",
  extra: Partial<ToolgateEvent> = {},
): ToolgateEvent {
  return {
    type: "call.denied",
    at: tick(),
    sessionId: "s1",
    call,
    source,
    reason: source === "rule" ? "denied by rule" : `denied (${source})`,
    ...(source === "rule" ? { rule: `${call.tool}(rm *)` } : {}),
    ...extra,
  } as ToolgateEvent;
}

export function event<T extends ToolgateEvent["type"]>(
  type: T,
  fields: Omit<Extract<ToolgateEvent, { type: T }>, "type" | "at" | "sessionId"> & { at?: number },
): ToolgateEvent {
  return { at: tick(), sessionId: "s1", ...fields, type } as unknown as ToolgateEvent;
}

/** Runs events through the reducer, returning the final state and every step's effects. */
export function run(
  events: ToolgateEvent[],
  options: { config?: CompiledConfig; state?: SessionState; interactive?: boolean } = {},
): { state: SessionState; steps: Effect[][]; effects: Effect[] } {
  const config = options.config ?? testConfig();
  let state = options.state ?? initialState({ sessionId: "s1", interactive: options.interactive ?? false });
  const steps: Effect[][] = [];
  for (const item of events) {
    const result = step(state, item, config);
    state = result.state;
    steps.push(result.effects);
  }
  return { state, steps, effects: steps.flat() };
}

export function ofType<T extends Effect["type"]>(effects: readonly Effect[], type: T): Extract<Effect, { type: T }>[] {
  return effects.filter((effect): effect is Extract<Effect, { type: T }> => effect.type === type);
}
