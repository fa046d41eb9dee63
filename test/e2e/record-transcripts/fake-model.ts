import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * One scripted model server on 127.0.0.1 (ephemeral port) that speaks the three wire formats the recorded hosts
 * use besides Anthropic's: OpenAI Chat Completions (opencode, Qwen Code), the OpenAI Responses API as SSE (Codex)
 * and Gemini `generateContent` / `streamGenerateContent` (Gemini CLI). The script is stateless: the step served
 * is the number of tool results already in the request, so whatever the host does in between (retries, helper
 * calls) the conversation is the same. Helper requests (no tools, JSON mode, classifiers) get neutral answers.
 */

/** One model turn: run a shell command, or answer with text and stop. */
export type ModelStep = { command: string } | { text: string };

export interface FakeModel {
  /** base URL without a path (`http://127.0.0.1:PORT`) */
  url: string;
  /** shell commands served, in order */
  served: string[];
  close(): Promise<void>;
}

const SHELL_TOOLS = ["bash", "run_shell_command", "exec_command", "shell", "local_shell"];

function argumentsFor(options: { command: string; schema: Record<string, unknown> | undefined }) {
  const properties = (options.schema?.["properties"] ?? {}) as Record<string, { type?: string }>;
  if (properties["cmd"] !== undefined && properties["command"] === undefined) return { cmd: options.command };
  if (properties["command"]?.type === "array") return { command: ["bash", "-lc", options.command] };
  const args: Record<string, unknown> = { command: options.command };
  if (properties["description"] !== undefined) args["description"] = `Run ${options.command}`;
  return args;
}

function fillSchema(schema: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const properties = ((schema as { properties?: unknown } | undefined)?.properties ?? {}) as Record<
    string,
    { type?: string; enum?: unknown[] }
  >;
  for (const [key, value] of Object.entries(properties)) {
    if (value.enum) out[key] = value.enum[0];
    else if (value.type === "boolean") out[key] = false;
    else if (value.type === "string") out[key] = "scripted";
    else if (value.type === "number" || value.type === "integer") out[key] = 0;
    else if (value.type === "array") out[key] = [];
    else out[key] = {};
  }
  return out;
}

interface Decision {
  kind: "tool" | "text";
  name?: string;
  args?: Record<string, unknown>;
  text?: string;
}

function decide(options: {
  steps: readonly ModelStep[];
  final: string;
  toolResults: number;
  tools: { name: string; schema: Record<string, unknown> | undefined }[];
  served: string[];
}): Decision {
  const step = options.steps[options.toolResults] ?? { text: options.final };
  if ("text" in step) return { kind: "text", text: step.text };
  const tool = options.tools.find((candidate) => SHELL_TOOLS.includes(candidate.name));
  if (tool === undefined) return { kind: "text", text: "FAKE: no shell tool offered" };
  options.served.push(step.command);
  return { kind: "tool", name: tool.name, args: argumentsFor({ command: step.command, schema: tool.schema }) };
}

export async function startFakeModel(options: { steps: readonly ModelStep[]; final?: string }): Promise<FakeModel> {
  const served: string[] = [];
  const final = options.final ?? "FINAL: done.";
  let sequence = 0;
  const server = createServer((request, response) => {
    readBody(request)
      .then((raw) => {
        const url = (request.url ?? "").split("?")[0] ?? "";
        const body = (raw === "" ? {} : JSON.parse(raw)) as Record<string, unknown>;
        sequence += 1;
        if (request.method === "GET" && url.endsWith("/models")) {
          return json(response, { object: "list", data: [{ id: "fake-model", object: "model" }], models: [] });
        }
        if (url.endsWith("/chat/completions")) return chat({ response, body, options, final, served, sequence });
        if (url.endsWith("/responses")) return responses({ response, body, options, final, served, sequence });
        if (/:(stream)?generateContent$/i.test(url)) {
          return gemini({ response, body, options, final, served, stream: /:stream/i.test(url) });
        }
        if (url.endsWith(":countTokens")) return json(response, { totalTokens: 10 });
        response.writeHead(404, { "content-type": "application/json" }).end('{"error":{"message":"no route"}}');
      })
      .catch((error: unknown) => response.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface Handler {
  response: ServerResponse;
  body: Record<string, unknown>;
  options: { steps: readonly ModelStep[] };
  final: string;
  served: string[];
}

function chat(handler: Handler & { sequence: number }): void {
  const { response, body, sequence } = handler;
  const tools = ((body["tools"] ?? []) as { function?: { name: string; parameters?: Record<string, unknown> } }[])
    .map((tool) => ({ name: tool.function?.name ?? "", schema: tool.function?.parameters }))
    .filter((tool) => tool.name !== "");
  const messages = (body["messages"] ?? []) as { role: string }[];
  const usage = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 };
  let decision: Decision;
  if (tools.length === 1 && tools[0]?.name === "respond_in_schema") {
    decision = { kind: "tool", name: "respond_in_schema", args: fillSchema(tools[0].schema) };
  } else if (tools.length === 0) {
    decision = { kind: "text", text: "Fake title" };
  } else {
    const toolResults = messages.filter((message) => message.role === "tool").length;
    decision = decide({ ...handler, steps: handler.options.steps, toolResults, tools });
  }
  const id = `chatcmpl-${sequence}`;
  const call = { id: `call_${sequence}`, type: "function", function: { name: decision.name, arguments: "" } };
  const argumentsText = JSON.stringify(decision.args ?? {});
  if (body["stream"] !== true) {
    const message =
      decision.kind === "tool"
        ? {
            role: "assistant",
            content: null,
            tool_calls: [{ ...call, function: { ...call.function, arguments: argumentsText } }],
          }
        : { role: "assistant", content: decision.text };
    const finish = decision.kind === "tool" ? "tool_calls" : "stop";
    json(response, {
      id,
      object: "chat.completion",
      created: 0,
      choices: [{ index: 0, message, finish_reason: finish }],
      usage,
    });
    return;
  }
  response.writeHead(200, { "content-type": "text/event-stream" });
  const send = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    response.write(
      `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created: 0, choices, ...extra })}\n\n`,
    );
  if (decision.kind === "tool") {
    send([
      {
        index: 0,
        delta: { role: "assistant", content: null, tool_calls: [{ index: 0, ...call }] },
        finish_reason: null,
      },
    ]);
    send([
      { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: argumentsText } }] }, finish_reason: null },
    ]);
    send([{ index: 0, delta: {}, finish_reason: "tool_calls" }]);
  } else {
    send([{ index: 0, delta: { role: "assistant", content: decision.text }, finish_reason: null }]);
    send([{ index: 0, delta: {}, finish_reason: "stop" }]);
  }
  send([], { usage });
  response.end("data: [DONE]\n\n");
}

