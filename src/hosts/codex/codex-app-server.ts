import { spawn } from "node:child_process";

/** One hook as Codex's app-server lists it (`hooks/list`, Codex 0.169.0). */
export interface CodexListedHook {
  key: string;
  eventName: string;
  command: string | null;
  sourcePath: string;
  source: string;
  enabled: boolean;
  isManaged: boolean;
  currentHash: string;
  trustStatus: string;
}

/** How long one app-server exchange may take before it is given up (the child is killed). */
const APP_SERVER_TIMEOUT_MS = 30_000;

/**
 * Talks to `codex app-server` (JSON-RPC over stdio), the interface Codex itself offers for this: `hooks/list` gives
 * each hook with its key, its current hash and its trust status; `config/batchWrite` of `hooks.state` records a
 * hook as trusted. toolgate never computes a hook's hash itself.
 */
async function withAppServer<T>(
  options: { codex: string; env: Readonly<Record<string, string | undefined>>; timeoutMs?: number },
  work: (request: (method: string, params: unknown) => Promise<unknown>) => Promise<T>,
): Promise<T> {
  const child = spawn(options.codex, ["app-server"], {
    env: { ...(options.env as NodeJS.ProcessEnv) },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let next = 0;
  let buffer = "";
  let stderr = "";
  const failAll = (error: Error) => {
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  };
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    if (stderr.length < 4000) stderr += chunk;
  });
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    buffer += chunk;
    for (let end = buffer.indexOf("\n"); end >= 0; end = buffer.indexOf("\n")) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
      let message: { id?: unknown; result?: unknown; error?: { message?: string } };
      try {
        message = JSON.parse(line) as typeof message;
      } catch {
        continue;
      }
      if (typeof message.id !== "number") continue;
      const waiter = pending.get(message.id);
      if (waiter === undefined) continue;
      pending.delete(message.id);
      if (message.error !== undefined) waiter.reject(new Error(message.error.message ?? "app-server error"));
      else waiter.resolve(message.result);
    }
  });
  child.once("error", (error) => failAll(error));
  child.once("close", () => failAll(new Error(`codex app-server exited (${stderr.trim().split("\n").at(-1) ?? ""})`)));
  const timer = setTimeout(() => {
    failAll(new Error(`codex app-server did not answer within ${options.timeoutMs ?? APP_SERVER_TIMEOUT_MS} ms`));
    child.kill("SIGKILL");
  }, options.timeoutMs ?? APP_SERVER_TIMEOUT_MS);
  const request = (method: string, params: unknown) =>
    new Promise<unknown>((resolve, reject) => {
      next += 1;
      pending.set(next, { resolve, reject });
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: next, method, params })}\n`);
    });
  try {
    await request("initialize", {
      clientInfo: { name: "toolgate", version: "1" },
      capabilities: { experimentalApi: true },
    });
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "initialized" })}\n`);
    return await work(request);
  } finally {
    clearTimeout(timer);
    child.stdin.end();
    child.kill("SIGTERM");
  }
}

/** The hooks Codex discovers for a project folder (user, project and managed ones), as Codex sees them. */
export async function listCodexHooks(options: {
  codex: string;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  timeoutMs?: number;
}): Promise<CodexListedHook[]> {
  return withAppServer(options, async (request) => {
    const result = (await request("hooks/list", { cwds: [options.cwd] })) as { data?: { hooks?: CodexListedHook[] }[] };
    return (result.data ?? []).flatMap((entry) => entry.hooks ?? []);
  });
}

/**
 * Marks the given hooks trusted at the hash Codex reports for them now, through Codex's own config write; returns the
 * hooks as Codex lists them afterwards. Only the hooks `select` picks are trusted.
 */
export async function trustCodexHooks(options: {
  codex: string;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  select: (hook: CodexListedHook) => boolean;
  timeoutMs?: number;
}): Promise<{ trusted: CodexListedHook[]; after: CodexListedHook[] }> {
  return withAppServer(options, async (request) => {
    const list = async () =>
      (
        ((await request("hooks/list", { cwds: [options.cwd] })) as { data?: { hooks?: CodexListedHook[] }[] }).data ??
        []
      ).flatMap((entry) => entry.hooks ?? []);
    const chosen = (await list()).filter((hook) => options.select(hook) && hook.trustStatus !== "trusted");
    if (chosen.length > 0) {
      const value = Object.fromEntries(chosen.map((hook) => [hook.key, { trusted_hash: hook.currentHash }]));
      await request("config/batchWrite", { edits: [{ keyPath: "hooks.state", value, mergeStrategy: "upsert" }] });
    }
    return { trusted: chosen, after: await list() };
  });
}
