import { describe, expect, it } from "vitest";
import { toolFamily } from "./tool-families.js";

describe("toolFamily", () => {
  it.each([
    ["Bash", "shell"],
    ["bash", "shell"],
    ["run_shell_command", "shell"],
    ["exec_command", "shell"],
    ["PowerShell", "shell"],
    ["local_shell", "shell"],
    ["Read", "read"],
    ["read_file", "read"],
    ["Write", "edit"],
    ["MultiEdit", "edit"],
    ["NotebookEdit", "edit"],
    ["replace", "edit"],
    ["apply_patch", "edit"],
    ["WebFetch", "web"],
    ["webfetch", "web"],
    ["web_fetch", "web"],
    ["Grep", "search"],
    ["glob", "search"],
    ["mcp__github__create_issue", "mcp"],
    ["mcp_github_create_issue", "mcp"],
    ["BASH", "shell"],
    ["Task", "other"],
    ["toString", "other"],
    ["__proto__", "other"],
  ])("%s is %s", (tool, family) => {
    expect(toolFamily(tool)).toBe(family);
  });
});
