import { describe, expect, test } from "vitest";
import { isHeadlessRun, readOpencodeSettings } from "./opencode-settings.js";

describe("readOpencodeSettings", () => {
  test("OPENCODE_DENY_THRESHOLD sets the nudge threshold; TOOLGATE_NUDGE_THRESHOLD wins", () => {
    expect(readOpencodeSettings({ OPENCODE_DENY_THRESHOLD: "3" }, []).nudgeThreshold).toBe(3);
    expect(
      readOpencodeSettings({ OPENCODE_DENY_THRESHOLD: "3", TOOLGATE_NUDGE_THRESHOLD: "4" }, []).nudgeThreshold,
    ).toBe(4);
  });

  test("a non-numeric value is ignored with a warning (the seed plugin nudged on the first failure)", () => {
    for (const raw of ["abc", "2.5", "0", "-1"]) {
      const settings = readOpencodeSettings({ OPENCODE_DENY_THRESHOLD: raw }, []);
      expect(settings.nudgeThreshold).toBeUndefined();
      expect(settings.warnings.map((warning) => warning.code)).toEqual(["OPENCODE_THRESHOLD_INVALID"]);
    }
  });

  test("`opencode run` is headless; the TUI is interactive; TOOLGATE_INTERACTIVE overrides", () => {
    expect(isHeadlessRun(["/$bunfs/root/opencode", "run", "--model", "a/b", "hi"])).toBe(true);
    expect(isHeadlessRun(["bun", "/$bunfs/root/opencode", "run", "hi"])).toBe(true);
    expect(isHeadlessRun(["/usr/bin/opencode"])).toBe(false);
    expect(readOpencodeSettings({ TOOLGATE_INTERACTIVE: "1" }, ["opencode", "run"]).interactive).toBe(true);
    expect(readOpencodeSettings({}, ["opencode", "run"]).interactive).toBe(false);
  });

  test("TOOLGATE_DB=off keeps records in memory; anything else leaves the store to TOOLGATE_DB / the config", () => {
    expect(readOpencodeSettings({ TOOLGATE_DB: "/tmp/x.db" }, []).records).toBe(true);
    expect(readOpencodeSettings({}, []).records).toBe(true);
    expect(readOpencodeSettings({ TOOLGATE_DB: "off" }, []).records).toBe(false);
  });
});
