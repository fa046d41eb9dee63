import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import type { PermissionMode, PolicyRule, ToolCallInput } from "./policy-types.js";

/**
 * The fast paths of a shell decision (the one-pass reader of plain command lines, shell rules looked up by their
 * literal text, one frozen decision per mode for a shared outcome) against the full path they replace, kept as the
 * reference: the same policy compiled twice, once with the fast paths and once with them switched off (the full
 * parser for every line, every rule tested on its own, every decision built anew), must give the same decision
 * (behavior, rule, source, reason, every field) for every call. The path-glob and
 * path-normalisation fast paths are tested against their references in their own property tests.
 */
async function compilers() {
  const fast = await import("./compile-policy.js");
  vi.resetModules();
  vi.doMock("./shell/parse-shell-command.js", async (importOriginal) => {
    const original = await importOriginal<typeof import("./shell/parse-shell-command.js")>();
    return { ...original, parseShellCommand: original.parseFullShellCommand, parsePlainWords: () => undefined };
  });
  vi.doMock("./match/bash-specifier.js", async (importOriginal) => {
    const original = await importOriginal<typeof import("./match/bash-specifier.js")>();
    return { ...original, bashSpecifierLiteral: () => undefined };
  });
  vi.doMock("./match/path-rule-index.js", async (importOriginal) => {
    const original = await importOriginal<typeof import("./match/path-rule-index.js")>();
    // every path rule tested on its own, in rule order
    const matchingPathRules: typeof original.matchingPathRules = (index, path) =>
      index.rules.filter((rule) => rule.test(path));
    return { ...original, matchingPathRules };
  });
  vi.doMock("./apply-mode.js", async (importOriginal) => {
    const original = await importOriginal<typeof import("./apply-mode.js")>();
    // a new decision for every call, also for a shared outcome (no decision built once per mode and kept)
    return { ...original, applyMode: original.applyModeOnce };
  });
  const reference = await import("./compile-policy.js");
  vi.doUnmock("./apply-mode.js");
  vi.doUnmock("./shell/parse-shell-command.js");
  vi.doUnmock("./match/bash-specifier.js");
  vi.doUnmock("./match/path-rule-index.js");
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
    // path rules of every shape the directory index must leave alone
    ["Read(//etc/**)", "deny"],
    ["Read(~/.ssh/**)", "deny"],
    ["Edit(src/*.ts)", "ask"],
    ["Read(*.pem)", "deny"],
    ["Edit(//)", "ask"],
    ["Read(/src/a*/x/**)", "ask"],
    ["Read(//tmp/a//b/*)", "deny"],
    ["Read(./docs)", "allow"],
    ["Read(/src/module1)", "ask"],
    ["Edit(//repo/src/module1/**)", "ask"],
    ["Write(//repo/out/**)", "deny"],
    ["Read(//repo/{a,b}/**)", "deny"],
    ["Edit(/src/**/gen/**)", "deny"],
    ["Read(//)", "allow"],
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

const segment = fc.constantFrom(
  ...["repo", "src", "module1", "module10", "module13", "module3", "a", "ab", "b", "x", "gen", "docs", "out", ".ssh"],
  ...["etc", "tmp", "home", "dev", ".env", "key.pem", "f.ts", "", ".", "..", "*", "a b", "é", "~", "$HOME", "{a,b}"],
);
/** absolute, relative and home paths, normalised or not */
const path = fc
  .tuple(fc.constantFrom("/", "/repo/", "", "./", "~/", "//", "/repo/src/"), fc.array(segment, { maxLength: 6 }))
  .map(([start, segments]) => `${start}${segments.join("/")}`);
const fileCall = fc
  .tuple(fc.constantFrom("Read", "Edit", "Write", "Grep", "Glob", "MultiEdit", "read_file"), path)
  .map(([tool, file]): ToolCallInput => ({ tool, input: { file_path: file, path: file } }));
const shellFileCall = fc
  .tuple(fc.constantFrom("cat", "rm", "cp", "head -n 1", "echo x >", "sed -i s/a/b/", "touch", "grep -r x"), path, path)
  .map(
    ([program, first, second]): ToolCallInput => ({
      tool: "Bash",
      input: { command: `${program} ${first} ${second}` },
    }),
  );

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
      // first seen, seen again (kept in the decision cache), then found in it: every field, in the same order
      for (let round = 0; round < 3; round++) {
        const decision = ours.evaluate(call, { mode, interactive });
        const expected = theirs.evaluate(call, { mode, interactive });
        expect(decision).toStrictEqual(expected);
        expect(JSON.stringify(decision)).toBe(JSON.stringify(expected));
      }
    };
    benchCalls(3000).forEach(compare);
    let index = 0;
    fc.assert(
      fc.property(line, (command) => {
        compare({ tool: "Bash", input: { command } }, index++);
      }),
      { numRuns: 20000 },
    );
    fc.assert(
      fc.property(fc.oneof(fileCall, shellFileCall), (call) => {
        compare(call, index++);
      }),
      { numRuns: 10000 },
    );
    // long inputs
    compare({ tool: "Bash", input: { command: `git push ${"x ".repeat(20000)}` } }, 1);
    compare({ tool: "Bash", input: { command: `zz task3 ${"a".repeat(50000)} && rm -rf /` } }, 2);
  }, 120_000);
});
