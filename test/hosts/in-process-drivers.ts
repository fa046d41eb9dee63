import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { PluginInput } from "@opencode-ai/plugin";
import { tool } from "ai";
import { z } from "zod";
import type { Guard } from "../../src/guard/create-guard.js";
import { AcpSessionGate } from "../../src/hosts/acp/acp-session-gate.js";
import { openToolgateForAiSdk } from "../../src/hosts/ai-sdk/ai-sdk-entry.js";
import { guardTools } from "../../src/hosts/ai-sdk/guard-tools.js";
import { guardCanUseTool } from "../../src/hosts/claude-agent-sdk/guard-can-use-tool.js";
import { guardHooks } from "../../src/hosts/claude-agent-sdk/guard-hooks.js";
import { createClinePlugin } from "../../src/hosts/cline/cline-plugin.js";
import {
  type ClineBeforeToolContext,
  type ClinePlugin,
  createClinePlugin as createClinePluginAround,
} from "../../src/hosts/cline/create-cline-plugin.js";
import { guardMcpToolCall } from "../../src/hosts/mcp/guard-mcp-tool-call.js";
import { createToolgatePlugin as createPluginAround } from "../../src/hosts/opencode/create-toolgate-plugin.js";
import { createToolgatePlugin } from "../../src/hosts/opencode/opencode-plugin.js";
import { createPiExtension } from "../../src/hosts/pi/create-pi-extension.js";
import { createToolgateExtension } from "../../src/hosts/pi/pi-entry.js";
import type { PiExtension } from "../../src/hosts/pi/pi-extension-api.js";
import { createPolicy } from "../../src/root/create-policy.js";
import { openToolgate } from "../../src/root/open-toolgate.js";
import { startEditor } from "../e2e/acp/acp-editor.js";
import { toolgateCommand } from "../e2e/claude/toolgate-cli.js";
import { LENIENT_SERVER, type Sandbox, startRawProxy } from "../mcp/proxy-session.js";

/**
 * What the host contract suite needs to speak to a host that is not a command hook: an in-process host (the opencode
 * plugin, the Claude Agent SDK wrappers, the AI SDK wrapper) or the MCP proxy. Each driver speaks the host's own
 * protocol (opencode's hooks, the Agent SDK's PreToolUse hook and `canUseTool`, the AI SDK's `needsApproval` and
 * `execute`, JSON-RPC lines to `toolgate mcp-proxy`) and reads the host's own answer. One entry per registered
 * in-process or proxy host: the suite fails for one that has none.
 */
export interface ContractDriver {
  /** the toolgate rule that denies the driver's call (`Bash(rm *)` for a shell tool, the MCP tool's own name) */
  denyRule: string;
  /** the call's identity as its records must carry it: the host's own tool name, the canonical tool and family */
  recorded: { tool: string; canonicalTool: string; toolFamily: string };
  /** a command the rule does not deny, when the host has such a call (the proxy's only tool is denied) */
  allowedCommand?: string;
  /**
   * how an abort ends the run under `toolgate run`: the host writes the run's abort marker, or it ends the run by
   * itself in its own answer (a host with no entry that opens toolgate: the app wires the session)
   */
  underRun: "abort-marker" | { endsItself: string };
  /** the host's own code around a guard the suite made (a counting state store, an audit sink of its own) */
  around(guard: Guard, sessionId: string): Promise<DrivenHost>;
  /** the host through its entry: the composition root with the config file in `cwd`, the store and `env` */
  entry(options: EntryOptions): Promise<DrivenHost>;
}

export interface EntryOptions {
  cwd: string;
  home: string;
  env: Record<string, string | undefined>;
  sessionId: string;
}

/** The host's answer as the model or the host reads it. */
export interface Verdict {
  behavior: "deny" | "allow" | "ask" | "none";
  text: string;
}

export interface DrivenHost {
  /** the session the records are filed under */
  sessionId(): string;
  /**
   * One gating event for the driver's call with this command; `onRun` is called where the host would run the tool
   * (after toolgate let it through), before anything that reports the outcome.
   */
  call(options: { command: string; callId: string; onRun?: () => void }): Promise<Verdict>;
  /** every malformed input the host can receive, answered one by one; `ran`: the tool ran (or was forwarded) */
  malformed(): Promise<{ what: string; verdict: Verdict; ran: boolean }[]>;
  /** how many times toolgate told the host itself to stop (a session stopped, an interrupt, an abort callback) */
  stops(): number;
  close(): Promise<void>;
}

const allowed: Verdict = { behavior: "allow", text: "" };

/** A thrown error as the host shows it: opencode and the AI SDK show a throwing hook or tool as the call's error. */
function thrownVerdict(error: unknown): Verdict {
  return { behavior: "deny", text: error instanceof Error ? error.message : String(error) };
}

