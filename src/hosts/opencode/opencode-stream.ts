import { basename } from "node:path";
import type { StreamDenial } from "../common/host-stream.js";
import { recognizeOpencodeDenial } from "./opencode-denial-text.js";

/**
 * Reads what `opencode run` writes to stdout for `toolgate run`: the `--format json` lines (each with `sessionID`;
 * denied calls are `tool_use` parts in `error` with a denial text), and the one line the toolgate plugin writes
 * under `toolgate run` in text mode (`{"type":"toolgate.session","sessionID":...}`) so the run can find the
 * session's records. Structurally matches `HostStreamDetector` in src/hosts/common/host-stream.ts.
 */
type Json = Record<string, unknown>;

export interface OpencodeStreamSummary {
  host: string;
  sessionId?: string;
  denials: StreamDenial[];
  ended?: { isError: boolean; reason?: string; stoppedByPermissionLayer: boolean };
}

/** The line the plugin writes to stdout under `toolgate run`, so `run` can look the session up in the store. */
export const SESSION_ANNOUNCEMENT = "toolgate.session";

export function createOpencodeStreamParser() {
  const denials = new Map<string, StreamDenial>();
  let sessionId: string | undefined;
  let ended: OpencodeStreamSummary["ended"];
  return {
    push(line: string): void {
      if (!line.startsWith("{")) return;
      let value: Json;
      try {
        value = JSON.parse(line) as Json;
      } catch {
        return;
      }
      if (typeof value.sessionID === "string" && (sessionId === undefined || value.type === SESSION_ANNOUNCEMENT)) {
        sessionId = value.sessionID;
      }
      if (value.type === "tool_use") {
        const part = (value.part ?? {}) as Json;
        const state = (part.state ?? {}) as Json;
        const error = typeof state.error === "string" ? state.error : "";
        const tool = typeof part.tool === "string" ? part.tool : "unknown";
        if (
          state.status === "error" &&
          typeof part.callID === "string" &&
          recognizeOpencodeDenial(error, { tool, input: state.input })
        ) {
          denials.set(part.callID, { toolUseId: part.callID, tool, input: state.input ?? {}, reason: error });
        }
      }
      if (value.type === "error") {
        const error = (value.error ?? {}) as Json;
        const name = typeof error.name === "string" ? error.name : "error";
        ended = { isError: true, reason: name, stoppedByPermissionLayer: name === "MessageAbortedError" };
      }
    },
    summary(): OpencodeStreamSummary {
      return {
        host: "opencode",
        ...(sessionId === undefined ? {} : { sessionId }),
        denials: [...denials.values()],
        ...(ended === undefined ? {} : { ended }),
      };
    },
  };
}

/** `opencode run ...` (any path to the binary, or `npx opencode run`). */
export const opencodeStreamDetector = {
  host: "opencode",
  detect(command: readonly string[]): boolean {
    const index = command.findIndex((argument) => /^opencode(\.exe)?$/.test(basename(argument)));
    return index >= 0 && command.slice(index + 1).includes("run");
  },
  create: createOpencodeStreamParser,
};
