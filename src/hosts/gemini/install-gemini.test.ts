import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GEMINI_INSTALLED_EVENTS } from "./gemini-hook-input.js";
import { installGemini, uninstallGemini } from "./install-gemini.js";

let home: string;
let project: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "toolgate-gemini-install-"));
  project = join(home, "project");
  mkdirSync(project);
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const COMMAND = '"/usr/bin/node" "/opt/toolgate/dist/cli/main.js" hook gemini';
const settingsFile = () => join(home, ".gemini", "settings.json");

describe("toolgate install gemini", () => {
  it("adds one hook per event to ~/.gemini/settings.json, keeps the user's settings and comments, and is idempotent", () => {
    mkdirSync(join(home, ".gemini"));
    const before = `{\n  // mine\n  "privacy": { "usageStatisticsEnabled": false },\n  "hooks": { "BeforeTool": [{ "matcher": "write_file", "hooks": [{ "type": "command", "command": "./check.sh" }] }] }\n}\n`;
    writeFileSync(settingsFile(), before);
    const first = installGemini({ scope: "user", dryRun: false, command: COMMAND, home, cwd: project });
    expect(first.written).toBe(true);
    expect(first.diff.some((line) => line.startsWith("+") && line.includes("hook gemini"))).toBe(true);
    const text = readFileSync(settingsFile(), "utf8");
    expect(text).toContain("// mine");
    const settings = JSON.parse(text.replace(/\/\/ mine\n/, "")) as { hooks: Record<string, unknown[]> };
    for (const event of GEMINI_INSTALLED_EVENTS) expect(JSON.stringify(settings.hooks[event])).toContain("hook gemini");
    expect(JSON.stringify(settings.hooks["BeforeTool"])).toContain("./check.sh");
    expect(JSON.stringify(settings.hooks["BeforeTool"])).toContain('"matcher":"*"');
    const second = installGemini({ scope: "user", dryRun: false, command: COMMAND, home, cwd: project });
    expect(second.changed).toBe(false);
    const removed = uninstallGemini({ scope: "user", dryRun: false, home, cwd: project });
    expect(removed.changed).toBe(true);
    const after = readFileSync(settingsFile(), "utf8");
    expect(after).toContain("// mine");
    const strip = (json: string) => JSON.parse(json.replace(/\/\/ mine\n/, "")) as unknown;
    expect(strip(after)).toEqual(strip(before));
  });

  it("a dry run writes nothing; --project writes .gemini/settings.json; --local is refused with a sentence", () => {
    const dry = installGemini({ scope: "project", dryRun: true, command: COMMAND, home, cwd: project });
    expect(dry.changed).toBe(true);
    expect(dry.written).toBe(false);
    expect(dry.path).toBe(join(project, ".gemini", "settings.json"));
    expect(() => installGemini({ scope: "local", dryRun: true, command: COMMAND, home, cwd: project })).toThrow(
      /no local settings file/,
    );
  });

  it("refuses a settings file that is not JSON, changing nothing", () => {
    mkdirSync(join(home, ".gemini"));
    writeFileSync(settingsFile(), "{ not json");
    expect(() => installGemini({ scope: "user", dryRun: false, command: COMMAND, home, cwd: project })).toThrow(
      /not a valid JSON object/,
    );
    expect(readFileSync(settingsFile(), "utf8")).toBe("{ not json");
  });
});