// ---------------------------------------------------------------------------------------------------------- opencode

/** opencode's SDK client, as far as the plugin uses it: logs, notes and the session stop, each answered. */
function fakeOpencodeClient() {
  let stopped = 0;
  const client = {
    app: { log: async () => ({ data: true }) },
    session: {
      promptAsync: async () => ({ data: undefined }),
      prompt: async () => ({ data: undefined }),
      abort: async () => {
        stopped += 1;
        return { data: true };
      },
    },
  };
  return { client, stopped: () => stopped };
}

type OpencodeHooks = Awaited<ReturnType<ReturnType<typeof createToolgatePlugin>>>;

function drivenOpencode(hooks: OpencodeHooks, sessionId: string, stopped: () => number): DrivenHost {
  const before = hooks["tool.execute.before"];
  if (before === undefined) throw new Error("the opencode plugin has no tool.execute.before hook");
  const gate = async (tool: unknown, callId: unknown, args: unknown, session: unknown = sessionId) => {
    try {
      await before(
        { tool, sessionID: session, callID: callId } as Parameters<typeof before>[0],
        { args } as Parameters<typeof before>[1],
      );
      return allowed;
    } catch (error) {
      return thrownVerdict(error);
    }
  };
  return {
    sessionId: () => sessionId,
    async call({ command, callId, onRun }) {
      const verdict = await gate("bash", callId, { command });
      if (verdict.behavior === "allow") onRun?.();
      return verdict;
    },
    async malformed() {
      const cases: [string, unknown, unknown][] = [
        ["args a string", "bash", "rm -rf /"],
        ["args null", "bash", null],
        ["args an array", "bash", ["rm", "-rf", "/"]],
        ["command a number", "bash", { command: 7 }],
        ["no tool name", undefined, { command: "rm -rf /" }],
        ["tool name a number", 42, { command: "rm -rf /" }],
      ];
      const answered = [];
      for (const [index, [what, tool, args]] of cases.entries()) {
        const verdict = await gate(tool, `bad-${index}`, args);
        answered.push({ what, verdict, ran: verdict.behavior === "allow" });
      }
      return answered;
    },
    stops: stopped,
    close: async () => {
      await hooks.dispose?.();
    },
  };
}

const opencodeDriver: ContractDriver = {
  denyRule: "Bash(rm *)",
  recorded: { tool: "bash", canonicalTool: "shell", toolFamily: "shell" },
  allowedCommand: "ls -la",
  underRun: "abort-marker",
  async around(guard, sessionId) {
    const { client, stopped } = fakeOpencodeClient();
    const plugin = createPluginAround({
      open: async () => ({ guard, recordEvent: async () => undefined, close: async () => undefined }),
      environment: {},
      interactive: false,
    });
    const hooks = await plugin({ client, directory: "/", worktree: "/" } as unknown as PluginInput);
    return drivenOpencode(hooks, sessionId, stopped);
  },
  async entry({ cwd, home, env, sessionId }) {
    const { client, stopped } = fakeOpencodeClient();
    // toolgate's own rules apply inside opencode when a policy is given (docs/opencode.md)
    const policy = createPolicy({ cwd, homeDir: home, env, claudeSettings: false });
    const plugin = createToolgatePlugin({ environment: env as NodeJS.ProcessEnv, interactive: false, policy });
    const hooks = await plugin({ client, directory: cwd, worktree: cwd } as unknown as PluginInput);
    return drivenOpencode(hooks, sessionId, stopped);
  },
};

// -------------------------------------------------------------------------------------------------------------- Kilo

/** Kilo CLI loads toolgate's opencode plugin as it is, named `kilo` through the plugin options Kilo passes it. */
const kiloDriver: ContractDriver = {
  ...opencodeDriver,
  async around(guard, sessionId) {
    const { client, stopped } = fakeOpencodeClient();
    const plugin = createPluginAround({
      host: "kilo",
      open: async () => ({ guard, recordEvent: async () => undefined, close: async () => undefined }),
      environment: {},
      interactive: false,
    });
    const hooks = await plugin({ client, directory: "/", worktree: "/" } as unknown as PluginInput);
    return drivenOpencode(hooks, sessionId, stopped);
  },
  async entry({ cwd, home, env, sessionId }) {
    const { client, stopped } = fakeOpencodeClient();
    const policy = createPolicy({ cwd, homeDir: home, env, claudeSettings: false });
    const plugin = createToolgatePlugin({
      host: "kilo",
      environment: env as NodeJS.ProcessEnv,
      interactive: false,
      policy,
    });
    const hooks = await plugin({ client, directory: cwd, worktree: cwd } as unknown as PluginInput);
    return drivenOpencode(hooks, sessionId, stopped);
  },
};

// ------------------------------------------------------------------------------------------------ Claude Agent SDK

