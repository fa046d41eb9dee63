import { describe, expect, it } from "vitest";
import { testConfig } from "../../test/support/core-fixtures.js";
import { thresholdFor } from "./threshold-for.js";
import { type ToolFamily, toolFamily } from "./tool-families.js";

/** Each host's tool names and the family each gets. */
const HOST_TOOLS: Record<string, [string, ToolFamily][]> = {
  "Claude Code": [
    ["Bash", "shell"],
    ["PowerShell", "shell"],
    ["Read", "read"],
    ["LS", "read"],
    ["NotebookRead", "read"],
    ["Grep", "search"],
    ["Glob", "search"],
    ["Edit", "edit"],
    ["MultiEdit", "edit"],
    ["Write", "edit"],
    ["NotebookEdit", "edit"],
    ["WebFetch", "web"],
    ["WebSearch", "web"],
    ["mcp__github__create_issue", "mcp"],
    ["Task", "other"],
    ["TodoWrite", "other"],
  ],
  opencode: [
    ["bash", "shell"],
    ["read", "read"],
    ["list", "read"],
    ["grep", "search"],
    ["glob", "search"],
    ["codesearch", "search"],
    ["edit", "edit"],
    ["write", "edit"],
    ["patch", "edit"],
    ["multiedit", "edit"],
    ["webfetch", "web"],
    ["websearch", "web"],
    ["task", "other"],
    ["todowrite", "other"],
  ],
  Codex: [
    ["shell", "shell"],
    ["shell_command", "shell"],
    ["exec_command", "shell"],
    ["local_shell", "shell"],
    ["container_exec", "shell"],
    ["container.exec", "shell"],
    ["view_image", "read"],
    ["apply_patch", "edit"],
    ["web_search", "web"],
    ["update_plan", "other"],
  ],
  "Gemini CLI / Qwen Code": [
    ["run_shell_command", "shell"],
    ["read_file", "read"],
    ["read_many_files", "read"],
    ["list_directory", "read"],
    ["glob", "search"],
    ["grep_search", "search"],
    ["search_file_content", "search"],
    ["write_file", "edit"],
    ["replace", "edit"],
    ["edit", "edit"],
    ["web_fetch", "web"],
    ["google_web_search", "web"],
    ["mcp_github_create_issue", "mcp"],
    ["save_memory", "other"],
    ["write_todos", "other"],
  ],
  "other agents": [
    ["Shell", "shell"],
    ["View", "read"],
    ["FileRead", "read"],
    ["FileSearch", "search"],
    ["find_files", "search"],
    ["FileWrite", "edit"],
    ["edit_file", "edit"],
    ["create_file", "edit"],
    ["fetch", "web"],
  ],
  "odd names": [
    ["BASH", "shell"],
    ["toString", "other"],
    ["__proto__", "other"],
    ["constructor", "other"],
    ["mcp_", "other"],
    ["", "other"],
  ],
};

const ESCALATES_AFTER: Record<ToolFamily, number> = {
  shell: 2,
  read: 5,
  search: 5,
  edit: 3,
  web: 3,
  mcp: 3,
  other: 3,
};

describe("the one tool-family table", () => {
  const config = testConfig();
  for (const [host, tools] of Object.entries(HOST_TOOLS)) {
    describe(host, () => {
      it.each(tools)("%s is %s", (tool, family) => {
        expect(toolFamily(tool)).toBe(family);
      });
      it.each(tools)("%s escalates after its family's default threshold", (tool, family) => {
        expect(thresholdFor(config, tool).threshold).toBe(ESCALATES_AFTER[family]);
      });
    });
  }

  it("threshold globs from the config come before the family defaults", () => {
    const custom = testConfig({ thresholds: [{ tool: "shell_command", threshold: 7 }] });
    expect(thresholdFor(custom, "shell_command").threshold).toBe(7);
    expect(thresholdFor(custom, "exec_command").threshold).toBe(2);
  });
});
