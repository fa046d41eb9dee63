import type { HookAnswer, HookHost } from "../adapters/hook-host.js";
import { openToolgate, type Toolgate } from "./open-toolgate.js";
import { readTranscript } from "./read-transcript.js";
import { runAbortSink } from "./run-abort-sink.js";
import { noteRunSession } from "./run-sessions.js";

export interface RunHookOptions {
  stdinText: string;
  env?: Record<string, string | undefined>;
  /** reports internal errors; one line on stderr by default */
  onError?: (message: string) => void;
}

/**
 * One command-hook process, for any command-hook host: parse the event, open toolgate through the one composition
 * root (config, policy, store, audit), hand the host's handler a guard session, answer. Anything that goes wrong
 * becomes the host's fail-closed answer (a refusal for gating events and unreadable input), never an allow.
 */
export async function runHook<Input>(host: HookHost<Input>, options: RunHookOptions): Promise<HookAnswer> {
  const env = options.env ?? process.env;
  const onError = options.onError ?? ((message: string) => process.stderr.write(`toolgate: ${message}\n`));
  const eventName = topLevelEventName(options.stdinText);
  let toolgate: Toolgate | undefined;
  try {
    const input = host.parse(options.stdinText);
    const interactive = host.interactive(env);
    const cwd = host.projectDir(input, env) ?? process.cwd();
    toolgate = await openToolgate({
      host: host.name,
      ...(host.escalationDefaults === undefined ? {} : { hostDefaults: host.escalationDefaults }),
      cwd,
      env,
      // tells `toolgate run` about an abort, so it can end an agent whose hooks cannot stop it
      sinks: runAbortSink(env),
      onError: (error, where) => onError(`${where}: ${error instanceof Error ? error.message : String(error)}`),
    });
    const sessionId = host.sessionId(input);
    noteRunSession(env, sessionId);
    const session = toolgate.guard.session(sessionId, { interactive, host: host.name });
    return await host.handle(input, { session, interactive, readTranscript });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    onError(`hook ${eventName ?? "(unreadable event)"} failed: ${message}`);
    return host.failClosed({ eventName, reason: message });
  } finally {
    await toolgate?.close().catch((error: unknown) => onError(`closing the store: ${String(error)}`));
  }
}

/** The event name of the parsed payload's top level (never a nested field), or undefined when it does not parse. */
function topLevelEventName(text: string): string | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
    const name = (value as Record<string, unknown>)["hook_event_name"];
    return typeof name === "string" ? name : undefined;
  } catch {
    return undefined;
  }
}
