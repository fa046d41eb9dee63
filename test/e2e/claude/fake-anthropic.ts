/**
 * A scripted fake of the Anthropic Messages API for driving the real Claude Code binary offline.
 *
 * Listens on 127.0.0.1 (ephemeral port) only. Main-loop requests (those that carry `tools`) are answered from a
 * script: the turn served is chosen by how many assistant messages the request already holds, so a conversation is
 * deterministic whatever the client does in between. Several conversations (the main agent and its subagents) are
 * told apart by `route`, which looks at the request (the first user message names the subagent's task).
 * Requests without tools (titles, summaries) get a short text. Every request body is kept in `requests` so tests can
 * assert what the model was told.
 */
import { once } from "node:events";
import { appendFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ScriptedToolUse {
  name: string;
  input: Record<string, unknown>;
}

/** One assistant message: text, or one or more tool uses (several = parallel tool uses in one turn). */
export interface ScriptedTurn {
  text?: string;
  preamble?: string;
  toolUses?: ScriptedToolUse[];
}

export interface MessagesRequestBody {
  model?: string;
  stream?: boolean;
  tools?: unknown[];
  system?: unknown;
  messages?: { role: string; content: unknown }[];
  stop_sequences?: string[];
  [key: string]: unknown;
}

export interface LoggedRequest {
  method: string;
  path: string;
  body: MessagesRequestBody | undefined;
  /** which conversation and turn was served, for main-loop requests */
  served?: { conversation: string; turnIndex: number; content: unknown[] };
}

export interface FakeAnthropicOptions {
  /** turns per conversation; `main` is the top-level agent */
  conversations: Record<string, ScriptedTurn[] | ((turnIndex: number) => ScriptedTurn | undefined)>;
  /** picks the conversation for a main-loop request; defaults to `main` */
  route?: (body: MessagesRequestBody) => string;
  /** the text answered once a conversation's script is exhausted */
  finalText?: string;
  /** append every logged request as one JSON line to this file (debugging) */
  logFile?: string;
}

export interface ToolResultSeen {
  toolUseId: string;
  isError: boolean;
  text: string;
}

export interface FakeAnthropic {
  url: string;
  port: number;
  requests: LoggedRequest[];
  /** every tool_result the client sent, once per tool_use_id (the last version seen) */
  toolResults(): ToolResultSeen[];
  /** every text the client sent to the model in `role: "system"` messages or `<system-reminder>` blocks */
  contextTexts(): string[];
  /** tool uses served, in order */
  servedToolUses(): { conversation: string; id: string; name: string; input: Record<string, unknown> }[];
  close(): Promise<void>;
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block) =>
      typeof block === "object" && block !== null && "text" in block ? String((block as { text: unknown }).text) : "",
    )
    .join("");
}

/** The first user message's text: how a subagent request can be told from the main agent's. */
export function firstUserText(body: MessagesRequestBody): string {
  const first = body.messages?.find((message) => message.role === "user");
  return first === undefined ? "" : textOf(first.content);
}

function contentFor(options: { turn: ScriptedTurn; conversation: string; turnIndex: number }) {
  const { turn, conversation, turnIndex } = options;
  if (turn.toolUses === undefined || turn.toolUses.length === 0) {
    return { content: [{ type: "text", text: turn.text ?? "" }], stopReason: "end_turn" };
  }
  const content: Record<string, unknown>[] = [];
  if (turn.preamble !== undefined) content.push({ type: "text", text: turn.preamble });
  turn.toolUses.forEach((use, position) => {
    const id = `toolu_${conversation}_${String(turnIndex).padStart(3, "0")}_${position}`;
    content.push({ type: "tool_use", id, name: use.name, input: use.input });
  });
  return { content, stopReason: "tool_use" };
}

function writeEvent(response: ServerResponse, event: string, data: unknown): void {
  response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

function reply(options: {
  response: ServerResponse;
  body: MessagesRequestBody;
  content: Record<string, unknown>[];
  stopReason: string;
  sequence: number;
}): void {
  const { response, body, content, stopReason, sequence } = options;
  const id = `msg_fake_${sequence}`;
  const model = body.model ?? "claude-fake";
  const usage = { input_tokens: 100, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const headers = { "request-id": `req_fake_${sequence}` };
  if (body.stream !== true) {
    response.writeHead(200, { "content-type": "application/json", ...headers });
    response.end(
      JSON.stringify({ id, type: "message", role: "assistant", model, content, stop_reason: stopReason, usage }),
    );
    return;
  }
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", ...headers });
  writeEvent(response, "message_start", {
    type: "message_start",
    message: { id, type: "message", role: "assistant", model, content: [], stop_reason: null, usage },
  });
  content.forEach((block, index) => {
    if (block.type === "text") {
      writeEvent(response, "content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "text", text: "" },
      });
      writeEvent(response, "content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "text_delta", text: block.text },
      });
    } else {
      writeEvent(response, "content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
      });
      writeEvent(response, "content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
      });
    }
    writeEvent(response, "content_block_stop", { type: "content_block_stop", index });
  });
  writeEvent(response, "message_delta", {
    type: "message_delta",
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: 20 },
  });
  writeEvent(response, "message_stop", { type: "message_stop" });
  response.end();
}

