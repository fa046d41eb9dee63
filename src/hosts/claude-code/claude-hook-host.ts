import type { HookHost } from "../common/hook-host.js";
import { handleClaudeHook } from "./handle-hook.js";
import { isInteractiveSession } from "./hook-environment.js";
import { type ClaudeHookInput, parseClaudeHookInput } from "./hook-input.js";
import { failClosed } from "./hook-output.js";

/** Claude Code's command hooks (`toolgate hook claude-code`), as the hook runner drives them. */
export const claudeHookHost: HookHost<ClaudeHookInput> = {
  name: "claude-code",
  endsRunOnAbort: true,
  parse: parseClaudeHookInput,
  eventName: (input) => input.hook_event_name,
  sessionId: (input) => input.session_id,
  projectDir: (input, env) => env["CLAUDE_PROJECT_DIR"] ?? input.cwd,
  interactive: (env) => isInteractiveSession(env as NodeJS.ProcessEnv),
  handle: handleClaudeHook,
  failClosed: ({ eventName, reason }) => failClosed({ event: eventName, reason }),
};
