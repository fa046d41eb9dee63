import { describe, expect, it } from "vitest";
import { codePath } from "./hook-entry.js";

describe("codePath (which code cache a hook process uses)", () => {
  it("names the host and the event", () => {
    expect(codePath(["hook", "claude-code"], '{"session_id":"s","hook_event_name": "PreToolUse"}')).toBe(
      "claude-code-PreToolUse",
    );
    expect(codePath(["codex"], '{"hook_event_name":"Stop"}')).toBe("codex-Stop");
  });

  it("falls back to the host alone, or to none, for anything that is not a plain name", () => {
    expect(codePath(["hook", "claude-code"], undefined)).toBe("claude-code");
    expect(codePath(["hook", "claude-code"], '{"hook_event_name":"../../etc"}')).toBe("claude-code");
    expect(codePath(["hook", "../x"], '{"hook_event_name":"Stop"}')).toBeUndefined();
    expect(codePath(["hook"], "{}")).toBeUndefined();
  });
});
