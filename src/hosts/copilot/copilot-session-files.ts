import type { StreamDenial } from "../common/host-stream.js";
import { readTranscript } from "../common/read-transcript.js";
import { copilotDenials, copilotEventsPath } from "./copilot-events.js";

/**
 * The refused calls of a Copilot session as its `events.jsonl` shows them (a run without `--output-format json`
 * shows none): what `toolgate run` reports even where no toolgate hook ran. Inputs are raw; `run` redacts.
 */
export function copilotRunDenials(options: {
  env: Readonly<Record<string, string | undefined>>;
  sessionId: string;
}): StreamDenial[] {
  const path = copilotEventsPath(options);
  const text = path === undefined ? undefined : readTranscript(path);
  if (text === undefined) return [];
  return copilotDenials(text, { withToolgate: true }).map((denial) => ({
    toolUseId: denial.toolUseId,
    tool: denial.tool,
    input: denial.input,
    reason: denial.text,
  }));
}
