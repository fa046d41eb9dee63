import type { HookHost } from "../common/hook-host.js";
import { isInteractiveCopilotSession } from "./copilot-environment.js";
import { type CopilotHookInput, parseCopilotHookInput } from "./copilot-hook-input.js";
import { failClosed } from "./copilot-hook-output.js";
import { handleCopilotHook } from "./handle-copilot-hook.js";

/** GitHub Copilot CLI's command hooks (`toolgate hook copilot <event>`), as the hook runner drives them. */
export const copilotHookHost: HookHost<CopilotHookInput> = {
  name: "copilot",
  parse: (text, options) => parseCopilotHookInput(text, options),
  eventName: (input) => input.event,
  sessionId: (input) => input.sessionId,
  projectDir: (input, env) => env["COPILOT_PROJECT_DIR"] ?? input.cwd,
  interactive: (env) => isInteractiveCopilotSession(env),
  handle: handleCopilotHook,
  failClosed: ({ eventName, reason }) => failClosed({ eventName, reason }),
};
