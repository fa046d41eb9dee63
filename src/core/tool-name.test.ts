import { describe, expect, it } from "vitest";
import { isLookAlike, readableToolName, toolMatchKey, unreadableToolName } from "./tool-name.js";

describe("unreadableToolName", () => {
  it.each([
    ["a NUL", "mcp__github__delete_repo\u0000"],
    ["a zero-width space", "mcp__github__delete\u200b_repo"],
    ["a zero-width joiner", "mcp__github__\u200ddelete_repo"],
    ["a byte-order mark", "\ufeffmcp__github__delete_repo"],
    ["a right-to-left override", "mcp__github__\u202edelete_repo"],
    ["a soft hyphen", "mcp__github__de\u00adlete_repo"],
    ["a Hangul filler", "mcp__github__delete_repo\u3164"],
    ["a line separator", "mcp__github__delete_repo\u2028"],
    ["a paragraph separator", "mcp__github__delete_repo\u2029"],
    ["a newline", "mcp__github__delete_repo\n"],
    ["a tab", "mcp__github__delete\trepo"],
    ["DEL", "mcp__github__delete_repo\u007f"],
    ["a C1 control", "mcp__github__delete_repo\u0085"],
    ["a lone surrogate", "mcp__github__delete_repo\ud800"],
    ["a private-use character", "mcp__github__delete_repo\ue000"],
    ["the replacement character", "mcp__github__delete_repo\ufffd"],
    ["a trailing space", "mcp__github__delete_repo "],
    ["a leading space", " mcp__github__delete_repo"],
    ["a trailing no-break space", "mcp__github__delete_repo\u00a0"],
    ["a Cyrillic е among Latin letters", "mcp__github__d\u0435lete_repo"],
    ["a Greek ο among Latin letters", "mcp__github__delete_rep\u03bf"],
    ["a fullwidth e", "mcp__github__d\uff45lete_repo"],
    ["a mathematical bold e", "mcp__github__d\u{1d41e}lete_repo"],
    ["an empty name", ""],
    ["a space inside an MCP name", "mcp__github__ delete_repo"],
    ["a space inside an MCP name's tool", "mcp__files__read file"],
  ])("refuses %s", (_, name) => {
    expect(unreadableToolName(name)).toBeDefined();
  });

  it.each([
    "Bash",
    "mcp__github__delete_repo",
    "mcp__my-server__create_issue",
    "container.exec",
    "my tool",
    "создать_задачу",
    "αναζήτηση",
    "café",
  ])("reads %s", (name) => {
    expect(unreadableToolName(name)).toBeUndefined();
  });
});

describe("readableToolName", () => {
  it("puts U+FFFD for each character toolgate cannot read, and for whitespace at either end", () => {
    expect(readableToolName("mcp__a__b\u0000c\u200b ")).toBe("mcp__a__b\ufffdc\ufffd\ufffd");
    expect(readableToolName("  x")).toBe("\ufffd\ufffdx");
    expect(readableToolName("mcp__a__b")).toBe("mcp__a__b");
    expect(unreadableToolName(readableToolName("mcp__a__b\u0000"))).toBeDefined();
  });
});

describe("toolMatchKey and isLookAlike", () => {
  it("folds case, compatibility forms and look-alike letters", () => {
    const key = toolMatchKey("mcp__github__delete_repo");
    for (const variant of [
      "MCP__GitHub__DELETE_REPO",
      "mcp__github__d\u0435lete_repo",
      "mcp__github__DЕLЕTЕ_RЕPО",
      "\uff4d\uff43\uff50__github__delete_repo",
      "mcp__github__\u{1d41d}elete_repo",
      "mcp__github__delet\u0435_r\u0435p\u03bf",
    ]) {
      expect(toolMatchKey(variant), variant).toBe(key);
    }
    expect(toolMatchKey("mcp__github__delete_repos")).not.toBe(key);
  });

  it("tells look-alikes from other letters", () => {
    expect(isLookAlike("\u0435")).toBe(true);
    expect(isLookAlike("\uff45")).toBe(true);
    expect(isLookAlike("e")).toBe(false);
    expect(isLookAlike("é")).toBe(false);
    expect(isLookAlike("ж")).toBe(false);
  });
});
