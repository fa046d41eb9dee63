/**
 * `toolgate mcp-proxy` end to end: the real SDK `Client` against the real reference filesystem server
 * (`@modelcontextprotocol/server-filesystem`), through the built proxy and straight, in the same test.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, removeSnapshot, runToolgate } from "../e2e/claude/toolgate-cli.js";
import { connect, FILESYSTEM_SERVER, makeSandbox, type Sandbox, textOf } from "./proxy-session.js";

const E2E = { timeout: 180_000 };
let sandboxes: Sandbox[] = [];

function sandbox(config?: unknown): Sandbox {
  const made = makeSandbox(config);
  sandboxes.push(made);
  return made;
}

beforeAll(() => assertBuilt());
afterEach(() => {
  for (const made of sandboxes) made.remove();
  sandboxes = [];
});
afterAll(() => removeSnapshot());

/** The `result` of every response, in order, as the client received it (JSON text of the parsed message). */
function results(received: string[]): string[] {
  return received
    .map((text) => JSON.parse(text) as { id?: unknown; result?: unknown })
    .filter((message) => message.id !== undefined && message.result !== undefined)
    .map((message) => JSON.stringify(message.result));
}

describe("toolgate mcp-proxy with the reference filesystem server", () => {
  it("passes an allowed call through byte for byte: the same results as a direct connection", E2E, async () => {
    const box = sandbox();
    writeFileSync(join(box.work, "notes.txt"), "line one\nline two\n");
    const run = async (proxy: "fs" | false) => {
      const session = await connect({ sandbox: box, server: [FILESYSTEM_SERVER, box.work], proxy });
      const { client } = session;
      const info = { version: client.getServerVersion(), capabilities: client.getServerCapabilities() };
      await client.listTools();
      await client.callTool({ name: "read_text_file", arguments: { path: join(box.work, "notes.txt") } });
      await client.callTool({ name: "list_directory", arguments: { path: box.work } });
      await client.callTool({ name: "read_text_file", arguments: { path: join(box.work, "missing.txt") } });
      await session.close();
      return { info: JSON.stringify(info), results: results(session.received) };
    };
    const direct = await run(false);
    const proxied = await run("fs");
    expect(proxied.info).toBe(direct.info);
    expect(proxied.results).toHaveLength(4);
    expect(proxied.results).toEqual(direct.results);
  });

  it("runs one entry of a servers file (--config, the .mcp.json shape)", E2E, async () => {
    const box = sandbox();
    writeFileSync(join(box.work, "notes.txt"), "from the config\n");
    const servers = join(box.project, "servers.json");
    writeFileSync(
      servers,
      JSON.stringify({
        mcpServers: {
          files: { type: "stdio", command: FILESYSTEM_SERVER, args: ["work"], cwd: "." },
          web: { type: "http", url: "https://example.com/mcp" },
        },
      }),
    );
    const session = await connect({ sandbox: box, server: [], proxy: "files", proxyArgs: ["--config", servers] });
    const result = await session.client.callTool({
      name: "read_text_file",
      arguments: { path: join(box.work, "notes.txt") },
    });
    await session.close();
    expect(textOf(result)).toBe("from the config\n");
  });

  it(
    "refuses a write_file denied by a toolgate rule, with guidance, and aborts a stubborn retry at the threshold",
    E2E,
    async () => {
      const box = sandbox({ permissions: { deny: ["mcp__fs__write_file"] } });
      const session = await connect({ sandbox: box, server: [FILESYSTEM_SERVER, box.work] });
      const target = join(box.work, "out.txt");
      const texts: string[] = [];
      for (let attempt = 0; attempt < 6; attempt++) {
        const result = await session.client.callTool({
          name: "write_file",
          arguments: { path: target, content: "x" },
        });
        expect(result.isError).toBe(true);
        texts.push(textOf(result));
      }
      const read = await session.client.callTool({ name: "read_text_file", arguments: { path: target } });
      await session.close();
      expect(existsSync(target)).toBe(false);
      expect(texts[0]).toContain("mcp__fs__write_file");
      const firstAbort = texts.findIndex((text) => /stopped|abort/i.test(text));
      expect(firstAbort).toBe(2); // the threshold for MCP tools is 3
      expect(texts.slice(firstAbort).every((text) => /stopped|abort/i.test(text))).toBe(true);
      // after the abort every call is refused, even one the policy would allow
      expect(read.isError).toBe(true);
      expect(session.stderr()).toMatch(/toolgate: .*mcp__fs__write_file/);
      const report = runToolgate({ args: ["report"], cwd: box.project, env: box.env });
      expect(report.stdout).toMatch(/mcp__fs__write_file/);
    },
  );

  it(
    "counts the server's own refusals (a path outside its allowed directories) and keeps the server's text",
    E2E,
    async () => {
      const box = sandbox();
      const session = await connect({ sandbox: box, server: [FILESYSTEM_SERVER, box.work] });
      const outside = join(box.root, "outside.txt");
      const texts: string[] = [];
      for (let attempt = 0; attempt < 4; attempt++) {
        const result = await session.client.callTool({
          name: "write_file",
          arguments: { path: outside, content: "x" },
        });
        expect(result.isError).toBe(true);
        texts.push(textOf(result));
      }
      await session.close();
      expect(existsSync(outside)).toBe(false);
      // the server's words first, toolgate's after them
      expect(texts[0]).toMatch(/^Access denied - path outside allowed directories/);
      expect(texts[0]).toContain("[toolgate]");
      expect(texts[0]).toContain("permission boundary");
      // the third identical refusal is the threshold: headless, so toolgate stops the session
      expect(texts[1]).not.toMatch(/stopped/i);
      expect(texts[2]).toMatch(/stopped/i);
      // after the abort the proxy refuses without asking the server again
      expect(texts[3]).not.toContain("Access denied - path outside");
    },
  );

  it(
    "asks through an elicitation for an `ask` rule, and offers the session grant at the threshold: accepted",
    E2E,
    async () => {
      const box = sandbox({ permissions: { ask: ["mcp__fs__write_file"] } });
      const questions: string[] = [];
      const session = await connect({
        sandbox: box,
        server: [FILESYSTEM_SERVER, box.work],
        capabilities: { elicitation: { form: {} } },
        prepare: (client) =>
          client.setRequestHandler(ElicitRequestSchema, async (request) => {
            const message = request.params.message;
            questions.push(message);
            // decline each single call; accept the grant for the rest of the session
            return /^Allow mcp__fs__write_file/.test(message)
              ? { action: "decline" }
              : { action: "accept", content: { allow: true } };
          }),
      });
      const target = join(box.work, "granted.txt");
      const call = () => session.client.callTool({ name: "write_file", arguments: { path: target, content: "ok" } });
      const first = await call();
      const second = await call();
      expect(first.isError).toBe(true);
      expect(textOf(first)).toContain("[toolgate]");
      expect(second.isError).toBe(true);
      expect(existsSync(target)).toBe(false);
      const third = await call(); // declined again: the threshold, so the grant is offered and accepted
      expect(third.isError).toBeFalsy();
      expect(readFileSync(target, "utf8")).toBe("ok");
      const asked = questions.length;
      const fourth = await call(); // the grant covers it: no question
      await session.close();
      expect(fourth.isError).toBeFalsy();
      expect(questions.length).toBe(asked);
      expect(questions.slice(0, 3).every((question) => question.startsWith("Allow mcp__fs__write_file"))).toBe(true);
      expect(questions[3]).not.toMatch(/^Allow mcp__fs__write_file/);
    },
  );

  it("a declined grant keeps the call refused and the file unwritten", E2E, async () => {
    const box = sandbox({ permissions: { ask: ["mcp__fs__write_file"] } });
    let questions = 0;
    const session = await connect({
      sandbox: box,
      server: [FILESYSTEM_SERVER, box.work],
      capabilities: { elicitation: {} },
      prepare: (client) =>
        client.setRequestHandler(ElicitRequestSchema, async () => {
          questions += 1;
          return { action: "decline" };
        }),
    });
    const target = join(box.work, "never.txt");
    const texts: string[] = [];
    for (let attempt = 0; attempt < 4; attempt++) {
      const result = await session.client.callTool({
        name: "write_file",
        arguments: { path: target, content: "no" },
      });
      expect(result.isError).toBe(true);
      texts.push(textOf(result));
    }
    await session.close();
    expect(existsSync(target)).toBe(false);
    expect(questions).toBeGreaterThanOrEqual(4);
    expect(texts.at(-1)).toContain("[toolgate]");
  });
});
