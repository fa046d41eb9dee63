import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A scripted Gemini API server on 127.0.0.1 (ephemeral port) for the Gemini CLI end-to-end tests: it answers
 * `streamGenerateContent` / `generateContent` like the one in test/e2e/record-transcripts/fake-model.ts, and also
 * keeps every tool result the CLI sends back (`functionResponse.response`), so a test can read exactly what the
 * model was told. Stateless script: the step served is the number of tool results already in the request.
 */

/** One model turn: run a shell command, or answer with text and stop. */
export type GeminiStep = { command: string } | { text: string };

export interface FakeGemini {
  url: string;
  /** shell commands served, in order */
  served: string[];
  /** the latest request's tool results, in conversation order (each request repeats the history) */
  toolResults(): { name: string; response: Record<string, unknown> }[];
  /** main-conversation requests (with tools) received */
  requests(): number;
  close(): Promise<void>;
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

type Part = { functionResponse?: { name: string; response: Record<string, unknown> }; text?: string };

export async function startFakeGemini(options: { steps: readonly GeminiStep[]; final?: string }): Promise<FakeGemini> {
  const served: string[] = [];
  let latest: { name: string; response: Record<string, unknown> }[] = [];
  let mainRequests = 0;
  const final = options.final ?? "FINAL: done.";
  const server = createServer((request, response) => {
    readBody(request)
      .then((raw) => {
        const url = (request.url ?? "").split("?")[0] ?? "";
        if (url.endsWith(":countTokens")) return json(response, { totalTokens: 10 });
        if (!/:(stream)?generateContent$/i.test(url)) {
          response.writeHead(404, { "content-type": "application/json" }).end('{"error":{"message":"no route"}}');
          return;
        }
        const body = (raw === "" ? {} : JSON.parse(raw)) as Record<string, unknown>;
        const tools = ((body["tools"] ?? []) as { functionDeclarations?: { name: string }[] }[]).flatMap(
          (tool) => tool.functionDeclarations ?? [],
        );
        const generation = (body["generationConfig"] ?? {}) as Record<string, unknown>;
        let parts: unknown[];
        if (generation["responseMimeType"] === "application/json") {
          parts = [
            { text: JSON.stringify(fillSchema(generation["responseJsonSchema"] ?? generation["responseSchema"])) },
          ];
        } else if (tools.length === 0) {
          parts = [{ text: "Fake title" }];
        } else {
          mainRequests += 1;
          const results = ((body["contents"] ?? []) as { parts?: Part[] }[])
            .flatMap((content) => content.parts ?? [])
            .flatMap((part) => (part.functionResponse === undefined ? [] : [part.functionResponse]));
          latest = results.map((result) => ({ name: result.name, response: result.response }));
          const step = options.steps[results.length] ?? { text: final };
          if ("text" in step || !tools.some((tool) => tool.name === "run_shell_command")) {
            parts = [{ text: "text" in step ? step.text : "FAKE: no shell tool offered" }];
          } else {
            served.push(step.command);
            parts = [{ functionCall: { name: "run_shell_command", args: { command: step.command } } }];
          }
        }
        const payload = {
          candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
          usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 20, totalTokenCount: 120 },
          modelVersion: "fake",
        };
        if (!/:stream/i.test(url)) return json(response, payload);
        response.writeHead(200, { "content-type": "text/event-stream" });
        response.end(`data: ${JSON.stringify(payload)}\r\n\r\n`);
      })
      .catch((error: unknown) => response.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    toolResults: () => latest,
    requests: () => mainRequests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
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
