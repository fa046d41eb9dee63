/**
 * A scripted editor for the ACP end-to-end suites: the official SDK's client side (`@agentclientprotocol/sdk`),
 * speaking newline-delimited JSON-RPC over the stdio of a command it starts (the real agent, or `toolgate acp-proxy`
 * in front of it, or `toolgate run` around that). Every permission request the agent (or the proxy) sends is kept
 * with the request id it came under and answered by `answer`; every `session/update` is kept. Only the process
 * started here is ever killed.
 */
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

export interface PermissionAsked {
  /** the JSON-RPC id the request came under on the editor's connection */
  requestId: acp.JsonRpcId;
  params: acp.RequestPermissionRequest;
}

export type Answer = (asked: PermissionAsked, index: number) => acp.RequestPermissionOutcome;

export interface Editor {
  asked: PermissionAsked[];
  updates: acp.SessionNotification[];
  /** `initialize`, then `session/new` in `cwd`: the agent's session id */
  open(cwd: string): Promise<string>;
  /** another `session/new` on the same connection */
  newSession(cwd: string): Promise<string>;
  prompt(sessionId: string, text: string): Promise<acp.PromptResponse>;
  /** closes stdin and waits for the command to exit (SIGKILL after `timeoutMs`) */
  close(timeoutMs?: number): Promise<{ exitCode: number | null; stderr: string }>;
  /** the command's exit, whenever it comes */
  exited: Promise<{ exitCode: number | null; stderr: string }>;
  stderr(): string;
}

export function startEditor(options: {
  command: string[];
  env: Record<string, string>;
  cwd: string;
  answer: Answer;
}): Editor {
  const [command, ...args] = options.command as [string, ...string[]];
  // its own process group: a command that leaves helpers behind (codex-acp) is ended with them
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ["pipe", "pipe", "pipe"],
    detached: true,
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ exitCode: number | null; stderr: string }>((resolve) => {
    child.once("close", (code) => resolve({ exitCode: code, stderr }));
  });
  const asked: PermissionAsked[] = [];
  const updates: acp.SessionNotification[] = [];
  const connection = acp
    .client({ name: "toolgate-e2e-editor" })
    .onRequest("session/request_permission", ({ params, requestId }) => {
      const entry = { requestId, params };
      asked.push(entry);
      return { outcome: options.answer(entry, asked.length - 1) };
    })
    .onNotification("session/update", ({ params }) => {
      updates.push(params);
    })
    .connect(
      acp.ndJsonStream(
        Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
        Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
      ),
    );
  const agent = connection.agent;
  return {
    asked,
    updates,
    async open(cwd) {
      await agent.request("initialize", {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
      });
      const session = await agent.request("session/new", { cwd, mcpServers: [] });
      return session.sessionId;
    },
    async newSession(cwd) {
      return (await agent.request("session/new", { cwd, mcpServers: [] })).sessionId;
    },
    prompt: (sessionId, text) => agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] }),
    stderr: () => stderr,
    exited,
    async close(timeoutMs = 5_000) {
      connection.close();
      child.stdin.end();
      const timer = setTimeout(() => {
        try {
          if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
        } catch {
          // the group is gone already
        }
      }, timeoutMs);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** Picks the option of `kind` the request offers (its id), or toolgate's grant option (`grant`). */
export function choose(asked: PermissionAsked, kind: acp.PermissionOptionKind | "grant"): acp.RequestPermissionOutcome {
  const option =
    kind === "grant"
      ? asked.params.options.find((candidate) => candidate.optionId.startsWith("toolgate-grant:"))
      : asked.params.options.find((candidate) => candidate.kind === kind);
  if (option === undefined) throw new Error(`no ${kind} option in ${JSON.stringify(asked.params.options)}`);
  return { outcome: "selected", optionId: option.optionId };
}
