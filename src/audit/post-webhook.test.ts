import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { postWebhook } from "./post-webhook.js";

let server: Server | undefined;
afterEach(() => {
  server?.close();
  server?.closeAllConnections();
});

async function listen(handler: (request: IncomingMessage, body: string) => { status: number; delayMs?: number }) {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      const answer = handler(request, body);
      setTimeout(() => response.writeHead(answer.status).end("ok"), answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/hook`;
}

describe("postWebhook", () => {
  it("POSTs JSON with an idempotency key", async () => {
    const seen: { body: string; key: string | undefined; type: string | undefined }[] = [];
    const url = await listen((request, body) => {
      seen.push({ body, key: request.headers["idempotency-key"] as string, type: request.headers["content-type"] });
      return { status: 204 };
    });
    const result = await postWebhook({
      url,
      payload: { a: 1 },
      idempotencyKey: "toolu_1",
      timeoutMs: 2_000,
      retries: 0,
    });
    expect(result).toMatchObject({ ok: true, status: 204, attempts: 1 });
    expect(seen).toEqual([{ body: '{"a":1}', key: "toolu_1", type: "application/json" }]);
  });

  it("retries 5xx with backoff, then succeeds", async () => {
    let calls = 0;
    const url = await listen(() => ({ status: ++calls < 3 ? 503 : 200 }));
    const result = await postWebhook({
      url,
      payload: {},
      idempotencyKey: "k",
      timeoutMs: 2_000,
      retries: 3,
      backoffMs: 10,
    });
    expect(result).toMatchObject({ ok: true, attempts: 3 });
  });

  it("gives up after the bounded retries and on a final 4xx", async () => {
    let calls = 0;
    const url = await listen(() => {
      calls++;
      return { status: 500 };
    });
    expect(
      await postWebhook({ url, payload: {}, idempotencyKey: "k", timeoutMs: 2_000, retries: 2, backoffMs: 5 }),
    ).toMatchObject({
      ok: false,
      attempts: 3,
      error: "HTTP 500",
    });
    expect(calls).toBe(3);
    server?.close();
    const bad = await listen(() => ({ status: 400 }));
    expect(
      await postWebhook({ url: bad, payload: {}, idempotencyKey: "k", timeoutMs: 2_000, retries: 5, backoffMs: 5 }),
    ).toMatchObject({
      ok: false,
      attempts: 1,
    });
  });

  it("times out a hanging receiver and never throws on a refused connection", async () => {
    const url = await listen(() => ({ status: 200, delayMs: 5_000 }));
    const slow = await postWebhook({ url, payload: {}, idempotencyKey: "k", timeoutMs: 100, retries: 1, backoffMs: 5 });
    expect(slow).toMatchObject({ ok: false, attempts: 2, error: "timed out after 100 ms" });
    const refused = await postWebhook({
      url: "http://127.0.0.1:1/",
      payload: {},
      idempotencyKey: "k",
      timeoutMs: 500,
      retries: 0,
    });
    expect(refused.ok).toBe(false);
  });
});
