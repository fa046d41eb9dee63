import { interactiveOverride } from "../common/host-environment.js";

/**
 * Facts a hook process reads from its environment. Claude Code 2.1.330 gives every hook
 * `CLAUDE_CODE_SESSION_ATTENDED` (`0` in `-p` runs) and `CLAUDE_CODE_ENTRYPOINT` (`cli`, `sdk-cli`, `sdk-ts`).
 * `TOOLGATE_INTERACTIVE=1|0` overrides both.
 */
export function isInteractiveSession(environment: NodeJS.ProcessEnv = process.env): boolean {
  const override = interactiveOverride(environment);
  if (override !== undefined) return override;
  const attended = environment.CLAUDE_CODE_SESSION_ATTENDED;
  if (attended === "1") return true;
  if (attended === "0") return false;
  const entrypoint = environment.CLAUDE_CODE_ENTRYPOINT ?? "";
  return !entrypoint.startsWith("sdk");
}
