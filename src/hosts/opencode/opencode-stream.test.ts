import { describe, expect, test } from "vitest";
import { fixtureEvents } from "../../../test/e2e/opencode/replay-fixture.js";
import { createOpencodeStreamParser, opencodeStreamDetector, SESSION_ANNOUNCEMENT } from "./opencode-stream.js";

/** `opencode run --format json` prints `{type:"tool_use", sessionID, part}` for each finished tool part. */
function formatJsonLines(name: string): string[] {
  return fixtureEvents(name)
    .filter((event) => event.type === "message.part.updated")
    .map(
      (event) => (event.properties as { part: { type: string; sessionID: string; state?: { status?: string } } }).part,
    )
    .filter((part) => part.type === "tool" && (part.state?.status === "error" || part.state?.status === "completed"))
    .map((part) => JSON.stringify({ type: "tool_use", timestamp: 1, sessionID: part.sessionID, part }));
}

describe("opencode stream for toolgate run", () => {
  test("detects `opencode run` however the binary is spelled", () => {
    expect(opencodeStreamDetector.detect(["opencode", "run", "hi"])).toBe(true);
    expect(opencodeStreamDetector.detect(["/x/node_modules/opencode-linux-x64/bin/opencode", "run", "hi"])).toBe(true);
    expect(opencodeStreamDetector.detect(["npx", "opencode", "run", "hi"])).toBe(true);
    expect(opencodeStreamDetector.detect(["opencode", "serve"])).toBe(false);
    expect(opencodeStreamDetector.detect(["claude", "-p", "run"])).toBe(false);
  });

  test("--format json: the session id and each denied call once; completed calls are not denials", () => {
    const parser = createOpencodeStreamParser();
    for (const line of formatJsonLines("deny-rule")) parser.push(line);
    const summary = parser.summary();
    expect(summary.sessionId).toMatch(/^ses_/);
    expect(summary.denials.map((denial) => denial.toolUseId)).toEqual(["call_2_0", "call_3_0"]);
  });

  test("text mode: the plugin's announcement line gives the session id; other output is ignored", () => {
    const parser = createOpencodeStreamParser();
    parser.push("FINAL: done.");
    parser.push(JSON.stringify({ type: SESSION_ANNOUNCEMENT, sessionID: "ses_abc" }));
    parser.push("{not json");
    expect(parser.summary()).toEqual({ host: "opencode", sessionId: "ses_abc", denials: [] });
  });
});
