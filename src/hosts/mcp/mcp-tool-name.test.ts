import { describe, expect, it } from "vitest";
import { unreadableToolName } from "../../core/tool-name.js";
import { mcpToolName } from "./mcp-tool-name.js";

describe("mcpToolName", () => {
  it("names a tool as Claude Code does", () => {
    expect(mcpToolName("github", "create_issue")).toBe("mcp__github__create_issue");
    expect(mcpToolName("my server", "files.read")).toBe("mcp__my_server__files_read");
    expect(mcpToolName("x", "read file")).toBe("mcp__x__read_file");
    expect(mcpToolName("x", "créer")).toBe("mcp__x__cr_er");
  });

  it("keeps what the policy must refuse: unreadable characters as U+FFFD, look-alike letters as they are", () => {
    for (const [tool, name] of [
      ["delete_repo\u0000", "mcp__github__delete_repo\ufffd"],
      ["delete\u200b_repo", "mcp__github__delete\ufffd_repo"],
      ["delete_repo ", "mcp__github__delete_repo\ufffd"],
      [" delete_repo", "mcp__github__\ufffddelete_repo"],
      ["d\u0435lete_repo", "mcp__github__d\u0435lete_repo"],
      ["d\uff45lete_repo", "mcp__github__d\uff45lete_repo"],
    ] as const) {
      expect(mcpToolName("github", tool), JSON.stringify(tool)).toBe(name);
      expect(unreadableToolName(name), JSON.stringify(tool)).toBeDefined();
    }
  });
});
