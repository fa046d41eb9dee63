import type { Hooks, Plugin, PluginInput } from "@opencode-ai/plugin";
import type { CoreOptions, CorePorts } from "../../core/config.js";
import type { AuditEvent } from "../../core/records.js";
import type { AuditSink, Guard, GuardOptions, PolicyEvaluator } from "../../guard/create-guard.js";
import { createGuard } from "../../guard/create-guard.js";
import { errorText } from "../../guard/error-text.js";
import { failClosedText } from "../../guard/fail-closed.js";
import { classifyOutput } from "./classify-output.js";
import { readOpencodeSettings } from "./opencode-settings.js";
import { isRealUserMessage } from "./opencode-signal.js";
import { SESSION_ANNOUNCEMENT } from "./opencode-stream.js";
import { suggestOpencodeRule } from "./opencode-suggest-rule.js";
import { type OpencodeDelivery, OpencodeTracker } from "./opencode-tracker.js";

/** What the plugin asks the composition root for (`openToolgate` from `toolgate/node`, bound by the entry). */
export interface OpencodeGuardRequest {
  /** the host the sessions are recorded under (`opencode`, or a host built on opencode that loads this plugin) */
  host: string;
  directory: string;
  environment: NodeJS.ProcessEnv;
  core: CoreOptions | undefined;
  /** toolgate's own policy for `tool.execute.before`; none: opencode's own permission rules decide */
  policy: PolicyEvaluator | undefined;
  ports: Partial<CorePorts>;
  classifyFailure: NonNullable<GuardOptions["classifyFailure"]>;
  warnings: { code: string; message: string }[];
  sinks: AuditSink[];
  onError: (error: unknown, where: string) => void;
}

/** The guard the root opened for the plugin, with where host-side events go and how to close it. */
export interface OpencodeGuard {
  guard: Guard;
  /** tells `toolgate run` (when it started opencode) that this session belongs to its run */
  noteSession?(sessionId: string): void;
  recordEvent(event: AuditEvent): Promise<void>;
  close(): Promise<void>;
}

export interface ToolgatePluginOptions {
  /**
   * the host recorded with the sessions (default `opencode`): a host built on opencode's plugin system loads this
   * same plugin with its own name (`["file:///.../opencode-plugin.js", { "host": "<its name>" }]` in its config)
   */
  host?: string;
  /**
   * opens the guard through the composition root (the `toolgate/opencode` entry passes `openToolgate`: config,
   * policy, store, audit); without it the plugin counts in memory with only `policy` and `sinks`
   */
  open?: (request: OpencodeGuardRequest) => Promise<OpencodeGuard>;
  /** escalation, nudge and loop options over the config's; the environment's thresholds win over both */
  core?: CoreOptions;
  /** toolgate's own policy, enforced in `tool.execute.before`; without one only opencode's denials are counted */
  policy?: PolicyEvaluator;
  /** extra audit sinks (per-denial hooks, logs) next to the store */
  sinks?: AuditSink[];
  /** `promptAsync` (default) returns at once; `prompt` waits until opencode stored the note */
  noteWith?: "promptAsync" | "prompt";
  /** stop the opencode session when toolgate aborts (true) */
  stopOnAbort?: boolean;
  /** read instead of process.env (tests) */
  environment?: NodeJS.ProcessEnv;
  /** overrides the headless detection and `TOOLGATE_INTERACTIVE` */
  interactive?: boolean;
  classifyFailure?: GuardOptions["classifyFailure"];
}

type Client = PluginInput["client"];

function deliveryFor(client: Client, options: { noteWith: "promptAsync" | "prompt"; headless: boolean }) {
  const log = (level: "warn" | "error", message: string) =>
    client.app.log({ body: { service: "toolgate", level, message } }).then(
      () => undefined,
      () => undefined,
    );
  const delivery: OpencodeDelivery = {
    async note(sessionId, text) {
      const request = {
        path: { id: sessionId },
        // noReply: stored for the model's next request without starting a turn; synthetic + metadata mark it as
        // toolgate's own, so the plugin does not mistake it for a user message (chat.message fires for it too)
        body: {
          noReply: true,
          parts: [{ type: "text" as const, text, synthetic: true, metadata: { toolgate: "nudge" } }],
        },
      };
      const result =
        options.noteWith === "prompt"
          ? await client.session.prompt(request)
          : await client.session.promptAsync(request);
      if (result.error !== undefined)
        await log("error", `toolgate could not deliver a nudge: ${JSON.stringify(result.error)}`);
    },
    async stop(sessionId) {
      await client.session.abort({ path: { id: sessionId } });
    },
    tell(line) {
      process.stderr.write(`${line}\n`);
    },
    warn(message) {
      if (options.headless) process.stderr.write(`toolgate: warning: ${message}\n`);
      void log("warn", message);
    },
  };
  return delivery;
}

