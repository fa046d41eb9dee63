import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { installQwen, uninstallQwen } from "./install-qwen.js";
import { qwenAskRules } from "./qwen-settings-hooks.js";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function sandbox() {
  const root = mkdtempSync(join(tmpdir(), "toolgate-qwen-install-"));
  roots.push(root);
  const cwd = join(root, "project");
  const home = join(root, "home");
  mkdirSync(join(cwd, ".qwen"), { recursive: true });
  mkdirSync(home, { recursive: true });
  return { cwd, home, settings: join(cwd, ".qwen", "settings.json") };
}

const COMMAND = '"/usr/bin/node" "/opt/toolgate/dist/hook/toolgate-hook.cjs" hook qwen';

describe("toolgate install qwen", () => {
  it("adds one entry per event, keeps the user's settings and hooks, and is idempotent", () => {
    const box = sandbox();
    const original = {
      permissions: { deny: ["Bash(rm *)"] },
      hooks: { PreToolUse: [{ matcher: "run_shell_command", hooks: [{ type: "command", command: "./audit.sh" }] }] },
    };
    writeFileSync(box.settings, `${JSON.stringify(original, null, 2)}\n`);
    const first = installQwen({ scope: "project", dryRun: false, command: COMMAND, cwd: box.cwd, home: box.home });
    expect(first).toMatchObject({ path: box.settings, changed: true, written: true });
    expect(first.diff.some((line) => line.startsWith("+") && line.includes("hook qwen"))).toBe(true);
    const settings = JSON.parse(readFileSync(box.settings, "utf8"));
    expect(settings.permissions).toEqual(original.permissions);
    expect(settings.hooks.PreToolUse).toHaveLength(2);
    expect(settings.hooks.PreToolUse[0].hooks[0].command).toBe("./audit.sh");
    for (const event of ["PreToolUse", "PostToolUse", "PostToolUseFailure"]) {
      expect(settings.hooks[event].at(-1)).toEqual({
        matcher: "*",
        hooks: [{ type: "command", command: COMMAND, timeout: 30 }],
      });
    }
    for (const event of ["PostToolBatch", "UserPromptSubmit", "Stop", "SessionEnd"]) {
      expect(settings.hooks[event]).toEqual([{ hooks: [{ type: "command", command: COMMAND, timeout: 30 }] }]);
    }
    const second = installQwen({ scope: "project", dryRun: false, command: COMMAND, cwd: box.cwd, home: box.home });
    expect(second.changed).toBe(false);
  });

  it("uninstall removes exactly toolgate's entries; dry runs write nothing; --local is refused", () => {
    const box = sandbox();
    writeFileSync(box.settings, '{\n  // mine\n  "model": { "name": "qwen3-coder" }\n}\n');
    const before = readFileSync(box.settings, "utf8");
    const dry = installQwen({ scope: "project", dryRun: true, command: COMMAND, cwd: box.cwd, home: box.home });
    expect(dry).toMatchObject({ changed: true, written: false });
    expect(readFileSync(box.settings, "utf8")).toBe(before);
    installQwen({ scope: "project", dryRun: false, command: COMMAND, cwd: box.cwd, home: box.home });
    uninstallQwen({ scope: "project", dryRun: false, cwd: box.cwd, home: box.home });
    expect(readFileSync(box.settings, "utf8")).toBe(before);
    expect(() => installQwen({ scope: "local", dryRun: true, cwd: box.cwd, home: box.home })).toThrow(
      /no local settings file/,
    );
  });

  it("--user writes ~/.qwen/settings.json", () => {
    const box = sandbox();
    const outcome = installQwen({ scope: "user", dryRun: false, command: COMMAND, cwd: box.cwd, home: box.home });
    expect(outcome.path).toBe(join(box.home, ".qwen", "settings.json"));
    expect(readFileSync(outcome.path, "utf8")).toContain("hook qwen");
  });

  it("finds the ask rules Qwen's yolo mode would run without asking", () => {
    expect(qwenAskRules({ permissions: { ask: ["Bash(git push *)", 3] } })).toEqual(["Bash(git push *)"]);
    expect(qwenAskRules({})).toEqual([]);
  });
});
