import { describe, expect, test } from "vitest";
import { isHeadlessRun, readOpencodeSettings } from "./opencode-settings.js";

describe("readOpencodeSettings", () => {
  test("`opencode run` is headless; the TUI is interactive; TOOLGATE_INTERACTIVE overrides", () => {
    expect(isHeadlessRun(["/$bunfs/root/opencode", "run", "--model", "a/b", "hi"])).toBe(true);
    expect(isHeadlessRun(["bun", "/$bunfs/root/opencode", "run", "hi"])).toBe(true);
    expect(isHeadlessRun(["/usr/bin/opencode"])).toBe(false);
    expect(readOpencodeSettings({ TOOLGATE_INTERACTIVE: "1" }, ["opencode", "run"]).interactive).toBe(true);
    expect(readOpencodeSettings({}, ["opencode", "run"]).interactive).toBe(false);
  });
});
