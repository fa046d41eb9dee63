import type { CoreOptions } from "../../core/config.js";
import type { Effect } from "../../core/effects.js";
import type { ToolCall } from "../../core/events.js";
import { recognizeDenial } from "../../detect/recognize-denial.js";
import type { AuditSink, Guard, PolicyEvaluator } from "../../guard/create-guard.js";
import { createGuard } from "../../guard/create-guard.js";
import { errorText } from "../../guard/error-text.js";
import { failClosedText } from "../../guard/fail-closed.js";
import type { GuardSession } from "../../guard/types.js";
import { clineCommandFailed, clineResultText, clineToolCall } from "./cline-call.js";
import { CLINE_DENIAL_TEXTS } from "./cline-denial-texts.js";
import { clineErrorText } from "./cline-error-text.js";

/**
 * The Cline plugin (Cline 3.0.x loads `.cline/plugins/*.js` and `~/.cline/plugins/*.js` in a Node sandbox process,
 * one per run): `beforeTool` asks toolgate's guard and refuses a call with `{ skip: true, reason }` (Cline hands the
 * model `{"error": "<reason>"}` as the call's result and the run goes on); at toolgate's abort it answers
 * `{ stop: true }` too (Cline ends the run, `finishReason: "aborted"`, exit 0: `toolgate run` exits 6 from the
 * abort toolgate recorded). `afterTool` counts failed calls (OS and sandbox refusals in the output), `beforeRun` and
 * `afterRun` are the turn's boundaries. It never turns a refusal into an allow, and an internal error refuses the
 * call.
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
    beforeRun(context: { snapshot?: Snapshot }): Promise<undefined>;
    beforeTool(context: ClineBeforeToolContext): Promise<ClineBeforeToolResult | undefined>;
    afterTool(context: ClineAfterToolContext): Promise<undefined>;
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
  let stopped = false;

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

  /** whether toolgate aborted the run at this step (the first abort only: Cline is told to stop once) */
  const aborted = (effects: readonly Effect[]): boolean => {
    const abort = effects.find((effect) => effect.type === "abort");
    if (abort === undefined || stopped) return false;
    stopped = true;
    tell(`toolgate: ${abort.error}`);
    return true;
  };

  /** waits for the records and events under way (Cline ends the sandbox process soon after a run) */
  const drain = async () => {
    try {
      await (await open()).guard.drain();
    } catch (error) {
      onError(error, "drain");
    }
  };

  const nudges = (effects: readonly Effect[]): string | undefined => {
    const texts = effects.flatMap((effect) => (effect.type === "nudge" ? [effect.text] : []));
    return texts.length === 0 ? undefined : texts.join("\n");
  };

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
        try {
          const current = await session(context.snapshot);
          aborted(await current.turnStarted());
        } catch (error) {
          onError(error, "beforeRun");
        }
        return undefined;
      },
      async beforeTool(context) {
        const part = context.toolCall ?? {};
        const call = clineToolCall({
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          input: context.input ?? part.input,
        });
        try {
          const current = await session(context.snapshot);
          // Cline asks (or refuses headless) itself: an ask of toolgate's defaults stays Cline's own (it auto-approves
          // unless told otherwise); an ask a rule made is a headless denial here when nobody can answer it
          const result = await current.decide(call, { hostAsks: true, cannotAsk: !interactive });
          const stop = aborted(result.effects);
          const context_ = nudges(result.effects);
          const extra = context_ === undefined ? {} : { appendContext: context_ };
          if (result.decision.behavior === "allow" || result.decision.behavior === "ask") {
            calls.set(call.toolUseId, call);
            // a rule's ask: Cline must ask the person for this call, whatever its auto-approve says
            const ask = result.decision.behavior === "ask" && result.decision.source !== "default";
            return ask ? { policy: { autoApprove: false }, ...extra } : context_ === undefined ? undefined : extra;
          }
          const reason = result.text || result.decision.reason;
          // the record reaches the store before Cline goes on: Cline may end the plugin's process as soon as its run
          // ends, and `toolgate run` reads the store then
          await drain();
          return { skip: true, reason, ...(stop ? { stop: true } : {}), ...extra };
        } catch (error) {
          return { skip: true, reason: `[toolgate] ${failClosedText(error, "beforeTool")}` };
        }
      },
      async afterTool(context) {
        const id = stringOf(context.toolCall?.toolCallId);
        const call = id === undefined ? undefined : calls.get(id);
        if (call === undefined || id === undefined) return undefined;
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
          aborted(effects);
          if (refusal !== undefined) await drain();
        } catch (error) {
          onError(error, "afterTool");
        }
        return undefined;
      },
      async afterRun(context) {
        try {
          const current = await session(context.snapshot);
          const status = context.result?.status;
          const outcome = status === "completed" ? "completed" : status === "aborted" ? "cancelled" : "error";
          await current.turnEnded({ outcome });
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
