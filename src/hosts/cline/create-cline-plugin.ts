import type { CoreOptions } from "../../core/config.js";
import type { ToolCall } from "../../core/events.js";
import { recognizeDenial } from "../../detect/recognize-denial.js";
import type { AuditSink, Guard, PolicyEvaluator } from "../../guard/create-guard.js";
import { createGuard } from "../../guard/create-guard.js";
import { errorText } from "../../guard/error-text.js";
import { failClosedText } from "../../guard/fail-closed.js";
import type { GuardSession } from "../../guard/types.js";
import { clineCommandFailed, clineResultText, readClineCall } from "./cline-call.js";
import { CLINE_DENIAL_TEXTS } from "./cline-denial-texts.js";
import { clineErrorText } from "./cline-error-text.js";
import { type ClineStop, createStopControl } from "./cline-stop.js";
import { decideClineCalls } from "./decide-cline-calls.js";

/**
 * The Cline plugin (Cline 3.0.x loads `.cline/plugins/*.js` and `~/.cline/plugins/*.js` in a Node sandbox process,
 * one per run): `beforeTool` asks toolgate's guard and refuses a call with `{ skip: true, reason }` (Cline hands the
 * model `{"error": "<reason>"}` as the call's result and the run goes on); a call that acts on several things (files,
 * URLs) is decided one thing at a time, and refused at the first refusal. At toolgate's abort, whichever hook it
 * appears in (`beforeTool`, `afterTool`, `beforeRun`), that hook, or the next one that can, answers `{ stop: true }`
 * (Cline ends the run, `finishReason: "aborted"`, exit 0: `toolgate run` exits 6 from the abort toolgate recorded).
 * `afterTool` counts failed calls (OS and sandbox refusals in the output), `beforeRun` and `afterRun` are the turn's
 * boundaries. It never turns a refusal into an allow; an internal error, or an input toolgate cannot read, refuses
 * the call.
 */

/** What the plugin asks the composition root for (the entry binds `openToolgate`). */
export interface ClineGuardRequest {
  /** the workspace Cline runs in */
  cwd: string;
  environment: NodeJS.ProcessEnv;
  core: CoreOptions | undefined;
  sinks: AuditSink[];
  onError: (error: unknown, where: string) => void;
}

/** The guard the root opened for the plugin. */
export interface ClineGuard {
  guard: Guard;
  /** tells `toolgate run` (when it started Cline) that this session belongs to its run */
  noteSession?(sessionId: string): void;
  close(): Promise<void>;
}

export interface ClinePluginOptions {
  /** opens the guard through the composition root; without it the plugin decides with `policy` in memory */
  open?: (request: ClineGuardRequest) => Promise<ClineGuard>;
  core?: CoreOptions;
  /** without `open`: the policy to enforce (none: nothing is refused but what the loop detector blocks) */
  policy?: PolicyEvaluator;
  sinks?: AuditSink[];
  /** read instead of process.env (tests) */
  environment?: NodeJS.ProcessEnv;
  /** whether a person can answer asks; default `TOOLGATE_INTERACTIVE=1` (Cline's one-shot and `--json` runs are headless) */
  interactive?: boolean;
  /** one line for the person (default: stderr) */
  tell?: (line: string) => void;
}

/** What Cline's `beforeTool` may answer (`AgentBeforeToolResult` of @cline/shared 0.0.86). */
export interface ClineBeforeToolResult {
  skip?: boolean;
  /** `autoApprove: false`: Cline asks the person for this call (headless: refuses it) */
  policy?: { autoApprove?: boolean };
  stop?: boolean;
  reason?: string;
  appendContext?: string;
}

interface ToolCallPart {
  toolCallId?: unknown;
  toolName?: unknown;
  input?: unknown;
}

interface Snapshot {
  agentId?: unknown;
  conversationId?: unknown;
}

export interface ClineBeforeToolContext {
  snapshot?: Snapshot;
  toolCall?: ToolCallPart;
  input?: unknown;
}

export interface ClineAfterToolContext extends ClineBeforeToolContext {
  result?: { output?: unknown; isError?: unknown };
}

