import { basename } from "node:path";
import type { HostStreamDetector, HostStreamSummary, StreamDenial } from "../common/host-stream.js";

/**
 * Reads `kilo run --format json` for `toolgate run` (Kilo CLI 7.7.7 writes its parent's run lines): each line carries
 * `sessionID`; a refused call is a `tool_use` part in `error` with a denial text (Kilo's own, or toolgate's
 * `[toolgate] ...`); an `error` line ends the run (`MessageAbortedError` when the session was stopped). The toolgate
 * plugin writes `{"type":"toolgate.session","sessionID":...}` once under `toolgate run`.
 */
type Json = Record<string, unknown>;

const SESSION_ANNOUNCEMENT = "toolgate.session";

/** Kilo's refusal texts (its parent's, word for word, in the 7.7.7 binary) and toolgate's own. */
const REFUSAL =
  /^(The user rejected permission to use this specific tool call|The user has specified a rule which prevents you from using this specific tool call\.|\[toolgate\] )/;

function isDenial(text: string): boolean {
  return REFUSAL.test(text) || text.includes("\n\n[toolgate] ");
}

export function createKiloStreamParser() {
  const denials = new Map<string, StreamDenial>();
  let sessionId: string | undefined;
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
      if (
        typeof value["sessionID"] === "string" &&
        (sessionId === undefined || value["type"] === SESSION_ANNOUNCEMENT)
      ) {
        sessionId = value["sessionID"];
      }
      if (value["type"] === "tool_use") {
        const part = (value["part"] ?? {}) as Json;
        const state = (part["state"] ?? {}) as Json;
        const error = typeof state["error"] === "string" ? state["error"] : "";
        if (state["status"] === "error" && typeof part["callID"] === "string" && isDenial(error)) {
          const tool = typeof part["tool"] === "string" ? part["tool"] : "unknown";
          denials.set(part["callID"], { toolUseId: part["callID"], tool, input: state["input"] ?? {}, reason: error });
        }
      }
      if (value["type"] === "error") {
        const error = (value["error"] ?? {}) as Json;
        const name = typeof error["name"] === "string" ? error["name"] : "error";
        ended = { isError: true, reason: name, stoppedByPermissionLayer: name === "MessageAbortedError" };
      }
    },
    summary(): HostStreamSummary {
      return {
        host: "kilo",
        ...(sessionId === undefined ? {} : { sessionId }),
        denials: [...denials.values()],
        ...(ended === undefined ? {} : { ended }),
      };
    },
  };
}

/** `kilo run ...` or `kilocode run ...` (any path to the binary, `npx kilo run`). */
export const kiloStreamDetector: HostStreamDetector = {
  host: "kilo",
  detect(command: readonly string[]): boolean {
    const index = command.findIndex((argument) => /^(kilo|kilocode)(\.exe)?$/.test(basename(argument)));
    return index >= 0 && command.slice(index + 1).includes("run");
  },
  create: createKiloStreamParser,
};
