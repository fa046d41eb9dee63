import { describe, expect, it } from "vitest";
import { commandPattern } from "../command-pattern.js";
import { compilePolicy } from "../compile-policy.js";
import { minimumGrantScope } from "./minimum-grant-scope.js";
import { suggestRule } from "./suggest-rule.js";

const bash = (command: string) => ({ command });

describe("commandPattern", () => {
  const rows: [string, unknown, string][] = [
    ["Bash", bash("rm -rf build"), "rm"],
    ["Bash", bash("git push origin main"), "git push"],
    ["Bash", bash("git -C /x push"), "git push"],
    ["Bash", bash("npm run test -- --watch"), "npm run test"],
    ["Bash", bash("FOO=1 timeout 5 npm test"), "npm test"],
    ["Bash", bash("cd /repo && docker compose up -d"), "docker compose up"],
    ["bash", bash("/usr/bin/rm x"), "rm"],
    ["Read", { file_path: "/repo/src/secrets/a.key" }, "/repo/src/secrets"],
    ["Write", { file_path: "notes/todo.md" }, "notes"],
    ["Write", { file_path: "todo.md" }, "."],
    ["Grep", { pattern: "x", path: "/repo/src" }, "/repo/src"],
    ["WebFetch", { url: "https://API.example.com/x" }, "api.example.com"],
    ["mcp__github__create_issue", { title: "x" }, "mcp__github__create_issue"],
    ["Task", {}, "Task"],
  ];
  for (const [tool, input, pattern] of rows) {
    it(`${tool} ${JSON.stringify(input)} -> ${pattern}`, () => expect(commandPattern(tool, input)).toBe(pattern));
  }
});

describe("minimumGrantScope", () => {
  const scope = (tool: string, inputs: unknown[], wholeTool = false) =>
    minimumGrantScope({ tool, inputs, pattern: commandPattern(tool, inputs[0]), wholeTool });

  it("grants the exact call when every request was the same", () => {
    expect(scope("Bash", [bash("rm -rf build"), bash("rm  -rf build")])).toMatchObject({
      kind: "exact",
      rule: "Bash(rm -rf build)",
    });
  });
  it("grants a safe command prefix shared by every request", () => {
    expect(scope("Bash", [bash("npm run test -- a"), bash("npm run test -- b")])).toMatchObject({
      kind: "prefix",
      rule: "Bash(npm run test *)",
    });
    expect(scope("Bash", [bash("git status"), bash("git status -s")]).rule).toBe("Bash(git status *)");
  });
  it("never widens an unsafe family beyond the newest exact call", () => {
    expect(scope("Bash", [bash("rm a"), bash("rm b")])).toMatchObject({ kind: "exact", rule: "Bash(rm b)" });
    expect(scope("Bash", [bash("git push a"), bash("git push b")]).kind).toBe("exact");
    expect(scope("Bash", [bash("npm test > x"), bash("npm test > y")]).kind).toBe("exact");
  });
  it("grants the smallest common directory for paths", () => {
    expect(scope("Edit", [{ file_path: "/repo/src/a/x.ts" }, { file_path: "/repo/src/b/y.ts" }])).toMatchObject({
      kind: "directory",
      rule: "Edit(//repo/src/**)",
    });
    expect(scope("Read", [{ file_path: "/a/x" }, { file_path: "/b/y" }])).toMatchObject({
      kind: "exact",
      rule: "Read(//b/y)",
    });
    expect(scope("Read", [{ file_path: "/a/x" }, { file_path: "/a/x" }]).rule).toBe("Read(//a/x)");
  });
  it("grants a domain for WebFetch and the whole tool only when configured or inexpressible", () => {
    expect(scope("WebFetch", [{ url: "https://a.example.com/1" }, { url: "https://a.example.com/2" }]).rule).toBe(
      "WebFetch(domain:a.example.com)",
    );
    expect(scope("Bash", [bash("rm a")], true)).toMatchObject({ kind: "tool", rule: "Bash" });
    expect(scope("mcp__github__create_issue", [{}])).toMatchObject({ kind: "tool", rule: "mcp__github__create_issue" });
  });
  it("every computed scope covers the requests it was computed from", () => {
    const policy = compilePolicy({ rules: [], cwd: "/repo", homeDir: "/home/me" });
    const requests: [string, unknown[]][] = [
      ["Bash", [bash("npm run test -- a"), bash("npm run test -- b")]],
      ["Bash", [bash("timeout 5 make && rm x")]],
      ["Edit", [{ file_path: "/repo/src/a/x.ts" }, { file_path: "/repo/src/b/y.ts" }]],
      ["Write", [{ file_path: "/tmp/[x]/a.txt" }]],
      ["WebFetch", [{ url: "https://a.example.com/1" }]],
    ];
    for (const [tool, inputs] of requests) {
      const grant = scope(tool, inputs).rule;
      const last = inputs[inputs.length - 1];
      expect(policy.evaluate({ tool, input: last }, { grants: [grant] }), grant).toMatchObject({ behavior: "allow" });
      expect(policy.evaluate({ tool, input: last }).behavior).not.toBe("allow");
    }
  });
});

describe("suggestRule", () => {
  const rows: [string, unknown, string][] = [
    ["Bash", bash("npm  run build"), "Bash(npm run build)"],
    ["Bash", bash("timeout 5 make"), "Bash(make)"],
    ["Bash", bash("npm test && rm x"), "Bash(npm test), Bash(rm x)"],
    ["Read", { file_path: "/repo/.env" }, "Read(//repo/.env)"],
    ["edit", { filePath: "src/a.ts" }, "Edit(/src/a.ts)"],
    ["WebFetch", { url: "https://example.com/a" }, "WebFetch(domain:example.com)"],
    ["mcp__srv__echo", {}, "mcp__srv__echo"],
  ];
  for (const [tool, input, rule] of rows) {
    it(`${tool} ${JSON.stringify(input)} -> ${rule}`, () => expect(suggestRule(tool, input)).toBe(rule));
  }
});
