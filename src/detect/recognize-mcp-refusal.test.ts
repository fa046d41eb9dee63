import { describe, expect, it } from "vitest";
import { recognizeMcpRefusal } from "./recognize-mcp-refusal.js";

const tool = "mcp__fs__write_file";

describe("recognizeMcpRefusal", () => {
  it.each([
    [
      "filesystem server: path outside allowed directories",
      "Error: Access denied - path outside allowed directories: /etc/passwd not in /tmp/work",
      "sandbox-filesystem",
      "/etc/passwd",
    ],
    [
      "filesystem server: symlink target",
      "Access denied - symlink target outside allowed directories: /etc/x not in /tmp/work",
      "sandbox-filesystem",
      "/etc/x",
    ],
    ["node EACCES passed on", "Error: EACCES: permission denied, open '/root/x'", "os-permission", "/root/x"],
    ["an authorization refusal", "Resource not accessible by integration", "os-permission", undefined],
    ["a policy refusal", "Operation not allowed by the server configuration", "os-permission", undefined],
  ])("%s", (_label, text, kind, path) => {
    const refusal = recognizeMcpRefusal({ tool, text });
    expect(refusal?.kind).toBe(kind);
    expect(refusal?.path).toBe(path);
  });

  it.each([
    ["a missing file", "Error: ENOENT: no such file or directory, open '/tmp/work/x'"],
    ["a bad argument", 'Invalid arguments for tool write_file: [{"path":["content"],"message":"Required"}]'],
    ["an ordinary failure", "Error: Could not find exact match for edit:\nfoo"],
  ])("%s is an ordinary error", (_label, text) => {
    expect(recognizeMcpRefusal({ tool, text })).toBeUndefined();
  });

  it("redacts a secret on the evidence line", () => {
    const refusal = recognizeMcpRefusal({
      tool,
      text: "Access denied for token ghp_abcdefghijklmnopqrstuvwxyz0123456789",
    });
    expect(refusal?.evidence).not.toContain("ghp_abcdefghijklmnopqrstuvwxyz0123456789");
  });
});
