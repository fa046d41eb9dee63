import { describe, expect, it } from "vitest";
import { testConfig } from "../../test/support/core-fixtures.js";
import { thresholdFor } from "./threshold-for.js";
import {
  canonicalMcpName,
  canonicalTool,
  TOOL_IDENTITIES,
  type ToolFamily,
  toolFamily,
  toolIdentity,
} from "./tool-families.js";

/** Each host's tool names and the family and canonical name each gets. */
const HOST_TOOLS: Record<string, [string, ToolFamily, string][]> = {
  "Claude Code": [
    ["Bash", "shell", "shell"],
    ["PowerShell", "shell", "shell"],
    ["Read", "read", "read"],
    ["LS", "read", "list"],
    ["NotebookRead", "read", "notebook_read"],
    ["Grep", "search", "grep"],
    ["Glob", "search", "glob"],
    ["Edit", "edit", "edit"],
    ["MultiEdit", "edit", "multi_edit"],
    ["Write", "edit", "write"],
    ["NotebookEdit", "edit", "notebook_edit"],
    ["WebFetch", "web", "web_fetch"],
    ["WebSearch", "web", "web_search"],
    ["mcp__github__create_issue", "mcp", "mcp_github_create_issue"],
    ["Task", "other", "Task"],
    ["TodoWrite", "other", "TodoWrite"],
  ],
  opencode: [
    ["bash", "shell", "shell"],
    ["read", "read", "read"],
    ["list", "read", "list"],
    ["grep", "search", "grep"],
    ["glob", "search", "glob"],
    ["codesearch", "search", "code_search"],
    ["edit", "edit", "edit"],
    ["write", "edit", "write"],
    ["patch", "edit", "apply_patch"],
    ["multiedit", "edit", "multi_edit"],
    ["webfetch", "web", "web_fetch"],
    ["websearch", "web", "web_search"],
    ["task", "other", "task"],
    ["todowrite", "other", "todowrite"],
  ],
  Codex: [
    ["shell", "shell", "shell"],
    ["shell_command", "shell", "shell"],
    ["exec_command", "shell", "shell"],
    ["local_shell", "shell", "shell"],
    ["container_exec", "shell", "shell"],
    ["container.exec", "shell", "shell"],
    ["view_image", "read", "view_image"],
    ["apply_patch", "edit", "apply_patch"],
    ["web_search", "web", "web_search"],
    ["update_plan", "other", "update_plan"],
  ],
  "Gemini CLI / Qwen Code": [
    ["run_shell_command", "shell", "shell"],
    ["read_file", "read", "read"],
    ["read_many_files", "read", "read_many"],
    ["list_directory", "read", "list"],
    ["glob", "search", "glob"],
    ["grep_search", "search", "grep"],
    ["search_file_content", "search", "grep"],
    ["write_file", "edit", "write"],
    ["replace", "edit", "edit"],
    ["edit", "edit", "edit"],
    ["web_fetch", "web", "web_fetch"],
    ["google_web_search", "web", "web_search"],
    ["mcp_github_create_issue", "mcp", "mcp_github_create_issue"],
    ["save_memory", "other", "save_memory"],
    ["write_todos", "other", "write_todos"],
  ],
  "other agents": [
    ["Shell", "shell", "shell"],
    ["View", "read", "read"],
    ["FileRead", "read", "read"],
    ["FileSearch", "search", "glob"],
    ["find_files", "search", "glob"],
    ["FileWrite", "edit", "write"],
    ["edit_file", "edit", "edit"],
    ["create_file", "edit", "write"],
    ["fetch", "web", "web_fetch"],
  ],
  "odd names": [
    ["BASH", "shell", "shell"],
    ["toString", "other", "toString"],
    ["__proto__", "other", "__proto__"],
    ["constructor", "other", "constructor"],
    ["mcp_", "other", "mcp_"],
    ["", "other", ""],
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
      it.each(tools)("%s is %s, canonically %s", (tool, family, canonical) => {
        expect(toolFamily(tool)).toBe(family);
        expect(canonicalTool(tool)).toBe(canonical);
        expect(toolIdentity(tool)).toEqual({ family, canonical });
      });
      it.each(tools)("%s escalates after its family's default threshold", (tool, family) => {
        expect(thresholdFor(config, tool).threshold).toBe(ESCALATES_AFTER[family]);
      });
    });
  }

  it("every shell tool of every host is canonically shell", () => {
    const shells = Object.values(HOST_TOOLS)
      .flat()
      .filter(([, family]) => family === "shell");
    expect(shells.length).toBeGreaterThan(10);
    for (const [tool] of shells) expect(canonicalTool(tool)).toBe("shell");
  });

  it("names that differ only in case mean the same tool, so the case-insensitive lookup is unambiguous", () => {
    const byLowerCase = new Map<string, string>();
    for (const [name, identity] of Object.entries(TOOL_IDENTITIES)) {
      const seen = byLowerCase.get(name.toLowerCase());
      if (seen !== undefined) expect(`${name}: ${identity.canonical}`).toBe(`${name}: ${seen}`);
      byLowerCase.set(name.toLowerCase(), identity.canonical);
    }
  });

  it("canonical names are lower case and each names one family", () => {
    const families = new Map<string, ToolFamily>();
    for (const identity of Object.values(TOOL_IDENTITIES)) {
      expect(identity.canonical).toBe(identity.canonical.toLowerCase());
      expect(families.get(identity.canonical) ?? identity.family).toBe(identity.family);
      families.set(identity.canonical, identity.family);
    }
  });

  it.each([
    ["mcp__github__create_issue", "mcp_github_create_issue"],
    ["mcp_github_create_issue", "mcp_github_create_issue"],
    ["mcp__my_server__do__it", "mcp_my_server_do__it"],
    ["mcp__github", "mcp_github"],
  ])("the MCP tool %s is canonically %s on every host", (tool, canonical) => {
    expect(canonicalMcpName(tool)).toBe(canonical);
    expect(toolIdentity(tool)).toEqual({ family: "mcp", canonical });
  });

  it("a repeated lookup returns the same identity object (no allocation per call)", () => {
    expect(toolIdentity("exec_command")).toBe(toolIdentity("Bash"));
    expect(toolIdentity("BASH")).toBe(toolIdentity("BASH"));
    expect(toolIdentity("mcp__a__b")).toBe(toolIdentity("mcp__a__b"));
    expect(toolIdentity("my_tool")).toBe(toolIdentity("my_tool"));
  });

  it("threshold globs from the config come before the family defaults", () => {
    const custom = testConfig({ thresholds: [{ tool: "shell_command", threshold: 7 }] });
    expect(thresholdFor(custom, "shell_command").threshold).toBe(7);
    expect(thresholdFor(custom, "exec_command").threshold).toBe(2);
  });
});
