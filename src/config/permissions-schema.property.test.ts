import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TOOL_FAMILIES } from "../core/tool-families.js";
import { compilePolicy } from "../policy/compile-policy.js";
import { ruleString } from "./permissions-schema.js";

/**
 * Every rule string the config schema accepts compiles in the policy engine and decides calls without throwing
 * (the schema only checks that a rule parses; the engine compiles its specifier).
 */

const toolName = fc.oneof(
  fc.constantFrom(...Object.keys(TOOL_FAMILIES), "mcp__github__create_issue", "mcp__github", "mcp__*", "*", "B*"),
  fc.stringMatching(/^[A-Za-z_*][\w.*-]{0,12}$/),
);
const specifierPiece = fc.constantFrom(
  "*",
  "**",
  "//",
  "/",
  "~/",
  "./",
  "../",
  "domain:",
  ":*",
  "npm run",
  " ",
  "(",
  ")",
  "[",
  "]",
  "{a,b}",
  "\\",
  "$",
  "^",
  "?",
  "+",
  "!",
  "command:",
  "timeout:",
  ".env",
  "a",
);
const specifier = fc.oneof(
  fc.array(specifierPiece, { maxLength: 6 }).map((pieces) => pieces.join("")),
  fc.string(),
);
const rule = fc.oneof(
  toolName,
  fc.tuple(toolName, specifier).map(([tool, inner]) => `${tool}(${inner})`),
  fc.string({ maxLength: 20 }),
);
const calls = [
  { tool: "Bash", input: { command: "rm -rf build && npm run test" } },
  { tool: "Read", input: { file_path: "/repo/.env" } },
  { tool: "Grep", input: { pattern: "x", path: "/repo/src" } },
  { tool: "WebFetch", input: { url: "https://example.com/a" } },
  { tool: "mcp__github__create_issue", input: { title: "t" } },
  { tool: "exec_command", input: { cmd: "ls" } },
];

describe("the permissions schema and the policy engine agree", () => {
  it("every rule the schema accepts compiles and decides calls without throwing", () => {
    let accepted = 0;
    fc.assert(
      fc.property(
        rule,
        fc.constantFrom("allow", "ask", "deny") as fc.Arbitrary<"allow" | "ask" | "deny">,
        (text, behavior) => {
          if (!ruleString.safeParse(text).success) return;
          accepted += 1;
          const policy = compilePolicy({ rules: [{ rule: text, behavior }], cwd: "/repo", homeDir: "/home/me" });
          for (const call of calls) expect(() => policy.evaluate(call, { interactive: false })).not.toThrow();
          expect(() =>
            compilePolicy({ rules: [], cwd: "/repo", homeDir: "/home/me", neverGrant: [text] }),
          ).not.toThrow();
        },
      ),
      { numRuns: 2000 },
    );
    expect(accepted).toBeGreaterThan(500);
  });
});