async function readBody(request: IncomingMessage): Promise<MessagesRequestBody | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString("utf8");
  if (raw === "") return undefined;
  try {
    return JSON.parse(raw) as MessagesRequestBody;
  } catch {
    return { unparsed: raw.slice(0, 2000) };
  }
}

export async function startFakeAnthropic(options: FakeAnthropicOptions): Promise<FakeAnthropic> {
  const requests: LoggedRequest[] = [];
  let sequence = 0;
  const pickTurn = (conversation: string, turnIndex: number): ScriptedTurn | undefined => {
    const script = options.conversations[conversation];
    if (script === undefined) return undefined;
    return typeof script === "function" ? script(turnIndex) : script[turnIndex];
  };

  const server = createServer((request, response) => {
    readBody(request)
      .then((body) => {
        const path = (request.url ?? "").split("?")[0] ?? "";
        const logged: LoggedRequest = { method: request.method ?? "", path, body };
        requests.push(logged);
        sequence += 1;
        if (request.method === "POST" && path === "/v1/messages/count_tokens") {
          response.writeHead(200, { "content-type": "application/json" });
          response.end(JSON.stringify({ input_tokens: 123 }));
        } else if (request.method === "POST" && path === "/v1/messages" && body !== undefined) {
          const isMainLoop = Array.isArray(body.tools) && body.tools.length > 0;
          if (isMainLoop) {
            const conversation = options.route?.(body) ?? "main";
            const turnIndex = (body.messages ?? []).filter((message) => message.role === "assistant").length;
            const turn = pickTurn(conversation, turnIndex) ?? { text: options.finalText ?? "FINAL: done." };
            const { content, stopReason } = contentFor({ turn, conversation, turnIndex });
            logged.served = { conversation, turnIndex, content };
            reply({ response, body, content, stopReason, sequence });
          } else {
            reply({
              response,
              body,
              content: [{ type: "text", text: "Fake title" }],
              stopReason: "end_turn",
              sequence,
            });
          }
        } else {
          response.writeHead(404, { "content-type": "application/json" });
          response.end(
            JSON.stringify({ type: "error", error: { type: "not_found_error", message: "fake: not found" } }),
          );
        }
        if (options.logFile !== undefined) appendFileSync(options.logFile, `${JSON.stringify(logged)}\n`);
      })
      .catch((error: unknown) => {
        response.writeHead(500);
        response.end(String(error));
      });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    toolResults() {
      const byId = new Map<string, ToolResultSeen>();
      for (const logged of requests) {
        for (const message of logged.body?.messages ?? []) {
          if (message.role !== "user" || !Array.isArray(message.content)) continue;
          for (const block of message.content as Record<string, unknown>[]) {
            if (block.type !== "tool_result") continue;
            byId.set(String(block.tool_use_id), {
              toolUseId: String(block.tool_use_id),
              isError: block.is_error === true,
              text: textOf(block.content),
            });
          }
        }
      }
      return [...byId.values()];
    },
    contextTexts() {
      const texts = new Set<string>();
      for (const logged of requests) {
        for (const message of logged.body?.messages ?? []) {
          if (message.role === "system") texts.add(textOf(message.content));
          if (message.role === "user") {
            const text = textOf(message.content);
            if (text.includes("<system-reminder>")) texts.add(text);
          }
        }
      }
      return [...texts];
    },
    servedToolUses() {
      const uses = new Map<
        string,
        { conversation: string; id: string; name: string; input: Record<string, unknown> }
      >();
      for (const logged of requests) {
        if (logged.served === undefined) continue;
        for (const block of logged.served.content as Record<string, unknown>[]) {
          if (block.type !== "tool_use") continue;
          uses.set(String(block.id), {
            conversation: logged.served.conversation,
            id: String(block.id),
            name: String(block.name),
            input: block.input as Record<string, unknown>,
          });
        }
      }
      return [...uses.values()];
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, "close").catch(() => undefined);
    },
  };
}
