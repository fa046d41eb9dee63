import type { HostStreamDetector, HostStreamParser, HostStreamSummary, StreamDenial } from "../common/host-stream.js";

/**
 * Reads `codex exec --json` for `toolgate run`: `thread.started` names the session (its `thread_id` is the hook
 * payloads' `session_id` and the rollout's id), `turn.failed` / `error` end it with an error. Codex 0.169.0 writes
 * no item for a denied call there, so the denials come from the hooks' records and from the rollout
 * (`toolgate run` reads it with `rolloutDenials`, see src/hosts/codex/codex-rollout-denials.ts).
 */
export function createCodexStreamParser(): HostStreamParser {
  let sessionId: string | undefined;
  let ended: HostStreamSummary["ended"];
  const denials: StreamDenial[] = [];
  return {
    push(line: string): void {
      if (!line.startsWith("{")) return;
      let value: Record<string, unknown>;
      try {
        value = JSON.parse(line) as Record<string, unknown>;
      } catch {
        return;
      }
      if (value["type"] === "thread.started" && typeof value["thread_id"] === "string") sessionId = value["thread_id"];
      if (value["type"] === "turn.failed" || value["type"] === "error") {
        const error = value["error"] as { message?: unknown } | undefined;
        const message = typeof value["message"] === "string" ? value["message"] : error?.message;
        ended = {
          isError: true,
          ...(typeof message === "string" ? { reason: message.slice(0, 200) } : {}),
          stoppedByPermissionLayer: false,
        };
      }
    },
    summary(): HostStreamSummary {
      return {
        host: "codex",
        ...(sessionId === undefined ? {} : { sessionId }),
        denials,
        ...(ended === undefined ? {} : { ended }),
      };
    },
  };
}

/** `codex exec --json ...` (or `codex e --json`), directly or through a wrapper such as `npx`. */
export const codexStreamDetector: HostStreamDetector = {
  host: "codex",
  detect(command) {
    const at = command.findIndex((word) => /(^|\/)codex(\.js)?$/.test(word));
    if (at < 0) return false;
    const rest = command.slice(at + 1);
    return (rest.includes("exec") || rest[0] === "e") && rest.includes("--json");
  },
  create: createCodexStreamParser,
};
