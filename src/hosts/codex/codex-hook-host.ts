import type { HookHost } from "../common/hook-host.js";
import { type CodexHookInput, parseCodexHookInput } from "./codex-hook-input.js";
import { failClosed } from "./codex-hook-output.js";
import type { ParsedExecpolicy } from "./execpolicy-rules.js";
import { handleCodexHook } from "./handle-codex-hook.js";

/** Where the Codex host gets Codex's own execpolicy rules for an event (the node layer reads the files). */
export type LoadExecpolicy = (options: {
  cwd: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
}) => ParsedExecpolicy;

/**
 * Codex CLI's command hooks (`toolgate hook codex`), as the hook runner drives them. Sessions are non-interactive
 * (headless escalation: fallback, skip or abort) unless `TOOLGATE_INTERACTIVE=1`; each PreToolUse also reads
 * `permission_mode` (`bypassPermissions` = approval never, where a Codex `prompt` rule is a headless denial).
 */
export function createCodexHookHost(options: {
  loadExecpolicy: LoadExecpolicy;
  env?: Readonly<Record<string, string | undefined>>;
}): HookHost<CodexHookInput> {
  let environment: Readonly<Record<string, string | undefined>> = options.env ?? {};
  return {
    name: "codex",
    parse: parseCodexHookInput,
    eventName: (input) => input.hook_event_name,
    sessionId: (input) => input.session_id,
    projectDir: (input, env) => {
      environment = env;
      return input.cwd;
    },
    interactive: (env) => {
      const override = env["TOOLGATE_INTERACTIVE"];
      if (override === "1" || override === "true") return true;
      // Codex's hooks have no channel to put a question to a person, so nobody can answer toolgate's grant offers
      return false;
    },
    handle: (input, context) =>
      handleCodexHook(input, {
        ...context,
        execpolicy:
          input.hook_event_name === "PreToolUse"
            ? options.loadExecpolicy({ cwd: input.cwd, env: environment })
            : { rules: [], problems: [] },
      }),
    failClosed: ({ eventName, reason }) => failClosed({ eventName, reason }),
  };
}
