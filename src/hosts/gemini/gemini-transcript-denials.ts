import type { DenialSource } from "../../core/events.js";
import { recognizeDenial } from "../../detect/recognize-denial.js";
import { GEMINI_DENIAL_TEXTS } from "./gemini-denial-texts.js";

/** One refused call in a Gemini CLI session file that toolgate's hooks could not see. */
export interface GeminiTranscriptDenial {
  /** Gemini's own call id (`run_shell_command__run_shell_command_<ms>_<n>`), the same as in `-o stream-json` */
  toolUseId: string;
  tool: string;
  input: unknown;
  source: DenialSource;
  text: string;
}

const GEMINI_TABLES = [GEMINI_DENIAL_TEXTS];

/** A run a hook ended: its call was toolgate's abort (or another hook's stop), not a denial to record again. */
const HOOK_STOP = /^Agent execution stopped by hook:/;

/**
 * The refused calls in a Gemini CLI 0.61.0 session file (`transcript_path`: a header line, then message records,
 * written again each time they change). A `gemini` record's `toolCalls[]` holds each call with its final `status`
 * and the `functionResponse` the model got; an `error` whose text Gemini's denial table recognises (a policy deny,
 * an `ask_user` nobody could answer, a sandbox refusal) is a denial. AfterTool never fires for those, so this is
 * the only place they show. Hook refusals (`Tool execution blocked: ...`) are left out: toolgate's own are recorded
 * by BeforeTool under their own ids, and their text (configurable templates) cannot tell them from another hook's,
 * so counting them here could count toolgate's twice. Each call once, the last version of its record winning.
 */
export function geminiTranscriptDenials(text: string): GeminiTranscriptDenial[] {
  const denials = new Map<string, GeminiTranscriptDenial>();
  for (const line of text.split("\n")) {
    if (!line.includes('"toolCalls"')) continue;
    let record: { type?: unknown; toolCalls?: unknown };
    try {
      record = JSON.parse(line) as typeof record;
    } catch {
      continue;
    }
    if (record.type !== "gemini" || !Array.isArray(record.toolCalls)) continue;
    for (const call of record.toolCalls as Record<string, unknown>[]) {
      if (typeof call?.["id"] !== "string" || call["status"] !== "error") continue;
      const error = errorText(call["result"]);
      if (error === undefined || HOOK_STOP.test(error)) continue;
      const recognized = recognizeDenial({ tables: GEMINI_TABLES, host: "gemini", text: error, isError: true });
      if (recognized === undefined || recognized.source === "hook") continue;
      denials.set(call["id"], {
        toolUseId: call["id"],
        tool: typeof call["name"] === "string" ? call["name"] : "unknown",
        input: call["args"] ?? {},
        source: recognized.source,
        text: error,
      });
    }
  }
  return [...denials.values()];
}

/** The `error` of the first `functionResponse` in a call's result parts. */
function errorText(result: unknown): string | undefined {
  for (const part of Array.isArray(result) ? result : []) {
    const response = (part as { functionResponse?: { response?: { error?: unknown } } })?.functionResponse?.response;
    if (typeof response?.error === "string") return response.error;
  }
  return undefined;
}
