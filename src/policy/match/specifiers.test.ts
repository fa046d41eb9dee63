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
