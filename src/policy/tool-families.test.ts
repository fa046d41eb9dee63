import { describe, expect, it } from "vitest";
import { commandPattern } from "./command-pattern.js";
import { compilePolicy } from "./compile-policy.js";
import type { PolicyRule } from "./policy-types.js";
import { canonicalToolName, toolFamily } from "./tool-families.js";

const policy = (rules: PolicyRule[]) => compilePolicy({ rules, cwd: "/repo", homeDir: "/home/me" });

describe("how rules see tool families (the one table, search counted as read)", () => {
  it.each([
    ["Grep", "read"],
    ["Glob", "read"],
    ["grep_search", "read"],
    ["Bash", "shell"],
    ["exec_command", "shell"],
    ["apply_patch", "edit"],
    ["mcp__github__create_issue", "mcp"],
    ["Task", "other"],
  ])("%s is %s", (tool, family) => {
    expect(toolFamily(canonicalToolName(tool))).toBe(family);
  });

  it.each(["toString", "constructor", "valueOf", "__proto__"])("%s is a plain tool name, not an object key", (tool) => {
    expect(canonicalToolName(tool)).toBe(tool);
    const p = policy([{ rule: tool, behavior: "deny" }]);
    expect(p.evaluate({ tool, input: {} }).behavior).toBe("deny");
  });

  it("a Read deny rule covers the searching tools, whatever the host calls them", () => {
    const p = policy([{ rule: "Read(//repo/secrets/**)", behavior: "deny" }]);
    for (const tool of ["Read", "Grep", "Glob", "grep_search", "search_file_content"]) {
      const input = { file_path: "/repo/secrets/key", path: "/repo/secrets", pattern: "x" };
      expect(p.evaluate({ tool, input }).behavior, tool).toBe("deny");
    }
  });

  it("a Gemini-style MCP tool name in a rule matches that exact tool", () => {
    const p = policy([{ rule: "mcp_github_create_issue", behavior: "deny" }]);
    expect(p.evaluate({ tool: "mcp_github_create_issue", input: {} }).behavior).toBe("deny");
    expect(p.evaluate({ tool: "mcp_github_list_issues", input: {} }).behavior).not.toBe("deny");
  });

  it("Codex exec_command is a shell call: its `cmd` is the command rules and patterns see", () => {
    const p = policy([{ rule: "exec_command(rm *)", behavior: "deny" }]);
    expect(p.evaluate({ tool: "exec_command", input: { cmd: "rm -rf build" } }).behavior).toBe("deny");
    expect(p.evaluate({ tool: "exec_command", input: { cmd: "ls" } }).behavior).not.toBe("deny");
    expect(commandPattern("exec_command", { cmd: "git push origin main" })).toBe("git push");
  });
});