type Session = ReturnType<Guard["session"]>;

/**
 * The Agent SDK as toolgate's docs wire it: `guardHooks` (PreToolUse decides first) and `guardCanUseTool` on the same
 * session. The driver's gating event is the PreToolUse hook; a call it lets through runs (the SDK's own settings
 * allow it). Malformed input is sent to both the hook and `canUseTool`.
 */
function drivenAgentSdk(session: Session, sessionId: string, close: () => Promise<void>): DrivenHost {
  let stops = 0;
  // every call after an abort is answered `continue: false` with the abort's same sentences: one stop, repeated
  const stopReasons = new Set<string>();
  const hooks = guardHooks(session);
  const preToolUse = hooks.PreToolUse?.[0]?.hooks[0];
  if (preToolUse === undefined) throw new Error("guardHooks has no PreToolUse hook");
  const canUseTool = guardCanUseTool(session, {
    inner: async (_tool, input) => ({ behavior: "allow", updatedInput: input }),
    onAbort: () => {
      stops += 1;
    },
  });
  const signal = new AbortController().signal;
  const hook = async (input: Record<string, unknown>): Promise<Verdict> => {
    let output: Record<string, unknown>;
    try {
      output = (await preToolUse(input as never, input["tool_use_id"] as string, { signal })) as Record<
        string,
        unknown
      >;
    } catch (error) {
      // a hook that throws is the SDK's hook error, not toolgate's answer
      return { behavior: "none", text: `threw: ${String(error)}` };
    }
    if (output["continue"] === false) stopReasons.add(String(output["stopReason"]));
    const specific = (output["hookSpecificOutput"] ?? {}) as Record<string, unknown>;
    const decision = specific["permissionDecision"];
    const text = String(specific["permissionDecisionReason"] ?? output["stopReason"] ?? "");
    if (decision === "deny" || decision === "allow" || decision === "ask") return { behavior: decision, text };
    return { behavior: "none", text };
  };
  const permission = async (name: unknown, input: unknown, toolUseID: unknown): Promise<Verdict> => {
    try {
      const answer = await canUseTool(
        name as string,
        input as Record<string, unknown>,
        {
          signal,
          toolUseID,
        } as Parameters<typeof canUseTool>[2],
      );
      if (answer === null) return { behavior: "none", text: "" };
      if (answer.behavior === "allow") return allowed;
      return { behavior: "deny", text: answer.message };
    } catch (error) {
      return { behavior: "none", text: `threw: ${String(error)}` };
    }
  };
  return {
    sessionId: () => sessionId,
    async call({ command, callId, onRun }) {
      const verdict = await hook({
        session_id: sessionId,
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: { command },
        tool_use_id: callId,
      });
      if (verdict.behavior !== "deny") onRun?.();
      return verdict;
    },
    async malformed() {
      const answered = [];
      const hookCases: [string, Record<string, unknown>][] = [
        ["hook: tool_input a string", { tool_name: "Bash", tool_input: "rm -rf /" }],
        ["hook: tool_input null", { tool_name: "Bash", tool_input: null }],
        ["hook: no tool_name", { tool_input: { command: "rm -rf /" } }],
        ["hook: command a number", { tool_name: "Bash", tool_input: { command: 7 } }],
      ];
      for (const [index, [what, fields]] of hookCases.entries()) {
        const verdict = await hook({
          session_id: sessionId,
          hook_event_name: "PreToolUse",
          tool_use_id: `h${index}`,
          ...fields,
        });
        // a hook that answers nothing leaves the call to the SDK's own permission flow (canUseTool): not an allow
        answered.push({ what, verdict, ran: verdict.behavior === "allow" });
      }
      const permissionCases: [string, unknown, unknown][] = [
        ["canUseTool: input a string", "Bash", "rm -rf /"],
        ["canUseTool: input null", "Bash", null],
        ["canUseTool: no tool name", undefined, { command: "rm -rf /" }],
        ["canUseTool: command a number", "Bash", { command: 7 }],
      ];
      for (const [index, [what, name, input]] of permissionCases.entries()) {
        const verdict = await permission(name, input, `p${index}`);
        answered.push({ what, verdict, ran: verdict.behavior === "allow" });
      }
      return answered;
    },
    stops: () => Math.max(stops, stopReasons.size),
    close,
  };
}

