/**
 * Test helpers: a real SDK `Client` that talks to the real `toolgate mcp-proxy` (the built CLI, through the e2e
 * harness's private dist/ snapshot) or straight to the same server, each with a temporary HOME, store and project.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { ClientCapabilities, JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { toolgateCommand } from "../e2e/claude/toolgate-cli.js";

const REPOSITORY = join(import.meta.dirname, "..", "..");
export const FILESYSTEM_SERVER = join(REPOSITORY, "test", "e2e", "node_modules", ".bin", "mcp-server-filesystem");
export const PASSTHROUGH_SERVER = join(import.meta.dirname, "fixtures", "passthrough-server.mjs");

/** A temporary HOME with a project (`work`, the server's allowed directory) and toolgate's store in it. */
export interface Sandbox {
  root: string;
  home: string;
  project: string;
  work: string;
  env: Record<string, string>;
  remove(): void;
}

export function makeSandbox(config?: unknown): Sandbox {
  const root = mkdtempSync(join(tmpdir(), "toolgate-mcp-"));
  const home = join(root, "home");
  const project = join(root, "project");
  const work = join(project, "work");
  mkdirSync(home, { recursive: true });
  mkdirSync(work, { recursive: true });
  if (config !== undefined) writeFileSync(join(project, "toolgate.config.json"), JSON.stringify(config));
  const env = {
    HOME: home,
    TOOLGATE_DB: join(root, "toolgate.db"),
    PATH: process.env["PATH"] ?? "",
  };
  return { root, home, project, work, env, remove: () => rmSync(root, { recursive: true, force: true }) };
}

export interface Connected {
  client: Client;
  transport: StdioClientTransport;
  /** every message the client received, as the JSON text of the parsed message */
  received: string[];
  /** what the proxy (and the server) wrote on stderr */
  stderr(): string;
  close(): Promise<void>;
}

export interface ConnectOptions {
  sandbox: Sandbox;
  /** the server command line */
  server: string[];
  /** through `toolgate mcp-proxy --server <name>` (default) or straight to the server (`false`) */
  proxy?: string | false;
  proxyArgs?: string[];
  capabilities?: ClientCapabilities;
  /** set handlers (elicitation, roots) before connecting */
  prepare?: (client: Client) => void;
}

export async function connect(options: ConnectOptions): Promise<Connected> {
  const proxy = options.proxy ?? "fs";
  const argv =
    proxy === false
      ? options.server
      : toolgateCommand(
          "mcp-proxy",
          "--server",
          proxy,
          ...(options.proxyArgs ?? []),
          // no server command: the proxy reads it from --config
          ...(options.server.length === 0 ? [] : ["--", ...options.server]),
        );
  const [command, ...args] = argv as [string, ...string[]];
  const transport = new StdioClientTransport({
    command,
    args,
    env: options.sandbox.env,
    cwd: options.sandbox.project,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const client = new Client({ name: "toolgate-test", version: "1.0.0" }, { capabilities: options.capabilities ?? {} });
  options.prepare?.(client);
  const received: string[] = [];
  await client.connect(transport);
  const deliver = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    received.push(JSON.stringify(message));
    deliver?.(message);
  };
  return {
    client,
    transport,
    received,
    stderr: () => stderr,
    close: async () => {
      await client.close();
    },
  };
}

/** The text blocks of a tool result, joined. */
export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content
    .filter((block) => block.type === "text")
    .map((block) => block.text ?? "")
    .join("\n");
}
