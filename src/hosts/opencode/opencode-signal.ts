/**
 * Translates what opencode hands a plugin's `event` hook into the few facts toolgate needs. opencode 1.18.33 emits
 * the v2 shapes (`permission.asked` / `permission.replied` with `requestID` + `reply`); the plugin's published types
 * still name the v1 shapes (`permission.updated` / `permission.replied` with `permissionID` + `response`). Both are
 * accepted. Shapes were recorded from the real binary (test/fixtures/opencode/).
 */

export type OpencodeSignal =
  /** a tool part reached `error`: a deny rule, a rejected ask, or an ordinary tool error */
  | {
      kind: "tool-error";
      sessionId: string;
      callId: string;
      tool: string;
      input: unknown;
      error: string;
    }
  /** an ask is waiting for an answer */
  | {
      kind: "permission-asked";
      sessionId: string;
      requestId: string;
      permission: string;
      patterns: string[];
      always: string[];
      callId?: string;
      metadata: Record<string, unknown>;
    }
  /** an ask was answered: `once`, `always` or `reject` */
  | { kind: "permission-replied"; sessionId: string; requestId: string; reply: string }
  /** a child session (a subagent run by the `task` tool) or a new top-level session */
  | { kind: "session-created"; sessionId: string; parentSessionId?: string }
  | { kind: "session-idle"; sessionId: string }
  | { kind: "session-error"; sessionId?: string; error: string };

type Loose = Record<string, unknown>;

function record(value: unknown): Loose | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Loose) : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/** One bus event (`{ type, properties }`) to a signal, or undefined for everything toolgate ignores. */
export function opencodeSignal(event: unknown): OpencodeSignal | undefined {
  const shape = record(event);
  const type = text(shape?.type);
  const properties = record(shape?.properties);
  if (type === undefined || properties === undefined) return undefined;
  switch (type) {
    case "message.part.updated":
      return toolError(record(properties.part));
    case "permission.asked":
    case "permission.updated":
      return permissionAsked(properties);
    case "permission.replied":
      return permissionReplied(properties);
    case "session.created": {
      const info = record(properties.info);
      const sessionId = text(info?.id) ?? text(properties.sessionID);
      if (sessionId === undefined) return undefined;
      const parentSessionId = text(info?.parentID);
      return { kind: "session-created", sessionId, ...(parentSessionId === undefined ? {} : { parentSessionId }) };
    }
    case "session.idle": {
      const sessionId = text(properties.sessionID);
      return sessionId === undefined ? undefined : { kind: "session-idle", sessionId };
    }
    case "session.error": {
      const sessionId = text(properties.sessionID);
      const error = record(properties.error);
      const message = text(record(error?.data)?.message) ?? text(error?.name) ?? "session error";
      return { kind: "session-error", error: message, ...(sessionId === undefined ? {} : { sessionId }) };
    }
    default:
      // session.status (busy/idle/retry churn), message.updated, deltas, catalog... are never a turn or a denial
      return undefined;
  }
}

function toolError(part: Loose | undefined): OpencodeSignal | undefined {
  if (part === undefined || part.type !== "tool") return undefined;
  const state = record(part.state);
  if (state?.status !== "error") return undefined;
  const sessionId = text(part.sessionID);
  const callId = text(part.callID);
  const tool = text(part.tool);
  if (sessionId === undefined || callId === undefined || tool === undefined) return undefined;
  return { kind: "tool-error", sessionId, callId, tool, input: state.input ?? {}, error: text(state.error) ?? "" };
}

function permissionAsked(properties: Loose): OpencodeSignal | undefined {
  const sessionId = text(properties.sessionID);
  const requestId = text(properties.id);
  if (sessionId === undefined || requestId === undefined) return undefined;
  // v2: permission + patterns + tool.callID; v1: type + pattern + callID
  const callId = text(record(properties.tool)?.callID) ?? text(properties.callID);
  return {
    kind: "permission-asked",
    sessionId,
    requestId,
    permission: text(properties.permission) ?? text(properties.type) ?? "unknown",
    patterns: strings(properties.patterns ?? properties.pattern),
    always: strings(properties.always),
    metadata: record(properties.metadata) ?? {},
    ...(callId === undefined ? {} : { callId }),
  };
}

function permissionReplied(properties: Loose): OpencodeSignal | undefined {
  const sessionId = text(properties.sessionID);
  const requestId = text(properties.requestID) ?? text(properties.permissionID);
  const reply = text(properties.reply) ?? text(properties.response);
  if (sessionId === undefined || requestId === undefined || reply === undefined) return undefined;
  return { kind: "permission-replied", sessionId, requestId, reply };
}

/** Whether a `chat.message` is a real user message: toolgate's own notes (synthetic parts) are not. */
export function isRealUserMessage(output: { message?: unknown; parts?: unknown }): boolean {
  const message = record(output.message);
  if (message !== undefined && message.role !== undefined && message.role !== "user") return false;
  const parts = Array.isArray(output.parts) ? output.parts.map(record) : [];
  const textParts = parts.filter((part) => part?.type === "text");
  if (textParts.length === 0) return parts.length > 0;
  return textParts.some((part) => part?.synthetic !== true && record(part?.metadata)?.toolgate === undefined);
}