/**
 * The opencode plugin: counts every real denial (deny-rule tool errors, rejected asks in both event shapes,
 * OS-level failures in tool output), resets on real user messages only, nudges through a `noReply` note, rewrites
 * denied calls' error text with escalating guidance, and blocks in `tool.execute.before` when toolgate's policy
 * denies or the run was aborted. It never turns a denial into an allow and adds nothing to the system prompt.
 */
export function createToolgatePlugin(options: ToolgatePluginOptions = {}): Plugin {
  return async (input) => {
    const host = options.host ?? "opencode";
    const environment = options.environment ?? process.env;
    const settings = readOpencodeSettings(environment);
    const interactive = options.interactive ?? settings.interactive;
    const delivery = deliveryFor(input.client, { noteWith: options.noteWith ?? "promptAsync", headless: !interactive });
    const onError = (error: unknown, where: string) => delivery.warn(`${where}: ${errorText(error)}`);
    const classifyFailure = options.classifyFailure ?? classifyOutput;
    const ports = { suggestRule: suggestOpencodeRule };
    let opened: OpencodeGuard | undefined;
    if (options.open !== undefined) {
      try {
        opened = await options.open({
          host,
          directory: input.directory,
          environment,
          core: options.core,
          policy: options.policy,
          ports,
          classifyFailure,
          warnings: [],
          sinks: options.sinks ?? [],
          onError,
        });
      } catch (error) {
        onError(error, "toolgate config or store (denials are counted, not recorded)");
      }
    }
    const guard =
      opened?.guard ??
      createGuard({
        ...(options.core === undefined ? {} : { core: options.core }),
        sinks: options.sinks ?? [],
        ports,
        ...(options.policy === undefined ? {} : { policy: options.policy }),
        classifyFailure,
        onError,
      });
    const tracker = new OpencodeTracker({
      host,
      openSession: (sessionId, sessionOptions) => guard.session(sessionId, sessionOptions),
      interactive,
      delivery,
      stopOnAbort: options.stopOnAbort ?? true,
      async onHostStopped(stop) {
        const state = await guard.session(stop.sessionId, { interactive, host }).state();
        await opened?.recordEvent({
          kind: "run.aborted",
          sessionId: stop.sessionId,
          turn: state.turn,
          at: Date.now(),
          tool: stop.tool,
          toolUseId: stop.toolUseId,
          detail: { reason: "host-stopped", error: stop.line, pattern: stop.pattern, ruleToAdd: stop.ruleToAdd },
        });
      },
    });
    const announce = (options.environment ?? process.env).TOOLGATE_RUN === "1";
    return toolgateHooks({ tracker, guard, opened, announce });
  };
}

function toolgateHooks(options: {
  tracker: OpencodeTracker;
  guard: { drain(): Promise<void> };
  opened: OpencodeGuard | undefined;
  /** under `toolgate run`: write the session id to stdout once, so the run can find the session's records */
  announce: boolean;
}): Hooks {
  const { tracker } = options;
  const announced = new Set<string>();
  return {
    event: async ({ event }) => tracker.onEvent(event),
    "chat.message": async (input, output) => {
      if (!isRealUserMessage(output)) return;
      options.opened?.noteSession?.(input.sessionID);
      if (options.announce && announced.size === 0 && !announced.has(input.sessionID)) {
        announced.add(input.sessionID);
        process.stdout.write(`${JSON.stringify({ type: SESSION_ANNOUNCEMENT, sessionID: input.sessionID })}\n`);
      }
      await tracker.onUserMessage(input.sessionID);
    },
    "tool.execute.before": async (input, output) => {
      let text: string | undefined;
      try {
        text = await tracker.beforeTool({
          sessionId: input.sessionID,
          callId: input.callID,
          tool: input.tool,
          input: output.args,
        });
      } catch (error) {
        // fail closed: an internal error never lets a call through that toolgate was asked to check
        text = `[toolgate] ${failClosedText(error, "tool.execute.before")}`;
      }
      if (text !== undefined) throw new Error(text);
    },
    "tool.execute.after": async (input, output) => {
      const metadata = output.metadata as { exit?: unknown } | undefined;
      await tracker.afterTool({
        sessionId: input.sessionID,
        callId: input.callID,
        tool: input.tool,
        input: input.args,
        output: typeof output.output === "string" ? output.output : "",
        ...(typeof metadata?.exit === "number" ? { exitCode: metadata.exit } : {}),
      });
    },
    "experimental.chat.messages.transform": async (_input, output) => {
      for (const message of output.messages) {
        for (const part of message.parts) {
          if (part.type !== "tool" || part.state.status !== "error") continue;
          const guidance = tracker.guidanceFor(part.callID);
          if (guidance !== undefined && !part.state.error.includes(guidance)) {
            part.state.error = `${part.state.error}\n\n${guidance}`;
          }
        }
      }
    },
    dispose: async () => {
      await options.guard.drain();
      await options.opened?.close();
    },
  };
}
