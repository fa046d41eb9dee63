import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { convertQwenRule, importQwen } from "./import-qwen.js";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe("toolgate import qwen", () => {
  it("renames Qwen's tool names to Claude Code's and keeps Claude-style rules as they are", () => {
    expect(convertQwenRule("Bash(rm *)")).toEqual({ rule: "Bash(rm *)" });
    expect(convertQwenRule("run_shell_command(git push *)")).toEqual({ rule: "Bash(git push *)" });
    expect(convertQwenRule("edit")).toEqual({ rule: "Edit" });
    expect(convertQwenRule("read_file(./secrets/**)")).toEqual({ rule: "Read(./secrets/**)" });
    expect(convertQwenRule("mcp__github__create_issue")).toEqual({ rule: "mcp__github__create_issue" });
    expect(convertQwenRule("Bash(rm")).toHaveProperty("reason");
  });

  it("reads the project's and the user's settings (JSONC), merges the lists, and reports what it cannot express", () => {
    const root = mkdtempSync(join(tmpdir(), "toolgate-qwen-import-"));
    roots.push(root);
    const cwd = join(root, "project");
    const homeDir = join(root, "home");
    mkdirSync(join(cwd, ".qwen"), { recursive: true });
    mkdirSync(join(homeDir, ".qwen"), { recursive: true });
    writeFileSync(
      join(cwd, ".qwen", "settings.json"),
      '{\n  // project\n  "permissions": { "deny": ["Bash(rm *)", "Bash(rm"], "ask": ["run_shell_command(git push *)"] }\n}\n',
    );
    writeFileSync(
      join(homeDir, ".qwen", "settings.json"),
      JSON.stringify({
        permissions: { deny: ["Bash(rm *)"], allow: ["Bash(npm test)"] },
        tools: { exclude: ["web_fetch"] },
      }),
    );
    const imported = importQwen({ cwd, homeDir });
    expect(imported.permissions).toEqual({
      deny: ["Bash(rm *)", "WebFetch"],
      ask: ["Bash(git push *)"],
      allow: ["Bash(npm test)"],
    });
    expect(imported.files).toHaveLength(2);
    expect(imported.unsupported).toEqual([{ entry: expect.stringContaining("Bash(rm"), reason: expect.any(String) }]);
    expect(imported.notes.join("\n")).toContain("yolo");
  });

  it("names the places it looked when there is nothing to import", () => {
    const root = mkdtempSync(join(tmpdir(), "toolgate-qwen-import-"));
    roots.push(root);
    expect(() => importQwen({ cwd: root, homeDir: root })).toThrow(/No Qwen Code settings found/);
  });
});
