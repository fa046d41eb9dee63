import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A scripted fake of the OpenAI Chat Completions API (SSE streaming and plain JSON) for driving the real opencode
 * binary. Listens on 127.0.0.1 only, on an ephemeral port, and keeps every request body so a test can read exactly
 * what the model was shown.
 */

export interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

export interface ChatRequest {
  model?: string;
  stream?: boolean;
  messages?: ChatMessage[];
  tools?: { function?: { name?: string } }[];
}

export interface ScriptedCall {
  tool: string;
  args: Record<string, unknown>;
}

export type ScriptedReply = { kind: "tools"; calls: ScriptedCall[] } | { kind: "text"; text: string };

/** Decides the model's reply to one agent request (requests that offer tools); helper requests get a title. */
export type Script = (request: ChatRequest) => ScriptedReply;

export interface LoggedRequest {
  url: string;
  body: ChatRequest;
  reply: ScriptedReply;
  /** true for requests with tools: the agent's own turns, not title generation */
  agent: boolean;
}

export interface FakeOpenAI {
  baseUrl: string;
  port: number;
  requests: LoggedRequest[];
  /** agent requests only (the ones that offer tools) */
  agentRequests(): LoggedRequest[];
  close(): Promise<void>;
}

/** Number of assistant messages already in the conversation: the step index of a stateless script. */
export function assistantTurns(request: ChatRequest): number {
  return (request.messages ?? []).filter((message) => message.role === "assistant").length;
}

/** Number of tool results already in the conversation. */
export function toolResults(request: ChatRequest): number {
  return (request.messages ?? []).filter((message) => message.role === "tool").length;
}

/** Plays `steps` in order (one per assistant message in the history), then answers `final`. */
export function sequenceScript(steps: ScriptedReply[], final = "FINAL: done."): Script {
  return (request) => steps[assistantTurns(request)] ?? { kind: "text", text: final };
}

/** A model that repeats the same call until it has seen `maxAttempts` tool results, then gives up. */
export function stubbornScript(options: { call: ScriptedCall; maxAttempts: number; final?: string }): Script {
  return (request) =>
    toolResults(request) < options.maxAttempts
      ? { kind: "tools", calls: [options.call] }
      : { kind: "text", text: options.final ?? "FINAL: I give up, the command keeps being denied." };
}

export function toolStep(...calls: ScriptedCall[]): ScriptedReply {
  return { kind: "tools", calls };
}

export function bash(command: string): ScriptedCall {
  return { tool: "bash", args: { command, description: "Run a command" } };
}

export async function startFakeOpenAI(script: Script): Promise<FakeOpenAI> {
  const requests: LoggedRequest[] = [];
  let sequence = 0;
  const server = createServer((request, response) => {
    readBody(request)
      .then((raw) => {
        const url = request.url ?? "";
        if (request.method === "GET" && url.endsWith("/models")) {
          return sendJson(response, {
            object: "list",
            data: [{ id: "fake-model", object: "model", owned_by: "fake" }],
          });
        }
        if (request.method !== "POST" || !url.endsWith("/chat/completions")) {
          response.writeHead(404).end();
          return;
        }
        const body = JSON.parse(raw) as ChatRequest;
        const agent = (body.tools ?? []).length > 0;
        const reply: ScriptedReply = agent ? script(body) : { kind: "text", text: "Fake title" };
        requests.push({ url, body, reply, agent });
        sequence += 1;
        return body.stream
          ? streamReply(response, { reply, model: body.model, sequence })
          : sendJson(response, completion({ reply, model: body.model, sequence }));
      })
      .catch((error: unknown) => {
        response.writeHead(500, { "content-type": "text/plain" }).end(String(error));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    agentRequests: () => requests.filter((entry) => entry.agent),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function sendJson(response: ServerResponse, value: unknown): void {
  response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(value));
}

function toolCalls(reply: ScriptedReply, sequence: number) {
  if (reply.kind !== "tools") return undefined;
  return reply.calls.map((call, index) => ({
    index,
    id: `call_${sequence}_${index}`,
    type: "function" as const,
    function: { name: call.tool, arguments: JSON.stringify(call.args) },
  }));
}

const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

function completion(options: { reply: ScriptedReply; model?: string; sequence: number }) {
  const { reply, sequence } = options;
  const calls = toolCalls(reply, sequence);
  const message = calls
    ? { role: "assistant", content: null, tool_calls: calls.map(({ index: _index, ...call }) => call) }
    : { role: "assistant", content: reply.kind === "text" ? reply.text : "" };
  return {
    id: `chatcmpl-${sequence}`,
    object: "chat.completion",
    created: 0,
    model: options.model,
    choices: [{ index: 0, message, finish_reason: calls ? "tool_calls" : "stop" }],
    usage,
  };
}

function streamReply(response: ServerResponse, options: { reply: ScriptedReply; model?: string; sequence: number }) {
  const { reply, sequence } = options;
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const send = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    response.write(
      `data: ${JSON.stringify({ id: `chatcmpl-${sequence}`, object: "chat.completion.chunk", created: 0, model: options.model, choices, ...extra })}\n\n`,
    );
  const calls = toolCalls(reply, sequence);
  if (calls) {
    for (const call of calls) {
      const opening = { ...call, function: { name: call.function.name, arguments: "" } };
      send([{ index: 0, delta: { role: "assistant", content: null, tool_calls: [opening] }, finish_reason: null }]);
      send([
        {
          index: 0,
          delta: { tool_calls: [{ index: call.index, function: { arguments: call.function.arguments } }] },
          finish_reason: null,
        },
      ]);
    }
    send([{ index: 0, delta: {}, finish_reason: "tool_calls" }]);
  } else {
    send([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }]);
    send([{ index: 0, delta: { content: reply.kind === "text" ? reply.text : "" }, finish_reason: null }]);
    send([{ index: 0, delta: {}, finish_reason: "stop" }]);
  }
  send([], { usage });
  response.end("data: [DONE]\n\n");
}
