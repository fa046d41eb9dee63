import type { AuditSink } from "../guard/create-guard.js";
import { noteRunAbort, RUN_DIRECTORY_ENV } from "./run-sessions.js";

/**
 * A sink that tells `toolgate run` when toolgate aborted a session it serves (the `run.aborted` audit event), so
 * `run` can end the agent: for every host whose hook answers cannot end a run by themselves. Nothing when the
 * process is not serving a `toolgate run` child.
 */
export function runAbortSink(
  env: Readonly<Record<string, string | undefined>>,
  options: { hostEndsRun?: boolean } = {},
): AuditSink[] {
  if (env[RUN_DIRECTORY_ENV] === undefined) return [];
  return [
    {
      deliver(effects, session) {
        for (const effect of effects) {
          if (effect.type !== "audit" || effect.event.kind !== "run.aborted") continue;
          const error = effect.event.detail["error"];
          const reason = typeof error === "string" ? error : "toolgate aborted the run.";
          noteRunAbort(env, { sessionId: session.sessionId, reason, hostEndsRun: options.hostEndsRun === true });
        }
      },
    },
  ];
}
