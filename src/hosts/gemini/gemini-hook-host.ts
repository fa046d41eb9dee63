import type { HookHost } from "../common/hook-host.js";
import { isGeminiInteractive } from "./gemini-environment.js";
import { type GeminiHookInput, parseGeminiHookInput } from "./gemini-hook-input.js";
import { failClosed } from "./gemini-hook-output.js";
import { handleGeminiHook } from "./handle-gemini-hook.js";

/** Gemini CLI's command hooks (`toolgate hook gemini`), as the hook runner drives them. */
export const geminiHookHost: HookHost<GeminiHookInput> = {
  name: "gemini",
  endsRunOnAbort: true,
  parse: parseGeminiHookInput,
  eventName: (input) => input.hook_event_name,
  sessionId: (input) => input.session_id,
  projectDir: (input, env) => env["GEMINI_PROJECT_DIR"] ?? input.cwd,
  interactive: (env) => isGeminiInteractive(env),
  handle: handleGeminiHook,
  failClosed,
};
