import type { ToolExecutionOptions } from "ai";
import type { ToolCall } from "../../core/events.js";
import { errorText } from "../../guard/error-text.js";
import { failClosedText } from "../../guard/fail-closed.js";
import { joinText, type ToolGate } from "./tool-gate.js";
import { ToolgateDeniedError } from "./toolgate-abort-error.js";

type Execute = (input: unknown, options: ToolExecutionOptions) => unknown;

/** Text to classify for an OS or permission denial in a tool's output: a string, or an object's stdout/stderr. */
export function outputText(output: unknown): string | undefined {
  if (typeof output === "string") return output;
  if (typeof output !== "object" || output === null) return undefined;
  const { stdout, stderr, output: text } = output as Record<string, unknown>;
  const parts = [stdout, stderr, text].filter((part): part is string => typeof part === "string" && part !== "");
  return parts.length === 0 ? undefined : parts.join("\n");
}

/**
 * The guarded `execute`: refuses what toolgate settled as denied (the model reads the refusal with guidance), runs
 * the rest, and reports the outcome: a thrown error is classified (an OS or permission denial counts and its
 * message gains toolgate's guidance), a result's text is classified the same way.
 */
export function guardedExecute(options: {
  gate: ToolGate;
  toolName: string;
  execute: Execute;
  /** the tool's own needsApproval, for a call whose approval was not decided in this process */
  needsApproval: (
    input: unknown,
    options: { toolCallId: string; messages: unknown[] },
  ) => boolean | PromiseLike<boolean>;
}): Execute {
  const { gate, toolName } = options;
  // a streaming tool (an async generator) must stay one: the SDK checks the return value before awaiting it
  const streaming = Object.prototype.toString.call(options.execute) === "[object AsyncGeneratorFunction]";
  const execute: Execute = options.execute;

  async function settle(input: unknown, execution: ToolExecutionOptions): Promise<{ call: ToolCall; note?: string }> {
    const context = { toolName, input, toolCallId: execution.toolCallId, messages: execution.messages ?? [] };
    let entry = gate.ledger.get(execution.toolCallId);
    if (entry === undefined) {
      // needsApproval did not run in this process (the call came back approved in a later request): decide now
      await gate.needsApproval(context, () =>
        options.needsApproval(input, { toolCallId: execution.toolCallId, messages: execution.messages ?? [] }),
      );
      entry = gate.ledger.get(execution.toolCallId);
    }
    if (entry === undefined || entry.outcome === "denied") {
      throw new ToolgateDeniedError({ tool: toolName, message: entry?.text ?? `${toolName} was denied.` });
    }
    const abort = gate.abortError();
    if (abort !== undefined) throw new ToolgateDeniedError({ tool: toolName, message: abort.textForModel });
    if (entry.outcome === "asked" && entry.reported !== true) {
      // the SDK executes an asked call only after the app approved it
      entry.reported = true;
      gate.take(await gate.session.allowed(entry.call));
    }
    return entry.outcome === "allowed" && entry.text !== undefined
      ? { call: entry.call, note: entry.text }
      : { call: entry.call };
  }

  async function failed(call: ToolCall, error: unknown): Promise<never> {
    const message = error instanceof Error ? error.message : String(error);
    const effects = await gate.session.failed(call, { error: message });
    const text = gate.take(effects);
    if (text === "") throw error;
    // toolgate rewrites this error for the model: the tool's own words, redacted, then the guidance
    throw new ToolgateDeniedError({ tool: toolName, message: joinText(errorText(error), text), cause: error });
  }

  async function succeeded(call: ToolCall, output: unknown, note?: string): Promise<unknown> {
    const text = outputText(output);
    const effects = await gate.session.succeeded(call, text === undefined ? {} : { output: text });
    const guidance = joinText(note, gate.take(effects));
    return typeof output === "string" && guidance !== "" ? joinText(output, guidance) : output;
  }

  async function* stream(call: ToolCall, outputs: AsyncIterable<unknown>): AsyncGenerator<unknown> {
    let last: unknown;
    try {
      for await (const output of outputs) {
        last = output;
        yield output;
      }
    } catch (error) {
      await failed(call, error);
    }
    await succeeded(call, last);
  }

  async function settled(input: unknown, execution: ToolExecutionOptions): Promise<{ call: ToolCall; note?: string }> {
    try {
      return await settle(input, execution);
    } catch (error) {
      if (error instanceof ToolgateDeniedError) throw error;
      gate.onError(error, "execute");
      throw new ToolgateDeniedError({ tool: toolName, message: failClosedText(error, "execute"), cause: error });
    }
  }

  if (streaming) {
    return async function* (input: unknown, execution: ToolExecutionOptions) {
      const { call } = await settled(input, execution);
      yield* stream(call, execute(input, execution) as AsyncIterable<unknown>);
    };
  }
  return async (input, execution) => {
    const { call, note } = await settled(input, execution);
    let output: unknown;
    try {
      output = await execute(input, execution);
    } catch (error) {
      return failed(call, error);
    }
    return succeeded(call, output, note);
  };
}
