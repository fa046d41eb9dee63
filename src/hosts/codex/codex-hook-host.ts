import type { HookHost } from "../common/hook-host.js";
import { interactiveOverride } from "../common/host-environment.js";
import { type CodexHookInput, parseCodexHookInput } from "./codex-hook-input.js";
import { failClosed } from "./codex-hook-output.js";
import { codexSessionRoot } from "./codex-session-environment.js";
import { handleCodexHook } from "./handle-codex-hook.js";

/**
 * Codex CLI's command hooks (`toolgate hook codex`), as the hook runner drives them. Sessions are non-interactive
 * (headless escalation: fallback, skip or abort) unless `TOOLGATE_INTERACTIVE=1`; each PreToolUse also reads
 * `permission_mode` (`bypassPermissions` = approval never, where an ask from a rule is a headless denial). Codex's
 * own `.rules` reach the policy through the descriptor's `permissionRules` (`codex-policy-rules.ts`), not here.
 */
export const codexHookHost: HookHost<CodexHookInput> = {
  name: "codex",
  parse: (text) => {
    const input = parseCodexHookInput(text);
    const root = codexSessionRoot(input.transcript_path);
    return root === undefined ? input : { ...input, session_root: root };
  },
  eventName: (input) => input.hook_event_name,
  sessionId: (input) => input.session_id,
  // the session's folder (config, relative rules); a shell call's own folder goes with the call (handle-codex-hook)
  projectDir: (input) => input.session_root ?? input.cwd,
  interactive: (env) => {
    if (interactiveOverride(env) === true) return true;
    // Codex's hooks have no channel to put a question to a person, so nobody can answer toolgate's grant offers
    return false;
  },
  handle: handleCodexHook,
  failClosed: ({ eventName, reason }) => failClosed({ eventName, reason }),
};