function responses(handler: Handler & { sequence: number }): void {
  const { response, body, sequence } = handler;
  const tools = ((body["tools"] ?? []) as { name?: string; type?: string; parameters?: Record<string, unknown> }[]).map(
    (tool) => ({ name: tool.name ?? tool.type ?? "", schema: tool.parameters }),
  );
  const input = (Array.isArray(body["input"]) ? body["input"] : []) as { type?: string }[];
  const toolResults = input.filter((item) => /_call_output$/.test(item.type ?? "")).length;
  const decision =
    tools.length === 0
      ? { kind: "text" as const, text: "Fake title" }
      : decide({ ...handler, steps: handler.options.steps, toolResults, tools });
  const item =
    decision.kind === "tool"
      ? {
          type: "function_call",
          id: `fc_${sequence}`,
          call_id: `call_${sequence}`,
          name: decision.name,
          arguments: JSON.stringify(decision.args),
          status: "completed",
        }
      : {
          type: "message",
          id: `msg_${sequence}`,
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: decision.text, annotations: [] }],
        };
  const usage = {
    input_tokens: 100,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 20,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 120,
  };
  const result = {
    id: `resp_${sequence}`,
    object: "response",
    created_at: 0,
    model: body["model"],
    status: "completed",
    output: [item],
    usage,
  };
  response.writeHead(200, { "content-type": "text/event-stream" });
  let n = 0;
  const event = (type: string, data: Record<string, unknown>) =>
    response.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: n++, ...data })}\n\n`);
  event("response.created", { response: { ...result, status: "in_progress", output: [] } });
  event("response.output_item.added", { output_index: 0, item });
  event("response.output_item.done", { output_index: 0, item });
  event("response.completed", { response: result });
  response.end();
}

function gemini(handler: Handler & { stream: boolean }): void {
  const { response, body } = handler;
  const declarations = (
    (body["tools"] ?? []) as {
      functionDeclarations?: {
        name: string;
        parameters?: Record<string, unknown>;
        parametersJsonSchema?: Record<string, unknown>;
      }[];
    }[]
  ).flatMap((tool) => tool.functionDeclarations ?? []);
  const tools = declarations.map((declaration) => ({
    name: declaration.name,
    schema: declaration.parametersJsonSchema ?? declaration.parameters,
  }));
  const contents = (body["contents"] ?? []) as { parts?: { functionResponse?: unknown }[] }[];
  const toolResults = contents.flatMap((content) => content.parts ?? []).filter((part) => part.functionResponse).length;
  const generation = (body["generationConfig"] ?? {}) as Record<string, unknown>;
  let parts: unknown[];
  if (generation["responseMimeType"] === "application/json") {
    parts = [{ text: JSON.stringify(fillSchema(generation["responseJsonSchema"] ?? generation["responseSchema"])) }];
  } else {
    const decision =
      tools.length === 0
        ? { kind: "text" as const, text: "Fake title" }
        : decide({ ...handler, steps: handler.options.steps, toolResults, tools });
    parts =
      decision.kind === "tool"
        ? [{ functionCall: { name: decision.name, args: decision.args } }]
        : [{ text: decision.text }];
  }
  const payload = {
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 20, totalTokenCount: 120 },
    modelVersion: "fake",
  };
  if (!handler.stream) {
    json(response, payload);
    return;
  }
  response.writeHead(200, { "content-type": "text/event-stream" });
  response.end(`data: ${JSON.stringify(payload)}\r\n\r\n`);
}

function json(response: ServerResponse, value: unknown): void {
  response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(value));
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}
