import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { StreamDenial } from "../common/host-stream.js";
import { readTranscript } from "../common/read-transcript.js";
import { codexHome } from "./codex-execpolicy.js";
import { rolloutDenials } from "./rollout-outcomes.js";

/** `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl` of one session, newest day first. */
export function findCodexRollout(options: {
  env: Readonly<Record<string, string | undefined>>;
  sessionId: string;
}): string | undefined {
  const root = join(codexHome(options.env), "sessions");
  const list = (directory: string) => {
    try {
      return readdirSync(directory).sort().reverse();
    } catch {
      return [];
    }
  };
  for (const year of list(root)) {
    for (const month of list(join(root, year))) {
      for (const day of list(join(root, year, month))) {
        const name = list(join(root, year, month, day)).find((entry) => entry.endsWith(`-${options.sessionId}.jsonl`));
        if (name !== undefined) return join(root, year, month, day, name);
      }
    }
  }
  return undefined;
}

/**
 * The denied calls of a Codex session as its rollout shows them (`codex exec --json` shows none): what `toolgate
 * run` reports even where no toolgate hook ran. Inputs are raw; `run` redacts before printing.
 */
export function codexRolloutDenials(options: {
  env: Readonly<Record<string, string | undefined>>;
  sessionId: string;
}): StreamDenial[] {
  const path = findCodexRollout(options);
  if (path === undefined) return [];
  const text = readTranscript(path);
  if (text === undefined) return [];
  return rolloutDenials(text).map((denial) => ({
    toolUseId: denial.toolUseId,
    tool: denial.tool,
    input: denial.input,
    reason: denial.text,
  }));
}