const claudeAgentSdkDriver: ContractDriver = {
  denyRule: "Bash(rm *)",
  recorded: { tool: "Bash", canonicalTool: "shell", toolFamily: "shell" },
  allowedCommand: "ls -la",
  // the wrappers take a session the app opened: through toolgate/node's openToolgate (the entry below), which notes
  // an abort for `toolgate run` whoever opened it; the abort also ends the SDK's query itself (`interrupt: true`
  // from canUseTool, `continue: false` from the hooks)
  underRun: "abort-marker",
  async around(guard, sessionId) {
    const session = guard.session(sessionId, { interactive: false, host: "claude-agent-sdk" });
    return drivenAgentSdk(session, sessionId, async () => undefined);
  },
  async entry({ cwd, home, env, sessionId }) {
    const toolgate = await openToolgate({
      host: "claude-agent-sdk",
      state: "memory",
      mirrorState: true,
      claudeSettings: false,
      cwd,
      homeDir: home,
      env,
    });
    const session = toolgate.guard.session(sessionId, { interactive: false, host: "claude-agent-sdk" });
    return drivenAgentSdk(session, sessionId, async () => {
      await session.end();
      await toolgate.close();
    });
  },
};

// ------------------------------------------------------------------------------------------------------------ AI SDK

const SHELL_INPUT = z.object({ command: z.string() });

function aiSdkTools(onRun: () => void) {
  return {
    bash: tool({
      inputSchema: SHELL_INPUT,
      execute: async () => {
        onRun();
        return "ran";
      },
    }),
  };
}

type AiSdkGuarded = ReturnType<typeof guardTools<ReturnType<typeof aiSdkTools>>>;

/**
 * The AI SDK wrapper as `generateText` drives a tool: `needsApproval` (the gating event: toolgate decides), then
 * `execute` (refused with toolgate's text as the tool's error, or run). The model's malformed calls go through the
 * same two functions with inputs the SDK may hand them (a call replayed from a history it did not validate).
 */
function drivenAiSdk(
  open: (onRun: () => void, onAbort: () => void) => AiSdkGuarded,
  sessionId: string,
  close: () => Promise<void>,
): DrivenHost {
  let stops = 0;
  let runHook: (() => void) | undefined;
  const guarded = open(
    () => runHook?.(),
    () => {
      stops += 1;
    },
  );
  const bash = guarded.tools.bash as unknown as {
    needsApproval: (input: unknown, options: { toolCallId: string; messages: unknown[] }) => Promise<boolean>;
    execute: (input: unknown, options: { toolCallId: string; messages: unknown[] }) => Promise<unknown>;
  };
  const drive = async (input: unknown, toolCallId: string, onRun?: () => void): Promise<Verdict> => {
    let ran = false;
    runHook = () => {
      ran = true;
      onRun?.();
    };
    try {
      const asks = await bash.needsApproval(input, { toolCallId, messages: [] });
      // headless: nobody answers an approval request, so the SDK never executes the call
      if (asks) return { behavior: "ask", text: "" };
      const output = await bash.execute(input, { toolCallId, messages: [] });
      return ran ? { behavior: "allow", text: String(output) } : { behavior: "none", text: String(output) };
    } catch (error) {
      return thrownVerdict(error);
    } finally {
      runHook = undefined;
    }
  };
  return {
    sessionId: () => sessionId,
    call: ({ command, callId, onRun }) => drive({ command }, callId, onRun),
    async malformed() {
      const cases: [string, unknown][] = [
        ["input a string", "rm -rf /"],
        ["input null", null],
        ["input an array", ["rm", "-rf", "/"]],
        ["command a number", { command: 7 }],
      ];
      const answered = [];
      for (const [index, [what, input]] of cases.entries()) {
        let ran = false;
        const verdict = await drive(input, `bad-${index}`, () => {
          ran = true;
        });
        answered.push({ what, verdict, ran });
      }
      return answered;
    },
    stops: () => stops,
    close,
  };
}

const aiSdkDriver: ContractDriver = {
  denyRule: "Bash(rm *)",
  recorded: { tool: "bash", canonicalTool: "shell", toolFamily: "shell" },
  allowedCommand: "ls -la",
  underRun: "abort-marker",
  async around(guard, sessionId) {
    const session = guard.session(sessionId, { interactive: false, host: "ai-sdk" });
    return drivenAiSdk(
      (onRun, onAbort) => guardTools(aiSdkTools(onRun), { session, onAbort, onError: () => undefined }),
      sessionId,
      async () => undefined,
    );
  },
  async entry({ cwd, home, env, sessionId }) {
    const toolgate = await openToolgateForAiSdk({ cwd, homeDir: home, env, sessionId });
    return drivenAiSdk(
      (onRun, onAbort) => toolgate.guardTools(aiSdkTools(onRun), { onAbort, onError: () => undefined }),
      sessionId,
      () => toolgate.close(),
    );
  },
};

// --------------------------------------------------------------------------------------------------------- MCP proxy

const MCP_SERVER = "box";

