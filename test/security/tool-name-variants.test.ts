import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createGuard } from "../../src/guard/create-guard.js";
import { guardMcpToolCall } from "../../src/hosts/mcp/guard-mcp-tool-call.js";
import { compilePolicy } from "../../src/policy/compile-policy.js";
import type { PermissionMode, PolicyRule } from "../../src/policy/policy-types.js";

/**
 * Issue 25, item 4, as a class: a tool name that differs from a denied one only by case, a look-alike letter, an
 * invisible or control character, or whitespace at an end is never allowed, whatever path it takes: the policy
 * every host evaluates, the guard (with or without toolgate's policy), and the MCP proxy, which renames the client's
 * tool name before the guard sees it. An allow glob over the server (`mcp__github__*`) is there to allow any name
 * that is not recognised as the denied one. docs/rules.md and docs/mcp.md, "Tool names", say what a rule matches.
 */

const SERVER = "github";
const TOOL = "delete_repo";
const DENIED = `mcp__${SERVER}__${TOOL}`;
const RULES: PolicyRule[] = [
  { rule: "mcp__github__*", behavior: "allow" },
  { rule: "mcp__github__create_issue", behavior: "allow" },
  { rule: DENIED, behavior: "deny" },
];
const policy = compilePolicy({ rules: RULES, cwd: "/repo", homeDir: "/home/me" });
const MODES: PermissionMode[] = ["default", "acceptEdits", "dontAsk", "bypassPermissions"];

/** invisible, control and separator characters a name can carry without looking different */
const HIDDEN = [
  "\u0000",
  "\u0001",
  "\u0008",
  "\t",
  "\n",
  "\r",
  "\u001b",
  "\u007f",
  "\u0085",
  "\u00ad",
  "\u034f",
  "\u061c",
  "\u115f",
  "\u180e",
  "\u200b",
  "\u200c",
  "\u200d",
  "\u200e",
  "\u200f",
  "\u2028",
  "\u2029",
  "\u202a",
  "\u202e",
  "\u2060",
  "\u2066",
  "\u3164",
  "\ufe0f",
  "\ufeff",
  "\ufffd",
  "\ud800",
  "\ue000",
  "\u{e0041}",
];
/** whitespace that is invisible at either end of a name */
const SPACES = [" ", "\u00a0", "\u2002", "\u2003", "\u3000", "\u1680", "\u202f"];
/** letters of other scripts and compatibility forms that look like the ASCII letter (and `_`) */
const LOOK_ALIKES: Record<string, string[]> = {
  d: ["\u0501", "\uff44", "\u{1d41d}"],
  e: ["\u0435", "\uff45", "\u{1d41e}", "\u212f"],
  l: ["\u04cf", "\uff4c", "\u{1d425}", "\u2113"],
  t: ["\uff54", "\u{1d42d}"],
  r: ["\uff52", "\u{1d42b}"],
  p: ["\u0440", "\u03c1", "\uff50", "\u{1d429}"],
  o: ["\u043e", "\u03bf", "\u0585", "\uff4f", "\u{1d428}"],
  _: ["\uff3f"],
};

function caseVariants(word: string): string[] {
  const variants = new Set([word.toUpperCase(), word[0]?.toUpperCase() + word.slice(1)]);
  for (let at = 0; at < word.length; at += 1) {
    variants.add(word.slice(0, at) + (word[at] as string).toUpperCase() + word.slice(at + 1));
  }
  variants.delete(word);
  return [...variants];
}

/** every variant of a tool name: case, a hidden character at each position, whitespace at each end, look-alikes */
function variantsOf(word: string): [kind: string, variant: string][] {
  const variants: [string, string][] = caseVariants(word).map((variant) => ["case", variant]);
  for (const hidden of HIDDEN) {
    for (let at = 0; at <= word.length; at += 1) {
      variants.push([`U+${hidden.codePointAt(0)?.toString(16)} at ${at}`, word.slice(0, at) + hidden + word.slice(at)]);
    }
  }
  for (const space of SPACES) {
    variants.push([`trailing U+${space.codePointAt(0)?.toString(16)}`, word + space]);
    variants.push([`leading U+${space.codePointAt(0)?.toString(16)}`, space + word]);
  }
  for (let at = 0; at < word.length; at += 1) {
    for (const alike of LOOK_ALIKES[word[at] as string] ?? []) {
      variants.push([
        `U+${alike.codePointAt(0)?.toString(16)} for ${word[at]}`,
        word.slice(0, at) + alike + word.slice(at + 1),
      ]);
    }
  }
  return variants;
}

