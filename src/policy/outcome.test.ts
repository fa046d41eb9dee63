import { describe, expect, it, vi } from "vitest";
import type { Outcome } from "./outcome.js";
import type { PermissionMode, ToolCallInput } from "./policy-types.js";

/**
 * Outcomes have one object shape (`makeOutcome`): every outcome the evaluation hands to `applyMode` has the same
 * fields in the same order, whatever decided it (a rule, a grant, the defaults, a mode, an unreadable command), so the
 * hot path's reads of them stay monomorphic.
 */
describe("outcomes", () => {
  it("have one shape whatever decided them: the same fields in the same order", async () => {
    const seen: Outcome[] = [];
    vi.resetModules();
    vi.doMock("./apply-mode.js", async (importOriginal) => {
      const original = await importOriginal<typeof import("./apply-mode.js")>();
      const applyMode: typeof original.applyMode = (outcome, options) => {
        seen.push(outcome);
        return original.applyMode(outcome, options);
      };
      return { ...original, applyMode };
    });
    const { compilePolicy } = await import("./compile-policy.js");
    vi.doUnmock("./apply-mode.js");
    const policy = compilePolicy({
      cwd: "/repo",
      homeDir: "/home/dev",
      rules: [
        { rule: "Bash(git push *)", behavior: "ask" },
        { rule: "Bash(rm *)", behavior: "deny", origin: "project settings" },
        { rule: "Bash(npm test *)", behavior: "allow" },
        { rule: "Read(./.env)", behavior: "deny", reason: "secrets" },
        { rule: "Edit(/src/**)", behavior: "allow" },
        { rule: "WebFetch(domain:example.com)", behavior: "allow" },
        { rule: "WebFetch(domain:evil.com)", behavior: "deny" },
        { rule: "mcp__server__drop", behavior: "deny" },
        { rule: "mcp__server__ask", behavior: "ask" },
      ],
    });
    const calls: ToolCallInput[] = [
      { tool: "Bash", input: { command: "git push origin main" } },
      { tool: "Bash", input: { command: "rm -rf build" } },
      { tool: "Bash", input: { command: "npm test -- --watch" } },
      { tool: "Bash", input: { command: "ls -la" } },
      { tool: "Bash", input: { command: "make all" } },
      { tool: "Bash", input: { command: "cd /repo && npm test x | grep ok" } },
      { tool: "Bash", input: { command: "cd /repo && make all" } },
      { tool: "Bash", input: { command: "cat ../../etc/passwd" } },
      { tool: "Bash", input: { command: "cat sub/../x" } },
      { tool: "Bash", input: { command: "cat .e*" } },
      { tool: "Bash", input: { command: "echo $(whoami)" } },
      { tool: "Bash", input: { command: "echo 'open" } },
      { tool: "Bash", input: { command: "bash -c 'rm -rf x'" } },
      { tool: "Bash", input: { command: "rm\u0000 -rf x" } },
      { tool: "Bash", input: { command: 42 } },
      { tool: "Read", input: { file_path: "/repo/.env" } },
      { tool: "Read", input: { file_path: "/repo/src/a.ts" } },
      { tool: "Read", input: { file_path: "/etc/hosts" } },
      { tool: "Edit", input: { file_path: "/repo/src/a.ts" } },
      { tool: "Edit", input: { file_path: "/repo/docs/a.md" } },
      { tool: "WebFetch", input: { url: "https://example.com/a" } },
      { tool: "WebFetch", input: { url: "https://evil.com/a" } },
      { tool: "WebFetch", input: { url: "https://other.org/a" } },
      { tool: "mcp__server__drop", input: {} },
      { tool: "mcp__server__ask", input: {} },
      { tool: "mcp__server__other", input: {} },
      { tool: "TodoWrite", input: {} },
    ];
    const modes: PermissionMode[] = ["default", "acceptEdits", "plan", "dontAsk", "bypassPermissions"];
    for (const mode of modes) for (const call of calls) policy.evaluate(call, { mode });
    for (const call of calls) policy.evaluate(call, { grants: ["Bash(make *)", "Read(/etc/**)"] });
    expect(seen.length).toBeGreaterThan(calls.length);
    const shapes = new Set(seen.map((outcome) => Object.keys(outcome).join(",")));
    expect([...shapes]).toEqual(["behavior,source,rule,origin,reason,removesTool,denialSource,decisions"]);
  });
});