/** The MCP proxy's gating code (`guardMcpToolCall`) around a guard, with a server that runs whatever it is sent. */
function aroundMcp(guard: Guard, sessionId: string): DrivenHost {
  let stops = 0;
  const session = guard.session(sessionId, { interactive: false, host: "mcp-proxy" });
  const call = async (options: { command: string; callId: string; onRun?: () => void }): Promise<Verdict> => {
    const result = await guardMcpToolCall({
      session,
      server: MCP_SERVER,
      params: { name: "erase", arguments: { command: options.command } },
      callId: options.callId,
      forward: async () => {
        options.onRun?.();
        return { content: [{ type: "text", text: "erased everything" }] };
      },
      onAbort: () => {
        stops += 1;
      },
    });
    const text = (result.content as { text?: string }[]).map((block) => block.text ?? "").join("\n");
    return result.isError === true ? { behavior: "deny", text } : { behavior: "allow", text };
  };
  return {
    sessionId: () => sessionId,
    call,
    // the proxy reads JSON-RPC before `guardMcpToolCall` sees a call: malformed messages are the entry's case
    malformed: async () => [],
    stops: () => stops,
    close: async () => undefined,
  };
}

/**
 * Waits until this process has read what a proxy wrote to stderr before its answer on stdout. The proxy writes its
 * stop line first, but this process may handle the two pipes' data in either order within one poll of the event loop,
 * and the answer's promise runs between them: a scratch parent and child that write stderr, then stdout, saw the
 * stdout line first in 10 of 3,000 answers, and in none of 9,000 after a `setImmediate`, which runs after that poll.
 */
function bothPipesRead(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The built `toolgate mcp-proxy` in front of the lenient server (which runs any call it is sent), line by line. */
async function mcpProxyEntry({ cwd, env }: EntryOptions): Promise<DrivenHost> {
  const log = join(cwd, "server-received.jsonl");
  const sandbox = { project: cwd, env } as unknown as Sandbox;
  const proxy = startRawProxy({ sandbox, server: [process.execPath, LENIENT_SERVER, log], name: MCP_SERVER });
  const received = () => (existsSync(log) ? readFileSync(log, "utf8") : "");
  const forwardedCalls = () =>
    received()
      .split("\n")
      .filter((line) => line.toLowerCase().includes("tools/call")).length;
  let id = 0;
  const request = async (method: string, params: unknown) => {
    id += 1;
    proxy.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    return proxy.answer(id);
  };
  await request("initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "contract", version: "1" },
  });
  proxy.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  const verdictOf = (answer: Record<string, unknown>): Verdict => {
    if (answer["error"] !== undefined) return { behavior: "deny", text: JSON.stringify(answer["error"]) };
    const result = answer["result"] as { isError?: boolean; content?: { text?: string }[] } | undefined;
    const text = (result?.content ?? []).map((block) => block.text ?? "").join("\n");
    return result?.isError === true ? { behavior: "deny", text } : { behavior: "allow", text };
  };
  return {
    // the proxy names its session itself (`mcp-box-<uuid>`): the records say which
    sessionId: () => "",
    async call({ command, onRun }) {
      const before = forwardedCalls();
      const verdict = verdictOf(await request("tools/call", { name: "erase", arguments: { command } }));
      await bothPipesRead();
      if (forwardedCalls() > before) onRun?.();
      return verdict;
    },
    async malformed() {
      const answered = [];
      const lines: [string, (next: number) => string][] = [
        [
          "arguments a string",
          (n) =>
            JSON.stringify({
              jsonrpc: "2.0",
              id: n,
              method: "tools/call",
              params: { name: "erase", arguments: "rm -rf /" },
            }),
        ],
        [
          "no tool name",
          (n) =>
            JSON.stringify({
              jsonrpc: "2.0",
              id: n,
              method: "tools/call",
              params: { arguments: { command: "rm -rf /" } },
            }),
        ],
        [
          "name a number",
          (n) => JSON.stringify({ jsonrpc: "2.0", id: n, method: "tools/call", params: { name: 7, arguments: {} } }),
        ],
        ["params missing", (n) => JSON.stringify({ jsonrpc: "2.0", id: n, method: "tools/call" })],
      ];
      for (const [what, line] of lines) {
        id += 1;
        const before = forwardedCalls();
        proxy.write(line(id));
        const verdict = verdictOf(await proxy.answer(id));
        answered.push({ what, verdict, ran: forwardedCalls() > before });
      }
      // a truncated message has no id to answer: it is refused by not being forwarded; a request after it is
      // answered, so the proxy read the cut line first and went on
      const whole = JSON.stringify({
        jsonrpc: "2.0",
        id: 999,
        method: "tools/call",
        params: { name: "erase", arguments: { command: "rm -rf /" } },
      });
      for (const [what, cut] of [
        ["a truncated tools/call", whole.slice(0, Math.floor(whole.length / 2))],
        ["a tools/call without its closing brace", whole.slice(0, -1)],
      ] as const) {
        const before = forwardedCalls();
        proxy.write(cut);
        const next = await request("tools/list", {});
        const answeredCut = proxy.messages.some((message) => message["id"] === 999);
        answered.push({
          what,
          verdict: answeredCut
            ? verdictOf(proxy.messages.find((message) => message["id"] === 999) ?? {})
            : { behavior: "none" as const, text: "" },
          ran: forwardedCalls() > before || next["result"] === undefined,
        });
      }
      return answered;
    },
    // the proxy says once on stderr that toolgate stopped the session
    stops: () =>
      proxy
        .stderr()
        .split("\n")
        .filter((line) => line.startsWith("toolgate: ")).length,
    async close() {
      proxy.closeInput();
      await proxy.exited;
    },
  };
}

