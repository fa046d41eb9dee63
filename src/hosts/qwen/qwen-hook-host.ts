import type { CoreOptions } from "../../core/config.js";
import type { HookHost } from "../common/hook-host.js";
import { handleQwenHook } from "./handle-qwen-hook.js";
import { isInteractiveQwenSession } from "./qwen-environment.js";
import { parseQwenHookInput, type QwenHookInput } from "./qwen-hook-input.js";
import { failClosed } from "./qwen-hook-output.js";

/**
 * Qwen Code's seed (its PR #2831): every tool gets soft guidance at its 2nd denial and a hard stop text at its 4th.
 * toolgate's defaults already escalate shell calls at 2 (hard stage at 2 x 2 = 4); for Qwen every family does.
 * Applied under the config: a config file or `TOOLGATE_DENY_THRESHOLD[_<FAMILY>]` still decides.
 */
export const QWEN_ESCALATION_DEFAULTS = {
  defaultThreshold: 2,
  familyThresholds: { shell: 2, read: 2, search: 2 },
  hardMultiplier: 2,
} as const satisfies CoreOptions;

/** Qwen Code's command hooks (`toolgate hook qwen`), as the hook runner drives them. */
export const qwenHookHost: HookHost<QwenHookInput> = {
  name: "qwen",
  endsRunOnAbort: true,
  parse: parseQwenHookInput,
  eventName: (input) => input.hook_event_name,
  sessionId: (input) => input.session_id,
  projectDir: (input, env) => env["QWEN_PROJECT_DIR"] ?? input.cwd,
  interactive: isInteractiveQwenSession,
  handle: handleQwenHook,
  failClosed: ({ eventName, reason }) => failClosed({ event: eventName, reason }),
  escalationDefaults: QWEN_ESCALATION_DEFAULTS,
};
