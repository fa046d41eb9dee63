import { describe, expect, it } from "vitest";
import { unreadableToolName } from "../../core/tool-name.js";
import { compilePolicy } from "../../policy/compile-policy.js";
import { mcpToolName, serverNameWarning } from "./mcp-tool-name.js";

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

  it("keeps Claude Code's name for a server whose name holds __, warns about it, and a wildcard rule covers it", () => {
    expect(mcpToolName("github (work)", "erase")).toBe("mcp__github__work___erase");
    for (const server of ["github (work)", "a__b", "x_", "x  y"]) {
      expect(serverNameWarning(server), JSON.stringify(server)).toContain("does not cover its tools");
    }
    for (const server of ["github", "my server", "my_server", "fs-2", "_x", "créer"]) {
      expect(serverNameWarning(server), server).toBeUndefined();
    }
    // what the warning says: the server-wide rule reads as another server's tool; per tool or a wildcard covers it,
    // and a rule copied from Claude Code's settings for one tool still matches
    const decide = (rule: string, server: string) =>
      compilePolicy({ rules: [{ rule, behavior: "deny" }], cwd: "/repo", homeDir: "/home/me" }).evaluate({
        tool: mcpToolName(server, "erase"),
        input: {},
      }).rule;
    expect(decide("mcp__github__work_", "github (work)")).toBeUndefined();
    expect(decide("mcp__github__work___*", "github (work)")).toBe("mcp__github__work___*");
    expect(decide("mcp__github__work___erase", "github (work)")).toBe("mcp__github__work___erase");
    expect(decide("mcp__github__work___*", "github")).toBeUndefined();
  });
});
