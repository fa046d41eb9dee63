import type { ReaderFact, ReaderSource, TranscriptFormat } from "../common/reader-event.js";
import { classifyCopilotDenial } from "./copilot-denial-texts.js";

/**
 * `toolgate analyze` of GitHub Copilot CLI 1.0.102's session events: `~/.copilot/session-state/<id>/events.jsonl`
 * and the `copilot -p --output-format json` stream (the same events; the stream names its session only on its last
 * line, `result`). `user.message` starts a turn, `tool.execution_start` is a call, `tool.execution_complete` its
 * result; a refusal has `error.code` `denied` (Copilot's rules, a headless approval, a preToolUse hook) or
 * `rejected` (a permissionRequest hook).
 */
async function* readCopilotEvents(source: ReaderSource): AsyncIterable<ReaderFact> {
  let sessionId: string | undefined;
  let announced = false;
  let prompted = false;
  // a model request's tokens (`session.usage_record`, written just before the `assistant.message` it produced) go to
  // the first call that message requests, 0 to its others; a call of a request with no usage record gets none
  let usage: number | undefined;
  const tokensOf = new Map<string, number>();
  // until the session is announced every line is read (the announcement carries the first line's time)
  const keep = (bytes: Buffer) => {
    if (!announced) return true;
    const text = bytes.toString("latin1", 0, Math.min(bytes.length, 64));
    return /"type":"(session\.start|user\.message|session\.usage_record|assistant\.message|tool\.execution_start|tool\.execution_complete|result)"/.test(
      text,
    );
  };
  for await (const line of source.lines(undefined, keep)) {
    let value: { type?: unknown; data?: Record<string, unknown>; timestamp?: unknown; sessionId?: unknown };
    try {
      value = JSON.parse(line);
    } catch {
      source.skip();
      continue;
    }
    const data = value.data ?? {};
    const parsedAt = typeof value.timestamp === "string" ? Date.parse(value.timestamp) : Number.NaN;
    const at = Number.isNaN(parsedAt) ? source.fallbackAt : parsedAt;
    if (value.type === "session.start" && typeof data["sessionId"] === "string") sessionId = data["sessionId"];
    const session = sessionId ?? source.fallbackSessionId;
    if (!announced) {
      announced = true;
      // the project: `session.start`'s `context.cwd` (the `-p` stream has no `session.start`)
      const context = data["context"] as { cwd?: unknown } | undefined;
      const project = value.type === "session.start" && typeof context?.cwd === "string" ? context.cwd : undefined;
      yield project === undefined
        ? { type: "session", sessionId: session, at }
        : { type: "session", sessionId: session, at, project };
    }
    switch (value.type) {
      case "user.message":
        yield { type: "turn", sessionId: session, at };
        // the person's first prompt describes the session (`content`, not the `transformedContent` Copilot sends)
        if (!prompted && typeof data["content"] === "string" && data["content"].trim() !== "") {
          prompted = true;
          yield { type: "session", sessionId: session, at, prompt: data["content"] };
        }
        break;
      case "session.usage_record":
        usage = requestTokens(data["usage"]);
        break;
      case "assistant.message": {
        const requests = Array.isArray(data["toolRequests"]) ? (data["toolRequests"] as unknown[]) : [];
        let first = true;
        for (const request of requests) {
          const id = (request as { toolCallId?: unknown } | null)?.toolCallId;
          if (typeof id !== "string" || usage === undefined) continue;
          tokensOf.set(id, first ? usage : 0);
          first = false;
        }
        usage = undefined;
        break;
      }
      case "tool.execution_start":
        if (typeof data["toolCallId"] === "string" && typeof data["toolName"] === "string") {
          const tokens = tokensOf.get(data["toolCallId"]);
          yield {
            type: "call",
            sessionId: session,
            at,
            id: data["toolCallId"],
            tool: data["toolName"],
            input: data["arguments"] ?? {},
            ...(tokens === undefined ? {} : { tokens }),
          };
        }
        break;
      case "tool.execution_complete": {
        if (typeof data["toolCallId"] !== "string") break;
        const error = data["error"] as { message?: unknown; code?: unknown } | undefined;
        const result = data["result"] as { content?: unknown } | undefined;
        const text =
          typeof error?.message === "string"
            ? error.message
            : typeof result?.content === "string"
              ? result.content
              : "";
        const refused = error?.code === "denied" || error?.code === "rejected";
        const verdict = refused ? classifyCopilotDenial(text) : undefined;
        yield {
          type: "result",
          sessionId: session,
          at,
          id: data["toolCallId"],
          outcome: data["success"] === true ? "success" : "error",
          text,
          ...(verdict === undefined
            ? {}
            : {
                denial: {
                  source: verdict.source,
                  reason: text,
                  ...(verdict.rule === undefined ? {} : { rule: verdict.rule }),
                },
              }),
        };
        break;
      }
      default:
        break;
    }
  }
}

/** `~/.copilot/session-state/<id>/events.jsonl`: its first line is `session.start` from `copilot-agent`. */
export const copilotEventsFormat: TranscriptFormat = {
  id: "copilot-events",
  host: "copilot",
  headless: false,
  sniffOrder: 14,
  sniff: (head) =>
    head.some((line) => line.includes('"type":"session.start"') && line.includes('"producer":"copilot-agent"')),
  read: readCopilotEvents,
};

/** `copilot -p ... --output-format json`: it opens with Copilot's own session events (`session.skills_loaded`, ...). */
export const copilotJsonFormat: TranscriptFormat = {
  id: "copilot-json",
  host: "copilot",
  headless: true,
  sniffOrder: 25,
  sniff: (head) =>
    head.some((line) => /^\{"type":"session\.(skills_loaded|mcp_servers_loaded|tools_updated)"/.test(line)),
  read: readCopilotEvents,
};

/**
 * A `session.usage_record`'s tokens: input plus output (Copilot also names cache reads and writes, which are counted
 * as part of the input, as OpenAI's `prompt_tokens` counts its cached tokens); undefined without a usage object.
 */
function requestTokens(usage: unknown): number | undefined {
  if (typeof usage !== "object" || usage === null) return undefined;
  const { inputTokens, outputTokens } = usage as { inputTokens?: unknown; outputTokens?: unknown };
  const count = (value: unknown) => (typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0);
  return count(inputTokens) + count(outputTokens);
}
