import { basename } from "node:path";
import type { HostStreamDetector, HostStreamSummary, StreamDenial } from "../common/host-stream.js";

/**
 * Reads `pi --mode json` for `toolgate run`: the session header (`{"type":"session","id":...}`), each refused call
 * (`tool_execution_end` with `isError` and a refusal's text: toolgate's `[toolgate] ...` or pi's own text for an
 * extension's block), and how the run ended (`agent_settled.aborted`, a refusal that ended the run: `terminate`).
 * pi itself exits 0 in every one of these cases.
 */
type Json = Record<string, unknown>;

const REFUSAL = /^(\[toolgate\] |Tool execution was blocked$|Extension failed, blocking execution: )/;

function resultText(result: unknown): string {
  const content = (result as { content?: unknown } | undefined)?.content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block: { type?: unknown; text?: unknown }) =>
      block?.type === "text" && typeof block.text === "string" ? block.text : "",
    )
    .join("\n");
}

export function createPiStreamParser() {
  const denials = new Map<string, StreamDenial>();
  const inputs = new Map<string, unknown>();
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
      if (value["type"] === "session" && typeof value["id"] === "string") sessionId ??= value["id"];
      if (value["type"] === "tool_execution_start" && typeof value["toolCallId"] === "string") {
        inputs.set(value["toolCallId"], value["args"]);
      }
      if (
        value["type"] === "tool_execution_end" &&
        value["isError"] === true &&
        typeof value["toolCallId"] === "string"
      ) {
        const text = resultText(value["result"]);
        if (REFUSAL.test(text)) {
          const id = value["toolCallId"];
          const tool = typeof value["toolName"] === "string" ? value["toolName"] : "unknown";
          denials.set(id, { toolUseId: id, tool, input: inputs.get(id) ?? {}, reason: text });
        }
        if ((value["result"] as { terminate?: unknown } | undefined)?.terminate === true) {
          ended = { isError: true, reason: "terminated", stoppedByPermissionLayer: REFUSAL.test(text) };
        }
      }
      if (value["type"] === "agent_settled" && value["aborted"] === true) {
        ended = { isError: true, reason: "aborted", stoppedByPermissionLayer: false };
      }
    },
    summary(): HostStreamSummary {
      return {
        host: "pi",
        ...(sessionId === undefined ? {} : { sessionId }),
        denials: [...denials.values()],
        ...(ended === undefined ? {} : { ended }),
      };
    },
  };
}

/** `pi ... --mode json` (any path to the binary, `npx pi`, `node .../cli.js` of the pi package). */
export const piStreamDetector: HostStreamDetector = {
  host: "pi",
  detect(command: readonly string[]): boolean {
    const index = command.findIndex(
      (argument) => basename(argument) === "pi" || /pi-coding-agent[/\\]dist[/\\](bundle[/\\])?cli\.js$/.test(argument),
    );
    if (index < 0) return false;
    const rest = command.slice(index + 1);
    return (
      rest.includes("--mode=json") || rest.some((argument, at) => argument === "--mode" && rest[at + 1] === "json")
    );
  },
  create: createPiStreamParser,
};
