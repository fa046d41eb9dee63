import type { HostStreamDetector, HostStreamParser, HostStreamSummary } from "../common/host-stream.js";
import { copilotDenials } from "./copilot-events.js";

/**
 * Reads `copilot -p ... --output-format json` (JSONL, 1.0.102) for `toolgate run`: the same events as the
 * session's events.jsonl; a refused call is a `tool.execution_complete` with `error.code` `denied` or `rejected`;
 * the last line, `{"type":"result","sessionId":...,"exitCode":...}`, names the session.
 */
export function createCopilotStreamParser(): HostStreamParser {
  let sessionId: string | undefined;
  let ended: HostStreamSummary["ended"];
  const toolLines: string[] = [];
  return {
    push(line: string): void {
      if (!line.startsWith("{")) return;
      if (line.includes('"tool.execution_')) {
        toolLines.push(line);
        return;
      }
      if (!line.includes('"type":"result"')) return;
      try {
        const value = JSON.parse(line) as Record<string, unknown>;
        if (typeof value["sessionId"] === "string") sessionId = value["sessionId"];
        const exitCode = value["exitCode"];
        if (typeof exitCode === "number" && exitCode !== 0) {
          ended = { isError: true, reason: `exit code ${exitCode}`, stoppedByPermissionLayer: false };
        }
      } catch {
        // not the result line
      }
    },
    summary(): HostStreamSummary {
      const denials = copilotDenials(toolLines.join("\n"), { withToolgate: true }).map((denial) => ({
        toolUseId: denial.toolUseId,
        tool: denial.tool,
        input: denial.input,
        reason: denial.text,
      }));
      return {
        host: "copilot",
        ...(sessionId === undefined ? {} : { sessionId }),
        denials,
        ...(ended ? { ended } : {}),
      };
    },
  };
}

/** `copilot ... --output-format json` (or `--output-format=json`), directly or through a wrapper such as `npx`. */
export const copilotStreamDetector: HostStreamDetector = {
  host: "copilot",
  detect(command) {
    const at = command.findIndex((word) => /(^|\/)copilot(\.js)?$/.test(word) || /@github\/copilot/.test(word));
    if (at < 0) return false;
    const rest = command.slice(at + 1);
    const json = rest.some(
      (word, index) => word === "--output-format=json" || (word === "--output-format" && rest[index + 1] === "json"),
    );
    return json;
  },
  create: createCopilotStreamParser,
};
