import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hookHostLoader } from "./hook-hosts.js";
import { answerHookRequest, type HookServerRequest, startHookServer } from "./hook-server.js";
import { runHook } from "./run-hook.js";

const TOKEN = "a".repeat(48);

/** One request as the bash client sends it; resolves to what came back before the server closed the connection. */
function send(port: number, bytes: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
    socket.write(bytes);
  });
}

function request(options: {
  token?: string;
  pid?: string;
  cwd: string;
  argv: string[];
  env: Record<string, string>;
  stdin: string;
}): Buffer {
  const stdin = Buffer.from(options.stdin, "utf8");
  const fields = [
    options.pid ?? "4242",
    options.cwd,
    String(options.argv.length),
    ...options.argv,
    ...Object.entries(options.env).map(([name, value]) => `${name}=${value}`),
    "",
  ];
  return Buffer.concat([
    Buffer.from(`toolgate-hook/1 ${options.token ?? TOKEN} ${stdin.length}\n`),
    Buffer.from(fields.map((field) => `${field}\0`).join(""), "utf8"),
    stdin,
  ]);
}

describe("the resident hook server's wire format", () => {
  it("hands the handler the request as the client sent it, and the answer back framed", async () => {
    let seen: HookServerRequest | undefined;
    const server = await startHookServer({
      token: TOKEN,
      idleMs: 60_000,
      answer: async (given) => {
        seen = given;
        return { exitCode: 2, stdout: "out é\n", stderr: "err\n" };
      },
    });
    try {
      const stdin = '{"hook_event_name":"PreToolUse","x":"\u00e9\\n"}';
      const answer = await send(
        server.port,
        request({
          cwd: "/some where",
          argv: ["hook", "codex", ""],
          env: { HOME: "/h", MULTI: "a\nb=c" },
          stdin,
        }),
      );
      expect(seen).toEqual({
        hostPid: 4242,
        cwd: "/some where",
        argv: ["hook", "codex", ""],
        env: { HOME: "/h", MULTI: "a\nb=c" },
        stdinText: stdin,
      });
      // byte counts, not characters
      expect(answer).toBe("2 7 4\nout é\nerr\n");
    } finally {
      await server.close();
    }
  });

  it("closes a request with a wrong token, protocol or body unanswered (the client then runs the Node hook)", async () => {
    let calls = 0;
    const server = await startHookServer({
      token: TOKEN,
      idleMs: 60_000,
      requestTimeoutMs: 300,
      answer: async () => {
        calls += 1;
        return { exitCode: 0, stdout: "", stderr: "" };
      },
    });
    try {
      const good = { cwd: "/", argv: ["hook", "claude-code"], env: {}, stdin: "{}" };
      expect(await send(server.port, request({ ...good, token: "b".repeat(48) }))).toBe("");
      expect(await send(server.port, request({ ...good, token: TOKEN.slice(1) }))).toBe("");
      expect(await send(server.port, Buffer.from(`toolgate-hook/2 ${TOKEN} 2\n/\x000\x00\x00{}`))).toBe("");
      expect(await send(server.port, Buffer.from(`toolgate-hook/1 ${TOKEN} x\n`))).toBe("");
      // an argument count past the fields there are: never complete, closed after the request timeout
      expect(await send(server.port, Buffer.from(`toolgate-hook/1 ${TOKEN} 2\n1\x00/\x009\x00hook\x00\x00{}`))).toBe(
        "",
      );
      expect(calls).toBe(0);
      expect(await send(server.port, request(good))).toBe("0 0 0\n");
      expect(calls).toBe(1);
    } finally {
      await server.close();
    }
  });

  it("reports its CPU time to a query with the token only", async () => {
    const server = await startHookServer({ token: TOKEN, idleMs: 60_000 });
    try {
      expect(await send(server.port, Buffer.from(`toolgate-hook/1 ${TOKEN} cpu\n`))).toMatch(/^cpu \d+\n$/);
      expect(await send(server.port, Buffer.from(`toolgate-hook/1 ${"c".repeat(48)} cpu\n`))).toBe("");
    } finally {
      await server.close();
    }
  });

  it("stops at a stop query with the token only, and says so", async () => {
    let stopped: string | undefined;
    const server = await startHookServer({ token: TOKEN, idleMs: 60_000, onStop: (why) => (stopped = why) });
    try {
      expect(await send(server.port, Buffer.from(`toolgate-hook/1 ${"c".repeat(48)} stop\n`))).toBe("");
      expect(stopped).toBeUndefined();
      expect(await send(server.port, Buffer.from(`toolgate-hook/1 ${TOKEN} cpu\n`))).toMatch(/^cpu \d+\n$/);
      expect(await send(server.port, Buffer.from(`toolgate-hook/1 ${TOKEN} stop\n`))).toBe("stopped\n");
      expect(stopped).toBe("closed");
    } finally {
      await server.close();
    }
  });

  it("stops, unanswered, at the first request after its install changed", async () => {
    let current = true;
    let stopped: string | undefined;
    const server = await startHookServer({
      token: TOKEN,
      idleMs: 60_000,
      current: () => current,
      answer: async () => ({ exitCode: 0, stdout: "", stderr: "" }),
      onStop: (why) => {
        stopped = why;
      },
    });
    const good = request({ cwd: "/", argv: ["hook", "claude-code"], env: {}, stdin: "{}" });
    expect(await send(server.port, good)).toBe("0 0 0\n");
    current = false;
    expect(await send(server.port, good)).toBe("");
    expect(stopped).toBe("stale");
    await expect(send(server.port, good)).rejects.toThrow(/ECONNREFUSED/);
  });

  it("stops once no request came for its idle time", async () => {
    let stopped: string | undefined;
    await startHookServer({
      token: TOKEN,
      idleMs: 50,
      onStop: (why) => {
        stopped = why;
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stopped).toBe("idle");
  });
});

describe("the resident hook server's answers", () => {
  let root: string;
  let project: string;
  let env: Record<string, string>;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "toolgate-hook-server-"));
    project = join(root, "project");
    mkdirSync(join(project, ".claude"), { recursive: true });
    writeFileSync(join(project, ".claude", "settings.json"), JSON.stringify({ permissions: { deny: ["Bash(rm:*)"] } }));
    mkdirSync(join(root, "home"));
    env = { HOME: join(root, "home"), CLAUDE_CODE_SESSION_ATTENDED: "0", TOOLGATE_DB: "off" };
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const event = (session: string, fields: Record<string, unknown>) =>
    JSON.stringify({ session_id: session, cwd: project, permission_mode: "default", ...fields });
  const bash = (command: string, id: string) => ({
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command },
    tool_use_id: id,
  });

  it("are the hook process's, event by event, the session's state carried between them", async () => {
    const host = await hookHostLoader("claude-code")!();
    const cases = [
      (session: string) => event(session, bash("ls -la", "toolu_1")),
      (session: string) => event(session, bash("rm -rf build", "toolu_2")),
      (session: string) => event(session, bash("rm -rf build", "toolu_3")),
      () => "{not json",
      (session: string) =>
        event(session, {
          hook_event_name: "PostToolUseFailure",
          tool_name: "Bash",
          tool_input: { command: "cat /root/x" },
          tool_use_id: "toolu_4",
          error: "Exit code 1\ncat: /root/x: Permission denied",
        }),
    ];
    for (const input of cases) {
      const direct = await runHook(host, { stdinText: input("direct"), env, onError: () => undefined });
      const served = await answerHookRequest(
        { hostPid: undefined, cwd: project, argv: ["hook", "claude-code"], env, stdinText: input("served") },
        () => undefined,
      );
      expect(served.exitCode).toBe(direct.exitCode);
      expect(served.stdout).toBe(direct.output === undefined ? "" : `${JSON.stringify(direct.output)}\n`);
      if (direct.stderr !== undefined) expect(served.stderr).toContain(direct.stderr);
    }
  });

  it("blocks an unknown host as the hook process does (exit 2, the hosts it knows)", async () => {
    const served = await answerHookRequest(
      { hostPid: undefined, cwd: project, argv: ["hook", "nope"], env, stdinText: "{}" },
      () => undefined,
    );
    expect(served.exitCode).toBe(2);
    expect(served.stderr).toMatch(/unknown host "nope"\. Supported: .*claude-code/);
  });
});
