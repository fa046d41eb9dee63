import { describe, expect, it } from "vitest";
import { compileBashSpecifier } from "./bash-specifier.js";
import { compileDomainSpecifier, hostOf } from "./domain-specifier.js";
import { anchorPattern, compilePathSpecifier } from "./path-specifier.js";

describe("Bash specifiers", () => {
  const cases: [string, string, boolean][] = [
    ["ls *", "ls", true],
    ["ls *", "ls -la", true],
    ["ls *", "lsof", false],
    ["ls:*", "ls -la", true],
    ["ls:*", "lsof", false],
    ["ls*", "lsof -i", true],
    ["git:* push", "git push", false],
    ["git:* push", "git:x push", true],
    ["git * main", "git push origin main", true],
    ["git * main", "git checkout dev", false],
    ["* install", "npm install", true],
    ["* install", "npm install lodash", false],
    ["npm run build", "npm run build", true],
    ["npm run build", "npm run build --prod", false],
    ["npm  run   build", "npm run build", true],
    ["*", "anything at all", true],
    ["echo (a)", "echo (a)", true],
    ["a.b", "axb", false],
  ];
  for (const [pattern, command, expected] of cases) {
    it(`${pattern} ${expected ? "matches" : "does not match"} ${command}`, () => {
      expect(compileBashSpecifier(pattern)(command)).toBe(expected);
    });
  }
});

describe("path specifiers", () => {
  const context = { cwd: "/p", homeDir: "/h", projectRoot: "/p" };
  const cases: [string, string, boolean][] = [
    [".env", "/p/.env", true],
    [".env", "/p/a/b/.env", true],
    [".env", "/x/.env", false],
    ["./secret.env", "/p/sub/secret.env", true],
    ["sub/secret.env", "/p/sub/secret.env", true],
    ["sub/secret.env", "/p/deep/sub/secret.env", false],
    ["./sub/secret.env", "/p/deep/sub/secret.env", false],
    ["/secret.env", "/p/secret.env", true],
    ["/secret.env", "/p/sub/secret.env", false],
    ["/x/secret.env", "/x/secret.env", false],
    ["//x/secret.env", "/x/secret.env", true],
    ["//**/.env", "/anywhere/deep/.env", true],
    ["~/Documents/*.pdf", "/h/Documents/a.pdf", true],
    ["~/Documents/*.pdf", "/h/Documents/sub/a.pdf", false],
    ["src/**", "/p/src/a/b.txt", true],
    ["src/**", "/p/src/top.txt", true],
    ["src/**", "/p/readme.txt", false],
    ["/docs/**", "/p/docs/x.md", true],
    ["docs", "/p/docs/x.md", true],
    ["*.env", "/p/a/prod.env", true],
    ["/src/**/*.ts", "/p/src/a/b/c.ts", true],
    ["/src/**/*.ts", "/p/src/c.ts", true],
  ];
  for (const [pattern, path, expected] of cases) {
    it(`${pattern} ${expected ? "matches" : "does not match"} ${path} (${anchorPattern(pattern, context)})`, () => {
      expect(compilePathSpecifier(pattern, context)(path)).toBe(expected);
    });
  }
  it("escapes glob characters in the anchor directories", () => {
    const odd = { cwd: "/p[1]", homeDir: "/h", projectRoot: "/p[1]" };
    expect(compilePathSpecifier(".env", odd)("/p[1]/.env")).toBe(true);
    expect(compilePathSpecifier(".env", odd)("/p1/.env")).toBe(false);
  });
});

describe("domain specifiers", () => {
  const cases: [string, string, boolean][] = [
    ["example.com", "example.com", true],
    ["example.com", "api.example.com", false],
    ["*.example.com", "example.com", false],
    ["*.example.com", "api.example.com", true],
    ["*.example.com", "a.b.example.com", true],
    ["example.*", "example.org", true],
    ["example.*", "example.evil.com", false],
    ["*", "anything.test", true],
    ["EXAMPLE.com.", "example.com", true],
  ];
  for (const [pattern, host, expected] of cases) {
    it(`${pattern} ${expected ? "matches" : "does not match"} ${host}`, () => {
      expect(compileDomainSpecifier(pattern)(host)).toBe(expected);
    });
  }
  it("reads hosts case-insensitively without a trailing dot", () => {
    expect(hostOf("https://API.Example.com./x")).toBe("api.example.com");
    expect(hostOf("not a url")).toBe("not");
  });
});

describe("hostile inputs are matched in linear time", () => {
  it("a Bash rule with several `*` decides a 1 MB command at once", () => {
    // before (RegExp `^a.*b.*c.*d.*e$`, cubic): an 8.5 KB command took 3 s, 34 KB over 60 s (issue 12, class 5a);
    // the 1 MB command below would take days.
    const rule = compileBashSpecifier("curl * -d * --data * http*x *");
    const command = `curl ${"-d --data http ".repeat(70_000)}`;
    expect(rule(command)).toBe(false);
    expect(rule(`${command} http://x y`)).toBe(true);
  });

  it("a Bash rule with a trailing ` *` keeps its optional tail", () => {
    const rule = compileBashSpecifier("git * push *");
    expect(rule("git -C . push")).toBe(true);
    expect(rule("git -C . push origin main")).toBe(true);
    expect(rule("git -C . pushx")).toBe(false);
    expect(rule(`git ${"push ".repeat(100_000)}x`)).toBe(true);
  });

  it("a domain rule with several `*` in a label decides a long host at once", () => {
    const rule = compileDomainSpecifier("a*a*a*a*a*a*a*a*b.example.*");
    expect(rule(`${"a".repeat(100_000)}.example.com`)).toBe(false);
    expect(rule(`${"a".repeat(100_000)}b.example.com`)).toBe(true);
    expect(rule(`${"a".repeat(100)}b.evil.example.com`)).toBe(false);
  });
});
