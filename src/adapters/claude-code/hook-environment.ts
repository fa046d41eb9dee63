import { homedir } from "node:os";
import { join } from "node:path";

/**
 * Facts a hook process reads from its environment. Claude Code 2.1.330 gives every hook
 * `CLAUDE_CODE_SESSION_ATTENDED` (`0` in `-p` runs) and `CLAUDE_CODE_ENTRYPOINT` (`cli`, `sdk-cli`, `sdk-ts`).
 * `TOOLGATE_INTERACTIVE=1|0` overrides both.
 */
export function isInteractiveSession(environment: NodeJS.ProcessEnv = process.env): boolean {
  const override = environment.TOOLGATE_INTERACTIVE;
  if (override === "1" || override === "true") return true;
  if (override === "0" || override === "false") return false;
  const attended = environment.CLAUDE_CODE_SESSION_ATTENDED;
  if (attended === "1") return true;
  if (attended === "0") return false;
  const entrypoint = environment.CLAUDE_CODE_ENTRYPOINT ?? "";
  return !entrypoint.startsWith("sdk");
}

/** The SQLite file the hook keeps session state and denial records in: `$TOOLGATE_DB`, else ~/.toolgate/toolgate.db. */
export function hookDatabasePath(environment: NodeJS.ProcessEnv = process.env): string {
  const configured = environment.TOOLGATE_DB;
  if (configured !== undefined && configured !== "") return configured;
  return join(homedir(), ".toolgate", "toolgate.db");
}