/** A Cline plugin module's default export: `{ name, manifest, setup, hooks }`. */
export interface ClinePlugin {
  name: string;
  manifest: { capabilities: string[] };
  setup(api: unknown, context: unknown): Promise<void>;
  hooks: {
    beforeRun(context: { snapshot?: Snapshot }): Promise<ClineStop | undefined>;
    beforeTool(context: ClineBeforeToolContext): Promise<ClineBeforeToolResult | undefined>;
    afterTool(context: ClineAfterToolContext): Promise<ClineStop | undefined>;
    afterRun(context: { snapshot?: Snapshot; result?: { status?: unknown } }): Promise<void>;
  };
  /** drains the records and closes the store (Cline ends the sandbox with its run; tests call it) */
  dispose(): Promise<void>;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** The session Cline's `setup` context names (`session.sessionId`), and its workspace. */
function setupFacts(context: unknown): { sessionId?: string; cwd?: string } {
  const record = (typeof context === "object" && context !== null ? context : {}) as Record<string, unknown>;
  const session = (record["session"] ?? {}) as Record<string, unknown>;
  const workspace = (record["workspaceInfo"] ?? {}) as Record<string, unknown>;
  const sessionId = stringOf(session["sessionId"]);
  const cwd = stringOf(workspace["rootPath"]);
  return { ...(sessionId === undefined ? {} : { sessionId }), ...(cwd === undefined ? {} : { cwd }) };
}

export function createClinePlugin(options: ClinePluginOptions = {}): ClinePlugin {
  const environment = options.environment ?? process.env;
  const interactive = options.interactive ?? environment["TOOLGATE_INTERACTIVE"] === "1";
  const tell = options.tell ?? ((line: string) => process.stderr.write(`${line}\n`));
  const onError = (error: unknown, where: string) => tell(`toolgate: warning: ${where}: ${errorText(error)}`);
  let facts: { sessionId?: string; cwd?: string } = {};
  let opening: Promise<{ guard: Guard; opened?: ClineGuard }> | undefined;
  const sessions = new Map<string, GuardSession>();
  /**
   * the calls toolgate let through, until their `afterTool`: a call toolgate refused is not here, so its `afterTool`
   * (Cline reports the skip as an error result) is not counted again
   */
  const calls = new Map<string, ToolCall>();
  const noted = new Set<string>();
  const stop = createStopControl(tell);

  const open = () => {
    opening ??= (async () => {
      if (options.open !== undefined) {
        // an error here rejects: every call is refused (fail closed), never let through unchecked
        const opened = await options.open({
          cwd: facts.cwd ?? process.cwd(),
          environment,
          core: options.core,
          sinks: options.sinks ?? [],
          onError,
        });
        return { guard: opened.guard, opened };
      }
      const guard = createGuard({
        ...(options.core === undefined ? {} : { core: options.core }),
        sinks: options.sinks ?? [],
        ...(options.policy === undefined ? {} : { policy: options.policy }),
        onError,
      });
      return { guard };
    })();
    return opening;
  };

  const sessionIdOf = (snapshot: Snapshot | undefined): string =>
    facts.sessionId ?? stringOf(snapshot?.conversationId) ?? "cline";

  const session = async (snapshot: Snapshot | undefined): Promise<GuardSession> => {
    const { guard, opened } = await open();
    const id = sessionIdOf(snapshot);
    if (!noted.has(id)) {
      noted.add(id);
      opened?.noteSession?.(id);
    }
    let found = sessions.get(id);
    if (found === undefined) {
      found = guard.session(id, { interactive, host: "cline" });
      sessions.set(id, found);
    }
    return found;
  };

  /** waits for the records and events under way (Cline ends the sandbox process soon after a run) */
  const drain = async () => {
    try {
      await (await open()).guard.drain();
    } catch (error) {
      onError(error, "drain");
    }
  };

  /** `stop: true` when an abort waits to be told (`beforeTool` keeps its own `reason`: the refusal's text) */
  const stopFlag = (): { stop?: true } => (stop.answer() === undefined ? {} : { stop: true });

  return {
    name: "toolgate",
    manifest: { capabilities: ["hooks"] },
    async setup(_api, context) {
      facts = setupFacts(context);
      // open the store while Cline starts, not on the first call
      void open().catch(() => undefined);
    },
    hooks: {
      async beforeRun(context) {
        stop.newRun();
        try {
          const current = await session(context.snapshot);
          stop.note(await current.turnStarted());
        } catch (error) {
          onError(error, "beforeRun");
        }
        return stop.answer();
      },
      async beforeTool(context) {
        const part = context.toolCall ?? {};
        try {
          const reading = readClineCall({
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            input: context.input ?? part.input,
          });
          const current = await session(context.snapshot);
          if ("unreadable" in reading) {
            // what toolgate cannot read, it cannot check: refused, and counted as a refusal
            const reason = `[toolgate] toolgate cannot read the input of this ${reading.call.tool} call (${reading.unreadable}), so it is refused. Call the tool with the input its schema describes.`;
            stop.note(await current.denied(reading.call, { source: "validation", reason }));
            await drain();
            return { skip: true, reason, ...stopFlag() };
          }
          const decided = await decideClineCalls({ session: current, calls: reading.calls, interactive, stop, drain });
          // the first call stands for the Cline call in `afterTool`
          if (decided.allowed) calls.set(reading.calls[0].toolUseId, reading.calls[0]);
          return decided.answer;
        } catch (error) {
          return { skip: true, reason: `[toolgate] ${failClosedText(error, "beforeTool")}`, ...stopFlag() };
        }
      },
      async afterTool(context) {
        const id = stringOf(context.toolCall?.toolCallId);
        const call = id === undefined ? undefined : calls.get(id);
        if (call === undefined || id === undefined) return stop.answer();
        calls.delete(id);
        try {
          const current = await session(context.snapshot);
          const output = context.result?.output;
          const text = clineResultText(output);
          const failed = context.result?.isError === true || clineCommandFailed(output);
          // Cline's own refusal (an approval nobody could give, a person's no) is a denial, anything else a failure
          const refusal = failed
            ? recognizeDenial({ text: clineErrorText(text), host: "cline", tables: [CLINE_DENIAL_TEXTS] })
            : undefined;
          const effects =
            refusal !== undefined
              ? await current.denied(call, { source: refusal.source, reason: refusal.reason })
              : failed
                ? await current.failed(call, { error: text, stdout: text })
                : await current.succeeded(call, { output: text });
          stop.note(effects);
          if (refusal !== undefined) await drain();
        } catch (error) {
          onError(error, "afterTool");
        }
        return stop.answer();
      },
      async afterRun(context) {
        try {
          const current = await session(context.snapshot);
          const status = context.result?.status;
          const outcome = status === "completed" ? "completed" : status === "aborted" ? "cancelled" : "error";
          // Cline applies no stop here: an abort at the turn's end is told at the next hook that can
          stop.note(await current.turnEnded({ outcome }));
        } catch (error) {
          onError(error, "afterRun");
        }
        await drain();
      },
    },
    async dispose() {
      if (opening === undefined) return;
      const { guard, opened } = await opening.catch(() => ({ guard: undefined, opened: undefined }));
      await guard?.drain();
      await opened?.close();
    },
  };
}
