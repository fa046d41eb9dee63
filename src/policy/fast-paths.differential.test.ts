import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import type { PermissionMode, PolicyRule, ToolCallInput } from "./policy-types.js";

/**
 * The fast paths of a shell decision (the one-pass reader of plain command lines, shell rules looked up by their
 * literal text) against the full path they replace, kept as the reference: the same policy compiled twice, once
 * with the fast paths and once with them switched off (the full parser for every line, every rule tested on its
 * own), must give the same decision (behavior, rule, source, reason, every field) for every call. The path-glob and
 * path-normalisation fast paths are tested against their references in their own property tests.
 */
async function compilers() {
  const fast = await import("./compile-policy.js");
  vi.resetModules();
  vi.doMock("./shell/parse-shell-command.js", async (importOriginal) => {
    const original = await importOriginal<typeof import("./shell/parse-shell-command.js")>();
    return { ...original, parseShellCommand: original.parseFullShellCommand };
  });
  vi.doMock("./match/bash-specifier.js", async (importOriginal) => {
    const original = await importOriginal<typeof import("./match/bash-specifier.js")>();
    return { ...original, bashSpecifierLiteral: () => undefined };
  });
  const reference = await import("./compile-policy.js");
  vi.doUnmock("./shell/parse-shell-command.js");
  vi.doUnmock("./match/bash-specifier.js");
  vi.resetModules();
  return { fast: fast.compilePolicy, reference: reference.compilePolicy };
}

const programs = ["zz", "git", "npm", "cargo", "docker", "kubectl", "make", "python3", "go", "pnpm"];
const behaviors = ["allow", "ask", "deny"] as const;

/** the policy benchmark's 200 rules, and rules of the shapes the fast paths must leave alone */
function rules(): PolicyRule[] {
  const list: PolicyRule[] = [];
  for (let index = 0; index < 120; index++) {
    const program = programs[index % programs.length];
    list.push({ rule: `Bash(${program} task${index} *)`, behavior: behaviors[index % 3] as PolicyRule["behavior"] });
  }
  for (let index = 0; index < 40; index++) {
    const tool = index % 2 === 0 ? "Read" : "Edit";
    list.push({ rule: `${tool}(/src/module${index}/**)`, behavior: index % 4 === 0 ? "deny" : "allow" });
  }
  for (const [rule, behavior] of [
    ["Bash(rm *)", "deny"],
    ["Bash(git push:*)", "ask"],
    ["Bash(git status)", "allow"],
    ["Bash(npm run *)", "allow"],
    ["Bash(npm run build:*)", "deny"],
    ["Bash(* --force)", "deny"],
    ["Bash(curl*)", "ask"],
    ["Bash(env A=1 *)", "allow"],
    ["Bash(timeout 5 make *)", "deny"],
    ["Bash(ls -la)", "allow"],
    ["Read(./.env)", "deny"],
    ["Edit(./secret/**)", "deny"],
  ] as const) {
    list.push({ rule, behavior });
  }
  return list;
}

function benchCalls(count: number): ToolCallInput[] {
  const calls: ToolCallInput[] = [];
  for (let index = 0; calls.length < count; index++) {
    const slot = index % 12;
    const n = index % 150;
    const simple = `${programs[n % programs.length]} task${n} --flag value${index}`;
    const command =
      slot % 3 === 0
        ? `cd /repo && ${simple} | grep ok${index}`
        : slot % 3 === 1
          ? `git status --short ${index}`
          : simple;
    calls.push({ tool: "Bash", input: { command, description: "run" } });
  }
  return calls;
}

const unit = fc.constantFrom(
  ...["git", "status", "push", "npm", "run", "build", "rm", "-rf", "ls", "-la", "zz", "task3", "task30", "cat", ".env"],
  ...["secret/x", "/etc/passwd", "../x", "a/../b", "--force", "curl", "VAR=1", "A=1", "env", "timeout", "5", "make"],
  ...["sudo", "nice", "-n", "xargs", "bash", "-c", "then", "!", "cd", "/repo", "é", "日本", "*", "?", "~"],
  ...[" ", " ", " ", "  ", "\t", "&&", "||", "|", ";", "&", "|&", "\n", "#", "'", '"', "\\", "$", "$(", ")", "`"],
  ...["<", ">", ">>", "2>&1", "<<", "(", "{", "}", "=", ":*", "\u00a0"],
);
const line = fc.array(unit, { minLength: 1, maxLength: 24 }).map((units) => units.join(""));

describe("shell decisions with the fast paths", () => {
  it("are the full path's decisions, field for field, on the benchmark's mix and on arbitrary command lines", async () => {
    const { fast, reference } = await compilers();
    const options = { rules: rules(), cwd: "/repo", homeDir: "/home/dev" };
    const ours = fast(options);
    const theirs = reference(options);
    const modes: PermissionMode[] = ["default", "acceptEdits", "plan", "bypassPermissions", "dontAsk"];
    const compare = (call: ToolCallInput, index: number) => {
      const mode = modes[index % modes.length] as PermissionMode;
      const interactive = index % 7 !== 0;
      expect(ours.evaluate(call, { mode, interactive })).toEqual(theirs.evaluate(call, { mode, interactive }));
      // the same again through the decision cache
      expect(ours.evaluate(call, { mode, interactive })).toEqual(theirs.evaluate(call, { mode, interactive }));
    };
    benchCalls(3000).forEach(compare);
    let index = 0;
    fc.assert(
      fc.property(line, (command) => {
        compare({ tool: "Bash", input: { command } }, index++);
      }),
      { numRuns: 20000 },
    );
    // long inputs
    compare({ tool: "Bash", input: { command: `git push ${"x ".repeat(20000)}` } }, 1);
    compare({ tool: "Bash", input: { command: `zz task3 ${"a".repeat(50000)} && rm -rf /` } }, 2);
  });
});