const TOOL_VARIANTS = variantsOf(TOOL);
const NAME_VARIANTS: [string, string][] = [
  ...TOOL_VARIANTS.map(([kind, variant]): [string, string] => [kind, `mcp__${SERVER}__${variant}`]),
  ...variantsOf("github").map(([kind, variant]): [string, string] => [`server ${kind}`, `mcp__${variant}__${TOOL}`]),
  ...caseVariants("mcp").map((variant): [string, string] => [`prefix case`, `${variant}__${SERVER}__${TOOL}`]),
];

const ok: CallToolResult = { content: [{ type: "text", text: "ran" }] };

describe("a denied tool's look-alike names are never allowed", () => {
  it("covers hundreds of variants", () => {
    expect(NAME_VARIANTS.length).toBeGreaterThan(500);
    expect(policy.evaluate({ tool: DENIED, input: {} }).behavior).toBe("deny");
    expect(policy.evaluate({ tool: "mcp__github__create_issue", input: {} }).behavior).toBe("allow");
  });

  it("the policy (every host) never allows one, in any mode", () => {
    const allowed: string[] = [];
    for (const [kind, tool] of NAME_VARIANTS) {
      for (const mode of MODES) {
        const decision = policy.evaluate({ tool, input: {} }, { mode, grants: ["mcp__github__*"] });
        if (decision.behavior === "allow") allowed.push(`${kind} (${mode}): ${JSON.stringify(tool)}`);
      }
    }
    expect(allowed).toEqual([]);
  });

  it("the guard never allows one, and records none of its characters toolgate cannot read", async () => {
    const guard = createGuard({ policy });
    const session = guard.session("variants", { interactive: false });
    const allowed: string[] = [];
    let id = 0;
    for (const [kind, tool] of NAME_VARIANTS) {
      id += 1;
      const { decision } = await session.decide({ toolUseId: `c${id}`, tool, input: {} });
      if (decision.behavior === "allow") allowed.push(`${kind}: ${JSON.stringify(tool)}`);
    }
    expect(allowed).toEqual([]);
    const state = JSON.stringify(await session.state());
    expect(state).not.toMatch(/\\u0000|\\u200b|\\u2028/);
  });

  it("a guard without toolgate's policy (the host's own rules decide) still refuses a name it cannot read", async () => {
    const session = createGuard({}).session("no-policy", { interactive: false });
    const { decision } = await session.decide({ toolUseId: "c", tool: `${DENIED}\u200b`, input: {} });
    expect(decision.behavior).toBe("deny");
  });

  it("the MCP proxy never forwards one to the server", async () => {
    const session = createGuard({ policy }).session("proxy-variants", { interactive: false });
    const forwarded: string[] = [];
    let id = 0;
    for (const [kind, name] of TOOL_VARIANTS) {
      id += 1;
      const result = await guardMcpToolCall({
        session,
        server: SERVER,
        params: { name, arguments: {} },
        callId: `p${id}`,
        forward: async () => {
          forwarded.push(`${kind}: ${JSON.stringify(name)}`);
          return ok;
        },
      });
      expect(result.isError, kind).toBe(true);
    }
    expect(forwarded).toEqual([]);
  });

  it("any mix of case, hidden characters, end whitespace and look-alikes is never allowed (property)", () => {
    const letters = [...TOOL];
    const letter = (index: number) =>
      fc.oneof(
        fc.constant(letters[index] as string),
        fc.constant((letters[index] as string).toUpperCase()),
        fc.constantFrom(...(LOOK_ALIKES[letters[index] as string] ?? [letters[index] as string])),
      );
    const name = fc
      .tuple(
        fc.tuple(...letters.map((_, index) => letter(index))),
        fc.array(fc.tuple(fc.nat(letters.length), fc.constantFrom(...HIDDEN)), { maxLength: 2 }),
        fc.constantFrom("", ...SPACES),
        fc.constantFrom("", ...SPACES),
      )
      .map(([parts, hidden, before, after]) => {
        const word = [...parts];
        for (const [at, character] of hidden) word.splice(at, 0, character);
        return `${before}${word.join("")}${after}`;
      });
    fc.assert(
      fc.property(name, (tool) => {
        for (const full of [`mcp__${SERVER}__${tool}`, `MCP__GitHub__${tool}`]) {
          expect(policy.evaluate({ tool: full, input: {} }, { mode: "bypassPermissions" }).behavior, full).not.toBe(
            "allow",
          );
        }
      }),
      { numRuns: 2000 },
    );
  });
});
