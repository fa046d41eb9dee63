/**
 * Test helpers: a real SDK `Client` that talks to the real `toolgate mcp-proxy` (the built CLI, through the e2e
 * harness's private dist/ snapshot) or straight to the same server, each with a temporary HOME, store and project.
 */
import { spawn } from "node:child_process";
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
    TMPDIR: tmpdir(),
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

export const LENIENT_SERVER = join(import.meta.dirname, "fixtures", "lenient-server.mjs");

/** The built proxy driven line by line, as a client that writes whatever it likes would. */
export interface RawProxy {
  /** writes one line (a newline is added) */
  write(line: string): void;
  /** the first message the proxy wrote with this id (waits for it; rejects after `waitMs`, default 30 s) */
  answer(id: string | number, waitMs?: number): Promise<Record<string, unknown>>;
  /** every message the proxy wrote so far */
  messages: Record<string, unknown>[];
  stderr(): string;
  /** resolves with the exit code (or signal name) once the proxy exited */
  exited: Promise<number | string>;
  closeInput(): void;
  kill(signal: NodeJS.Signals): void;
}

export function startRawProxy(options: { sandbox: Sandbox; server: string[]; name?: string }): RawProxy {
  const [command, ...args] = toolgateCommand("mcp-proxy", "--server", options.name ?? "box", "--", ...options.server);
  const child = spawn(command as string, args, {
    cwd: options.sandbox.project,
    env: options.sandbox.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const messages: Record<string, unknown>[] = [];
  const waiters = new Set<() => void>();
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
    let newline = stdout.indexOf("\n");
    while (newline !== -1) {
      const line = stdout.slice(0, newline);
      stdout = stdout.slice(newline + 1);
      if (line.trim() !== "") messages.push(JSON.parse(line) as Record<string, unknown>);
      newline = stdout.indexOf("\n");
    }
    for (const wake of [...waiters]) wake();
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  child.stdin.on("error", () => undefined);
  const exited = new Promise<number | string>((resolve) => {
    child.once("close", (code, signal) => resolve(code ?? signal ?? "unknown"));
  });
  return {
    messages,
    exited,
    stderr: () => stderr,
    write: (line) => child.stdin.write(`${line}\n`),
    closeInput: () => child.stdin.end(),
    kill: (signal) => child.kill(signal),
    answer(id, waitMs = 30_000) {
      return new Promise((resolve, reject) => {
        const look = () => {
          const found = messages.find((message) => message["id"] === id);
          if (found === undefined) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const check = () => void look();
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no answer to ${JSON.stringify(id)} within ${waitMs} ms; stderr: ${stderr}`));
        }, waitMs);
        waiters.add(check);
        look();
      });
    },
  };
}