const mcpProxyDriver: ContractDriver = {
  denyRule: `mcp__${MCP_SERVER}__erase`,
  recorded: { tool: `mcp__${MCP_SERVER}__erase`, canonicalTool: `mcp_${MCP_SERVER}_erase`, toolFamily: "mcp" },
  underRun: "abort-marker",
  around: async (guard, sessionId) => aroundMcp(guard, sessionId),
  entry: mcpProxyEntry,
};

// --------------------------------------------------------------------------------------------------------- ACP proxy

/** The ACP proxy's gate (`AcpSessionGate`) around a guard: an agent that announces a Bash call, then asks for it. */
function aroundAcp(guard: Guard, sessionId: string): DrivenHost {
  let stops = 0;
  const gate = new AcpSessionGate({
    session: guard.session(sessionId, { interactive: false, host: "acp-proxy" }),
    headless: true,
    onAbort: () => {
      stops += 1;
    },
  });
  const options = [
    { optionId: "allow", name: "Allow", kind: "allow_once" as const },
    { optionId: "reject", name: "Reject", kind: "reject_once" as const },
  ];
  return {
    sessionId: () => sessionId,
    async call({ command, callId, onRun }) {
      await gate.update({
        sessionUpdate: "tool_call",
        toolCallId: callId,
        kind: "execute",
        rawInput: { command },
        _meta: { claudeCode: { toolName: "Bash" } },
      });
      // the person allows whatever they are asked: a refusal is toolgate's
      const answer = await gate.permission(
        { sessionId, toolCall: { toolCallId: callId, rawInput: { command } }, options },
        async () => ({ outcome: "selected", optionId: "allow" }),
      );
      const allowed = answer.outcome.outcome === "selected" && answer.outcome.optionId === "allow";
      if (allowed) onRun?.();
      return { behavior: allowed ? "allow" : "deny", text: gate.takeGuidance() };
    },
    // the SDK reads JSON-RPC before the gate sees a request: malformed messages are the entry's case
    malformed: async () => [],
    stops: () => stops,
    close: async () => undefined,
  };
}

const SCRIPTED_AGENT = join(import.meta.dirname, "..", "acp", "scripted-agent.mjs");
const ALLOWS = new Set(["allow", "allow_always"]);

/**
 * The built `toolgate acp-proxy` in front of the scripted agent (test/acp/scripted-agent.mjs), driven by an editor on
 * the SDK's client side whose person allows everything they are asked. One call is one prompt (the agent asks for the
 * call and reports the outcome it got), then a second prompt that carries what toolgate added for the model.
 */
async function acpProxyEntry({ cwd, env }: EntryOptions): Promise<DrivenHost> {
  const log = join(cwd, "agent-received.jsonl");
  const editor = startEditor({
    command: toolgateCommand("acp-proxy", "--", process.execPath, SCRIPTED_AGENT, log),
    env: env as Record<string, string>,
    cwd,
    answer: (asked) => ({
      outcome: "selected",
      optionId: asked.params.options.find((option) => option.kind === "allow_once")?.optionId ?? "none",
    }),
  });
  const session = await editor.open(cwd);
  const toolgateLines = () =>
    editor
      .stderr()
      .split("\n")
      .filter((line) => line.startsWith("toolgate: "));
  type Scripted = { outcome?: { outcome: string; optionId?: string } | null; error?: string; extra: string[] };
  const scripted = async (script: unknown): Promise<Scripted | undefined> => {
    try {
      const answer = await editor.prompt(session, JSON.stringify(script));
      return (answer._meta as { scripted?: Scripted } | undefined)?.scripted;
    } catch {
      return undefined;
    }
  };
  /** what toolgate added for the model, read from the next prompt; once the proxy is gone, what it said on stderr */
  const guidance = async () => (await scripted({}))?.extra.join("\n") ?? toolgateLines().join("\n");
  const verdictOf = async (answer: Scripted | undefined) => {
    const ran = answer?.outcome?.outcome === "selected" && ALLOWS.has(answer.outcome.optionId ?? "");
    const text = answer?.error ?? (await guidance());
    return { ran, verdict: { behavior: ran ? ("allow" as const) : ("deny" as const), text } };
  };
  return {
    sessionId: () => `acp-${session}`,
    async call({ command, callId, onRun }) {
      const { ran, verdict } = await verdictOf(await scripted({ command, callId }));
      await bothPipesRead();
      if (ran) onRun?.();
      return verdict;
    },
    async malformed() {
      const cases = [
        "rawInput a string",
        "rawInput an array",
        "rawInput null",
        "command a number",
        "no toolCall",
        "toolCallId a number",
        "cut:half",
        "cut:brace",
      ];
      const answered = [];
      for (const what of cases) {
        const { ran, verdict } = await verdictOf(await scripted({ malformed: what }));
        answered.push({
          what,
          verdict: what.startsWith("cut:") ? { behavior: "none" as const, text: "" } : verdict,
          ran,
        });
      }
      // the proxy read the cut lines, skipped them and went on: a whole call after them is still answered
      const after = await scripted({ command: "rm -rf /", callId: "after-cut" });
      answered.push({
        what: "a call after the cut lines",
        verdict: { behavior: after === undefined ? ("none" as const) : ("deny" as const), text: "" },
        ran: after?.outcome?.outcome === "selected" && ALLOWS.has(after.outcome.optionId ?? ""),
      });
      return answered;
    },
    stops: () => toolgateLines().length,
    async close() {
      await editor.close();
    },
  };
}

