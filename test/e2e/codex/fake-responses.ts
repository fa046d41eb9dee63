import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A scripted OpenAI Responses API (SSE) on 127.0.0.1 for Codex 0.171.0, recording every request body. The step
 * served is the number of tool results already in the request (stateless, so Codex's retries change nothing): step
 * n is a shell call (`exec_command` with `cmd`, asking to run outside the sandbox with `escalate`), and past the
 * script the model answers with text and stops. A request for a JSON answer (`text.format` json_schema: Codex's
 * auto-review asking for its assessment) is answered with `review`.
 */
export interface FakeResponses {
  /** `http://127.0.0.1:PORT/v1` */
  baseUrl: string;
  /** each `/responses` request body, in order */
  requests: Record<string, unknown>[];
  close(): Promise<void>;
}

/** The function_call_output texts of a request, in order. */
export function toolOutputs(request: Record<string, unknown>): string[] {
  const input = Array.isArray(request["input"]) ? (request["input"] as Record<string, unknown>[]) : [];
  return input.filter((item) => item["type"] === "function_call_output").map((item) => String(item["output"]));
}

/** Every text the model was given in a request (outputs and developer/user messages), for guidance checks. */
export function requestText(request: Record<string, unknown>): string {
  return JSON.stringify(request["input"] ?? []);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

export async function startFakeResponses(options: {
  commands: readonly string[];
  final?: string;
  /** each shell call asks for `sandbox_permissions: "require_escalated"` (an approval request) */
  escalate?: boolean;
  /** the auto-reviewer's assessment */
  review?: { outcome: "allow" | "deny"; rationale: string };
  /** serve the script to a request without a `tools` list too (a model whose catalog entry sends none) */
  callsWithoutToolList?: boolean;
}): Promise<FakeResponses> {
  const requests: Record<string, unknown>[] = [];
  let sequence = 0;
  const server = createServer((request, response) => {
    readBody(request)
      .then((raw) => {
        if (!(request.url ?? "").endsWith("/responses")) {
          response.writeHead(404, { "content-type": "application/json" }).end('{"error":{"message":"no route"}}');
          return;
        }
        const body = (raw === "" ? {} : JSON.parse(raw)) as Record<string, unknown>;
        requests.push(body);
        sequence += 1;
        const tools = Array.isArray(body["tools"]) ? body["tools"] : [];
        const format = (body["text"] as { format?: { type?: unknown } } | undefined)?.format;
        const reviewing = format?.type === "json_schema";
        const offered = tools.length > 0 || options.callsWithoutToolList === true;
        const step = !offered || reviewing ? undefined : options.commands[toolOutputs(body).length];
        const review = { risk_level: "high", user_authorization: "unknown", ...options.review };
        const item =
          reviewing && options.review !== undefined
            ? {
                type: "message",
                id: `msg_${sequence}`,
                role: "assistant",
                status: "completed",
                content: [{ type: "output_text", text: JSON.stringify(review), annotations: [] }],
              }
            : step === undefined
              ? {
                  type: "message",
                  id: `msg_${sequence}`,
                  role: "assistant",
                  status: "completed",
                  content: [{ type: "output_text", text: options.final ?? "FINAL: done.", annotations: [] }],
                }
              : {
                  type: "function_call",
                  id: `fc_${sequence}`,
                  call_id: `call_${sequence}`,
                  name: "exec_command",
                  arguments: JSON.stringify(
                    options.escalate === true
                      ? { cmd: step, sandbox_permissions: "require_escalated", justification: "needed for the task" }
                      : { cmd: step },
                  ),
                  status: "completed",
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
      })
      .catch((error: unknown) => response.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
