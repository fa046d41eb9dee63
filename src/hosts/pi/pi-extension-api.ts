/**
 * The part of pi's extension API (`@earendil-works/pi-coding-agent` 1.6.0, `docs/extensions.md`) toolgate uses,
 * written out structurally so toolgate needs no pi package at build or run time. pi loads an extension's default
 * export and calls it with this API; handlers get the event and a context.
 */
export interface PiToolCallEvent {
  type: "tool_call";
  toolName: unknown;
  toolCallId: unknown;
  input: unknown;
  parentToolCallId?: string;
}

export interface PiContentBlock {
  type: string;
  text?: string;
}

export interface PiToolResultEvent {
  type: "tool_result";
  toolName: unknown;
  toolCallId: unknown;
  input: unknown;
  content: unknown;
  isError: unknown;
}

/** What a `tool_call` handler returns: `block` refuses the call, the model reads `reason` as the call's error. */
export interface PiToolCallResult {
  block: true;
  reason: string;
  /** ends the agent run after this batch, when every call of the batch is terminating (pi 1.6) */
  terminate?: boolean;
}

/** A partial patch of a tool's result (omitted fields keep their values). */
export interface PiToolResultPatch {
  content?: PiContentBlock[];
}

export interface PiContext {
  /** false in print (`-p`) and JSON mode: nobody can answer a prompt */
  hasUI: boolean;
  mode?: string;
  cwd?: string;
  /** stops the current agent run (pi itself still exits 0) */
  abort?(): void;
  sessionManager?: { getSessionId?(): string };
  /** dialogs; they answer only where `hasUI` is true */
  ui?: { confirm?(title: string, message: string): Promise<boolean> };
}

export interface PiExtensionApi {
  on(
    event: "tool_call",
    handler: (event: PiToolCallEvent, context: PiContext) => Promise<PiToolCallResult | undefined>,
  ): void;
  on(
    event: "tool_result",
    handler: (event: PiToolResultEvent, context: PiContext) => Promise<PiToolResultPatch | undefined>,
  ): void;
  on(
    event: "session_start" | "before_agent_start" | "agent_settled" | "session_shutdown",
    handler: (event: Record<string, unknown>, context: PiContext) => Promise<void>,
  ): void;
}

/** An extension's default export: pi calls it once per session runtime. */
export type PiExtension = (pi: PiExtensionApi) => void;