const acpProxyDriver: ContractDriver = {
  denyRule: "Bash(rm *)",
  recorded: { tool: "Bash", canonicalTool: "shell", toolFamily: "shell" },
  allowedCommand: "ls -la",
  underRun: "abort-marker",
  around: async (guard, sessionId) => aroundAcp(guard, sessionId),
  entry: acpProxyEntry,
};

/** One driver per registered in-process or proxy host, by registry name. */
// ---------------------------------------------------------------------------------------------------------------- pi

type PiHandler = (event: Record<string, unknown>, context: Record<string, unknown>) => Promise<unknown>;

/** pi's extension API as far as toolgate's extension uses it: the handlers it registers, called as pi calls them. */
function drivenPi(
  extension: PiExtension,
  options: { sessionId: string; cwd: string; stops: () => number },
): DrivenHost {
  const handlers = new Map<string, PiHandler>();
  extension({ on: (event: string, handler: PiHandler) => handlers.set(event, handler) } as never);
  const context = {
    hasUI: false,
    mode: "json",
    cwd: options.cwd,
    sessionManager: { getSessionId: () => options.sessionId },
  };
  const fire = (event: string, payload: Record<string, unknown>) =>
    handlers.get(event)?.({ type: event, ...payload }, context) ?? Promise.resolve(undefined);
  const gate = async (toolName: unknown, toolCallId: unknown, input: unknown): Promise<Verdict> => {
    try {
      const answer = (await fire("tool_call", { toolName, toolCallId, input })) as
        | { block?: boolean; reason?: string }
        | undefined;
      return answer?.block === true ? { behavior: "deny", text: answer.reason ?? "" } : allowed;
    } catch (error) {
      // pi blocks a call whose tool_call handler throws (`Extension failed, blocking execution`)
      return thrownVerdict(error);
    }
  };
  return {
    sessionId: () => options.sessionId,
    async call({ command, callId, onRun }) {
      const verdict = await gate("bash", callId, { command });
      if (verdict.behavior === "allow") {
        onRun?.();
        await fire("tool_result", {
          toolName: "bash",
          toolCallId: callId,
          input: { command },
          content: [{ type: "text", text: "ok" }],
          isError: false,
        });
      }
      return verdict;
    },
    async malformed() {
      const cases: [string, unknown, unknown][] = [
        ["input a string", "bash", "rm -rf /"],
        ["input null", "bash", null],
        ["input an array", "bash", ["rm", "-rf", "/"]],
        ["command a number", "bash", { command: 7 }],
        ["no tool name", undefined, { command: "rm -rf /" }],
        ["tool name a number", 42, { command: "rm -rf /" }],
      ];
      const answered = [];
      for (const [index, [what, tool, input]] of cases.entries()) {
        const verdict = await gate(tool, `bad-${index}`, input);
        answered.push({ what, verdict, ran: verdict.behavior === "allow" });
      }
      return answered;
    },
    stops: options.stops,
    close: async () => {
      await fire("session_shutdown", { reason: "quit" });
    },
  };
}

