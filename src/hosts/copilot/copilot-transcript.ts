import type { ReaderFact, ReaderSource, TranscriptFormat } from "../common/reader-event.js";
import { classifyCopilotDenial } from "./copilot-denial-texts.js";
import { refusedByPerson } from "./copilot-events.js";

/**
 * `toolgate analyze` of GitHub Copilot CLI 1.0.102's session events: `~/.copilot/session-state/<id>/events.jsonl`
 * and the `copilot -p --output-format json` stream (the same events; the stream names its session only on its last
 * line, `result`). `user.message` starts a turn, `tool.execution_start` is a call, `tool.execution_complete` its
 * result; a refusal has `error.code` `denied` (Copilot's rules, a headless approval, a preToolUse hook, a person's
 * No) or `rejected` (a permissionRequest hook). The mode is in Copilot's system prompt (`promptMode`), a person's
 * answer in `permission.completed`.
 */
function* readCopilotEvents(source: ReaderSource): Generator<ReaderFact> {
  let sessionId: string | undefined;
  let announced = false;
  let prompted = false;
  // the mode is told once, by the first system prompt; a person's first message comes before it, so its turn (and
  // its prompt) wait for the next line: the mode must reach the replay before the session's first event
  let moded = false;
  let waiting: ReaderFact[] = [];
  // calls a person refused at Copilot's permission prompt (`permission.completed`, `decisionSource: human_response`)
  const personRefused = new Set<string>();
  // a model request's tokens (`session.usage_record`, written just before the `assistant.message` it produced) go to
  // the first call that message requests, 0 to its others; a call of a request with no usage record gets none
  let usage: number | undefined;
  const tokensOf = new Map<string, number>();
  // until the session is announced every line is read (the announcement carries the first line's time)
  const keep = (bytes: Buffer) => {
    if (!announced) return true;
    const text = bytes.toString("latin1", 0, Math.min(bytes.length, 64));
    // Copilot writes its whole system prompt again and again (tens of kB each): only the first one is parsed
    if (!moded && text.includes('"type":"system.message"')) return true;
    return /"type":"(session\.start|user\.message|permission\.completed|session\.usage_record|assistant\.message|tool\.execution_start|tool\.execution_complete|result)"/.test(
      text,
    );
  };
  for (const line of source.lines(undefined, keep)) {
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
    if (value.type === "system.message" && !moded) {
      moded = true;
      const interactive = promptMode(data);
      if (interactive !== undefined) yield { type: "session", sessionId: session, at, interactive };
    }
    for (const fact of waiting) yield fact;
    waiting = [];
    switch (value.type) {
      case "user.message": {
        const turn: ReaderFact[] = [{ type: "turn", sessionId: session, at }];
        // the person's first prompt describes the session (`content`, not the `transformedContent` Copilot sends)
        if (!prompted && typeof data["content"] === "string" && data["content"].trim() !== "") {
          prompted = true;
          turn.push({ type: "session", sessionId: session, at, prompt: data["content"] });
        }
        if (moded) for (const fact of turn) yield fact;
        else waiting = turn;
        break;
      }
      case "permission.completed":
        if (typeof data["toolCallId"] === "string" && refusedByPerson(data)) personRefused.add(data["toolCallId"]);
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
        const verdict = !refused
          ? undefined
          : personRefused.has(data["toolCallId"])
            ? { source: "user" as const, rule: undefined }
            : classifyCopilotDenial(text);
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
  for (const fact of waiting) yield fact;
}

/**
 * What Copilot's own system prompt (the session's first `system.message`) says of the mode. 1.0.102 opens it with
 * "You are running in non-interactive mode and have no way to communicate with the user" in `-p` and with "You are
 * an interactive tool" in its terminal UI; undefined for any other opening (another version's wording, a prompt of
 * the user's own).
 */
function promptMode(data: Record<string, unknown>): boolean | undefined {
  const content = data["content"];
  if (data["role"] !== "system" || typeof content !== "string") return undefined;
  const opening = content.slice(0, 400).split("\n", 1)[0] ?? "";
  if (!opening.startsWith("You are the GitHub Copilot CLI")) return undefined;
  if (opening.includes("You are running in non-interactive mode")) return false;
  return opening.includes("You are an interactive tool") ? true : undefined;
}

/** `~/.copilot/session-state/<id>/events.jsonl`: its first line is `session.start` from `copilot-agent`. */
export const copilotEventsFormat: TranscriptFormat = {
  id: "copilot-events",
  host: "copilot",
  headless: false,
  recordsMode: true,
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
