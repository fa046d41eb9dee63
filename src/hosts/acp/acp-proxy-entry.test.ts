import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { temporaryDirectory } from "../../../test/support/temporary-directory.js";
import { runAcpProxy } from "./acp-proxy-entry.js";

/** A stand-in agent speaking ACP's newline-delimited JSON: logs each line it reads, starts one session. */
const AGENT = `
import { appendFileSync } from "node:fs";
import { createInterface } from "node:readline";
const send = (message) => process.stdout.write(JSON.stringify(message) + "\\n");
for await (const line of createInterface({ input: process.stdin })) {
  appendFileSync(process.argv[2], line + "\\n");
  const message = JSON.parse(line);
  if (message.method === "initialize") send({ jsonrpc: "2.0", id: message.id, result: { protocolVersion: 1, agentCapabilities: {} } });
  else if (message.method === "session/new") send({ jsonrpc: "2.0", id: message.id, result: { sessionId: "S" } });
}
`;

function proxyRoot() {
  const root = temporaryDirectory("toolgate-acp-proxy-");
  const agent = join(root, "agent.mjs");
  writeFileSync(agent, AGENT);
  const env = {
    PATH: process.env["PATH"],
    HOME: root,
    XDG_CONFIG_HOME: join(root, ".config"),
    TOOLGATE_DB: join(root, "db"),
  };
  return { root, agent, env, received: join(root, "received.jsonl") };
}

const until = async (test: () => boolean, what: string) => {
  for (let waited = 0; waited < 10_000; waited += 20) {
    if (test()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
};

describe("runAcpProxy", () => {
  it("cancels the agent's own request when the editor cancels its prompt, never with the editor's ids", async () => {
    const { root, agent, env, received } = proxyRoot();
    writeFileSync(received, "");
    const editor = new PassThrough();
    const output = new PassThrough();
    output.resume();
    const run = runAcpProxy({
      agent: { command: process.execPath, args: [agent, received] },
      input: editor,
      output,
      env,
      cwd: root,
      log: () => undefined,
    });
    const lines = () =>
      readFileSync(received, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { id?: number; method?: string; params?: { requestId?: number } });
    const send = (message: object) => editor.write(`${JSON.stringify(message)}\n`);
    // an editor that numbers its requests from 100 (its own choice), the proxy from its own counter
    send({ jsonrpc: "2.0", id: 100, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } });
    await until(() => lines().some((line) => line.method === "initialize"), "initialize");
    send({ jsonrpc: "2.0", id: 101, method: "session/new", params: { cwd: root, mcpServers: [] } });
    await until(() => lines().some((line) => line.method === "session/new"), "session/new");
    send({
      jsonrpc: "2.0",
      id: 102,
      method: "session/prompt",
      params: { sessionId: "S", prompt: [{ type: "text", text: "hi" }] },
    });
    await until(() => lines().some((line) => line.method === "session/prompt"), "session/prompt");
    send({ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: 102 } });
    const prompt = lines().find((line) => line.method === "session/prompt");
    await until(() => lines().some((line) => line.method === "$/cancel_request"), "the cancel");
    await new Promise((resolve) => setTimeout(resolve, 200));
    const cancels = lines().filter((line) => line.method === "$/cancel_request");
    expect(prompt?.id).not.toBe(102);
    expect(cancels.map((line) => line.params?.requestId)).toEqual([prompt?.id]);
    editor.end();
    expect((await run).exitCode).toBe(0);
  });

  it("ends at once on a signal that came while it started (a SIGTERM before its listener)", async () => {
    const { root, env } = proxyRoot();
    const controller = new AbortController();
    controller.abort();
    const editor = new PassThrough();
    const output = new PassThrough();
    output.resume();
    const run = runAcpProxy({
      agent: { command: process.execPath, args: ["-e", "process.stdin.resume()"] },
      input: editor,
      output,
      env,
      cwd: root,
      signal: controller.signal,
      log: () => undefined,
    });
    const late = new Promise((resolve) => setTimeout(() => resolve("still running after 8 s"), 8_000).unref());
    const ended = await Promise.race([run.then((outcome) => outcome.exitCode), late]);
    editor.end();
    await run;
    expect(ended).toBe(0);
  });
});