const piDriver: ContractDriver = {
  denyRule: "Bash(rm *)",
  recorded: { tool: "bash", canonicalTool: "shell", toolFamily: "shell" },
  allowedCommand: "ls -la",
  underRun: "abort-marker",
  async around(guard, sessionId) {
    let stops = 0;
    const extension = createPiExtension({
      open: async () => ({ guard, close: async () => undefined }),
      interactive: false,
      onStop: () => {
        stops += 1;
      },
      onError: () => undefined,
    });
    return drivenPi(extension, { sessionId, cwd: "/", stops: () => stops });
  },
  async entry({ cwd, env, sessionId }) {
    let stops = 0;
    const extension = createToolgateExtension({
      environment: env,
      interactive: false,
      onStop: () => {
        stops += 1;
      },
      onError: () => undefined,
    });
    return drivenPi(extension, { sessionId, cwd, stops: () => stops });
  },
};

// ------------------------------------------------------------------------------------------------------------- Cline

/**
 * Cline's plugin as Cline 3.0.65 drives it: `setup` with the session, then `beforeTool` per call (the gating event:
 * `skip` refuses the call, `stop` ends the run, `policy.autoApprove: false` makes Cline ask), `afterTool` once the
 * call ran. Malformed input is what `beforeTool` may be handed.
 */
async function drivenCline(plugin: ClinePlugin, sessionId: string, cwd?: string): Promise<DrivenHost> {
  await plugin.setup(
    {},
    { session: { sessionId }, ...(cwd === undefined ? {} : { workspaceInfo: { rootPath: cwd } }) },
  );
  let stops = 0;
  const gate = async (context: ClineBeforeToolContext, onRun?: () => void): Promise<Verdict> => {
    try {
      const answer = await plugin.hooks.beforeTool(context);
      if (answer?.stop === true) stops += 1;
      if (answer?.skip === true) return { behavior: "deny", text: answer.reason ?? "" };
      if (answer?.policy?.autoApprove === false) return { behavior: "ask", text: "" };
      onRun?.();
      await plugin.hooks.afterTool({ ...context, result: { output: [{ query: "", result: "ran", success: true }] } });
      return { behavior: "allow", text: "" };
    } catch (error) {
      return { behavior: "none", text: `threw: ${String(error)}` };
    }
  };
  const snapshot = { agentId: "agent_1", conversationId: "conv_1" };
  return {
    sessionId: () => sessionId,
    call: ({ command, callId, onRun }) =>
      gate(
        {
          snapshot,
          toolCall: { toolCallId: callId, toolName: "run_commands", input: { commands: [command] } },
          input: { commands: [command] },
        },
        onRun,
      ),
    async malformed() {
      const cases: [string, ClineBeforeToolContext][] = [
        ["input a string", { snapshot, toolCall: { toolCallId: "m1", toolName: "run_commands" }, input: "rm -rf /" }],
        ["input null", { snapshot, toolCall: { toolCallId: "m2", toolName: "run_commands" }, input: null }],
        [
          "commands a string",
          { snapshot, toolCall: { toolCallId: "m3", toolName: "run_commands" }, input: { commands: "rm -rf /" } },
        ],
        [
          "a command a number",
          { snapshot, toolCall: { toolCallId: "m4", toolName: "run_commands" }, input: { commands: [7] } },
        ],
        ["no tool name", { snapshot, toolCall: { toolCallId: "m5" }, input: { commands: ["rm -rf /"] } }],
        [
          "tool name a number",
          { snapshot, toolCall: { toolCallId: "m6", toolName: 42 }, input: { commands: ["rm -rf /"] } },
        ],
        ["no tool call", { snapshot, input: { commands: ["rm -rf /"] } } as ClineBeforeToolContext],
      ];
      const answered = [];
      for (const [what, context] of cases) {
        let ran = false;
        const verdict = await gate(context, () => {
          ran = true;
        });
        answered.push({ what, verdict, ran });
      }
      return answered;
    },
    stops: () => stops,
    close: () => plugin.dispose(),
  };
}

const clineDriver: ContractDriver = {
  denyRule: "Bash(rm *)",
  recorded: { tool: "run_commands", canonicalTool: "shell", toolFamily: "shell" },
  allowedCommand: "ls -la",
  underRun: "abort-marker",
  around(guard, sessionId) {
    const plugin = createClinePluginAround({
      open: async () => ({ guard, close: async () => undefined }),
      environment: {},
      interactive: false,
      tell: () => undefined,
    });
    return drivenCline(plugin, sessionId);
  },
  entry({ cwd, env, sessionId }) {
    const plugin = createClinePlugin({
      environment: env as NodeJS.ProcessEnv,
      interactive: false,
      tell: () => undefined,
    });
    return drivenCline(plugin, sessionId, cwd);
  },
};

export const CONTRACT_DRIVERS: Readonly<Record<string, ContractDriver>> = {
  opencode: opencodeDriver,
  "claude-agent-sdk": claudeAgentSdkDriver,
  "ai-sdk": aiSdkDriver,
  "mcp-proxy": mcpProxyDriver,
  pi: piDriver,
  kilo: kiloDriver,
  cline: clineDriver,
  "acp-proxy": acpProxyDriver,
};
