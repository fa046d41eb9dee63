import { basename } from "node:path";
import { recognizeDenial } from "../../detect/recognize-denial.js";
import type { HostStreamSummary, StreamDenial } from "../common/host-stream.js";
import { CLINE_DENIAL_TEXTS } from "./cline-denial-texts.js";
import { clineErrorText } from "./cline-error-text.js";

/**
 * Reads what `cline --json` writes to stdout for `toolgate run` (3.0.65): one JSON object a line. A finished call is
 * an `agent_event` `content_end` with `contentType: "tool"`; a refused one carries `error` (`{"error": "<text>"}`),
 * counted here when the text is one of Cline's own refusals (toolgate's refusals are in its store). The run's end
 * is `run_result.finishReason` (`completed`, `aborted`, `mistake_limit`, ...).
 */
type Json = Record<string, unknown>;

export function createClineStreamParser() {
  const denials = new Map<string, StreamDenial>();
  let ended: HostStreamSummary["ended"];
  return {
    push(line: string): void {
      if (!line.startsWith("{")) return;
      let value: Json;
      try {
        value = JSON.parse(line) as Json;
      } catch {
        return;
      }
      if (value["type"] === "agent_event") {
        const event = (value["event"] ?? {}) as Json;
        if (event["type"] !== "content_end" || event["contentType"] !== "tool") return;
        const error = typeof event["error"] === "string" ? clineErrorText(event["error"]) : undefined;
        const id = event["toolCallId"];
        if (error === undefined || typeof id !== "string") return;
        const tool = typeof event["toolName"] === "string" ? event["toolName"] : "unknown";
        if (recognizeDenial({ text: error, host: "cline", tables: [CLINE_DENIAL_TEXTS] }) !== undefined) {
          denials.set(id, { toolUseId: id, tool, input: event["input"] ?? {}, reason: error });
        }
      } else if (value["type"] === "run_result") {
        const reason = typeof value["finishReason"] === "string" ? value["finishReason"] : "unknown";
        ended = { isError: reason !== "completed", reason, stoppedByPermissionLayer: false };
      }
    },
    summary(): HostStreamSummary {
      return { host: "cline", denials: [...denials.values()], ...(ended === undefined ? {} : { ended }) };
    },
  };
}

/** `cline --json ...` (any path to the binary, or `npx cline --json`). */
export const clineStreamDetector = {
  host: "cline",
  detect(command: readonly string[]): boolean {
    const index = command.findIndex((argument) => /^cline(\.exe)?$/.test(basename(argument)));
    return index >= 0 && command.slice(index + 1).includes("--json");
  },
  create: createClineStreamParser,
};
