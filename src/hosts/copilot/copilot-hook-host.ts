import type { HookHost } from "../common/hook-host.js";
import { type CopilotHookInput, parseCopilotHookInput } from "./copilot-hook-input.js";
import { failClosed } from "./copilot-hook-output.js";
import { handleCopilotHook } from "./handle-copilot-hook.js";

/**
 * Whether a person can answer in this Copilot CLI session. Copilot 1.0.102 gives hooks no marker of `-p` runs
 * (their environment has `COPILOT_CLI=1`, `COPILOT_PROJECT_DIR`, no mode), so: `TOOLGATE_INTERACTIVE=1|0` decides
 * when set; a run under `toolgate run` (`TOOLGATE_RUN=1`) or in CI (`CI` set) is headless; otherwise interactive.
 */
export function isInteractiveCopilotSession(env: Readonly<Record<string, string | undefined>>): boolean {
  const override = env["TOOLGATE_INTERACTIVE"];
  if (override === "1" || override === "true") return true;
  if (override === "0" || override === "false") return false;
  if (env["TOOLGATE_RUN"] === "1") return false;
  const ci = env["CI"];
  if (ci !== undefined && ci !== "" && ci !== "0" && ci !== "false") return false;
  return true;
}

/** GitHub Copilot CLI's command hooks (`toolgate hook copilot <event>`), as the hook runner drives them. */
export const copilotHookHost: HookHost<CopilotHookInput> = {
  name: "copilot",
  parse: (text, options) => parseCopilotHookInput(text, options),
  eventName: (input) => input.event,
  sessionId: (input) => input.sessionId,
  projectDir: (input, env) => env["COPILOT_PROJECT_DIR"] ?? input.cwd,
  interactive: isInteractiveCopilotSession,
  handle: handleCopilotHook,
  failClosed: ({ eventName, reason }) => failClosed({ eventName, reason }),
};
