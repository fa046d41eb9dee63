import type { CallTokens } from "../../core/events.js";
import type { GuardSession } from "../../guard/types.js";
import { wantedCallTokens } from "./call-tokens.js";

/** The turn, subagent and session boundaries Claude Code's hook events name, and the hosts that copy them. */
export type LifecycleEventName =
  | "UserPromptSubmit"
  | "SessionStart"
  | "SubagentStart"
  | "SubagentStop"
  | "Stop"
  | "SessionEnd";

/**
 * One boundary event, counted the same way for every host that has these events: a prompt starts a turn; a
 * subagent's start and stop, a turn's end and the session's end are counted after `reconcile` reads what the host
 * refused that no event reported (its transcript or rollout), so a boundary never hides a denial. `SubagentStart`
 * and `SubagentStop` need the event's `agentId`.
 */
export async function lifecycleEvent(
  session: GuardSession,
  event: {
    name: LifecycleEventName;
    agentId?: string | undefined;
    agentType?: string | undefined;
    /** UserPromptSubmit: the prompt and the working directory the host sent, to describe the session */
    prompt?: string | undefined;
    project?: string | undefined;
    reconcile?: () => Promise<unknown>;
    /**
     * Stop and SessionEnd: the tokens per call the host's transcript shows; SubagentStop: those the subagent's own
     * transcript shows (read only while a wasted call waits)
     */
    callTokens?: (pending: readonly string[]) => Promise<CallTokens | undefined>;
  },
): Promise<void> {
  switch (event.name) {
    case "UserPromptSubmit":
      await session.turnStarted(
        event.prompt === undefined && event.project === undefined
          ? undefined
          : { prompt: event.prompt, project: event.project },
      );
      return;
    case "SessionStart":
      return;
    case "SubagentStart":
      await session.subagentStarted(event.agentId ?? "", event.agentType ? { agentType: event.agentType } : {});
      return;
    case "SubagentStop":
      await event.reconcile?.();
      await session.subagentStopped(event.agentId ?? "", await wantedCallTokens(session, event.callTokens));
      return;
    case "Stop":
      await event.reconcile?.();
      await session.turnEnded({ outcome: "completed", ...(await wantedCallTokens(session, event.callTokens)) });
      return;
    case "SessionEnd":
      await event.reconcile?.();
      await session.end(await wantedCallTokens(session, event.callTokens));
      return;
  }
}
