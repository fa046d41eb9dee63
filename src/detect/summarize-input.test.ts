import { describe, expect, it } from "vitest";
import { SUMMARY_MAX_LENGTH, summarizeInput, truncateCodePoints } from "./summarize-input.js";

const ghp = `${"gh"}p_${"Z9y8X7w6V5u4T3s2R1q0".repeat(2).slice(0, 36)}`;

describe("summarizeInput", () => {
  it("uses the command of shell tools across hosts", () => {
    expect(summarizeInput("Bash", { command: "rm -rf ./build", description: "clean" })).toBe("rm -rf ./build");
    expect(summarizeInput("bash", { command: "ls" })).toBe("ls");
    expect(summarizeInput("run_shell_command", { command: "git status", dir_path: "." })).toBe("git status");
    expect(summarizeInput("exec_command", { cmd: "npm test" })).toBe("npm test");
    expect(summarizeInput("local_shell", { command: ["bash", "-lc", "make"] })).toBe("bash -lc make");
  });

  it("uses the path of file tools and the URL of web tools", () => {
    expect(summarizeInput("Read", { file_path: "/etc/passwd" })).toBe("/etc/passwd");
    expect(summarizeInput("edit", { filePath: "src/a.ts", oldString: "a", newString: "b" })).toBe("src/a.ts");
    expect(summarizeInput("write_file", { file_path: "out.txt", content: "x" })).toBe("out.txt");
    expect(summarizeInput("NotebookEdit", { notebook_path: "a.ipynb", new_source: "" })).toBe("a.ipynb");
    expect(summarizeInput("WebFetch", { url: "https://example.com/a", prompt: "summarise" })).toBe(
      "https://example.com/a",
    );
    expect(summarizeInput("apply_patch", { input: "*** Begin Patch\n*** Update File: src/x.ts\n@@\n-a\n+b" })).toBe(
      "src/x.ts",
    );
  });

  it("names the pattern and place of searches", () => {
    expect(summarizeInput("Grep", { pattern: "TODO", path: "src" })).toBe("TODO in src");
    expect(summarizeInput("glob", { pattern: "**/*.ts" })).toBe("**/*.ts");
  });

  it("falls back to compact JSON for other tools", () => {
    expect(summarizeInput("mcp__github__create_issue", { title: "Bug", labels: ["a"] })).toBe(
      '{"title":"Bug","labels":["a"]}',
    );
    expect(summarizeInput("Bash", { nothing: 1 })).toBe('{"nothing":1}');
    expect(summarizeInput("Task", undefined)).toBe("undefined");
  });

  it("redacts before it cuts, so a secret is never half-shown", () => {
    const command = `${"x".repeat(190)} GH_TOKEN=${ghp}`;
    const summary = summarizeInput("Bash", { command });
    expect(summary).not.toContain("gh" + "p_");
    expect(summary.startsWith("x".repeat(190))).toBe(true);
    expect(summarizeInput("WebFetch", { url: "https://u:pa55w0rd@host/x?token=abc123" })).toBe(
      "https://u:[REDACTED:url-password]@host/x?token=[REDACTED:token]",
    );
    expect(summarizeInput("mcp__db__query", { password: "hunter22", sql: "select 1" })).toBe(
      '{"password":"[REDACTED:password]","sql":"select 1"}',
    );
  });

  it("cuts to 200 code points with an ellipsis and never splits a surrogate pair", () => {
    const long = "😀".repeat(300);
    const summary = summarizeInput("Bash", { command: long });
    expect(Array.from(summary)).toHaveLength(SUMMARY_MAX_LENGTH);
    expect(summary.endsWith("…")).toBe(true);
    expect(summary.slice(0, -1)).toBe("😀".repeat(SUMMARY_MAX_LENGTH - 1));
    expect(summarizeInput("Bash", { command: "a".repeat(200) })).toBe("a".repeat(200));
  });

  it("collapses whitespace", () => {
    expect(summarizeInput("Bash", { command: "echo a\n\n  echo b" })).toBe("echo a echo b");
  });
});

describe("truncateCodePoints", () => {
  it("keeps texts that fit and cuts the rest", () => {
    expect(truncateCodePoints("abc", 3)).toBe("abc");
    expect(truncateCodePoints("abcd", 3)).toBe("ab…");
    expect(truncateCodePoints("a😀😀", 3)).toBe("a😀😀");
    expect(truncateCodePoints("a😀😀b", 3)).toBe("a😀…");
  });
});
