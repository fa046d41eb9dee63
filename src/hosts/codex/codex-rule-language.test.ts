import { describe, expect, it } from "vitest";
import { codexRuleLanguage } from "./codex-rule-language.js";
import { parseExecpolicyRules } from "./execpolicy-rules.js";

/** Codex's `.rules` as Codex's own parser reads them (execpolicy-rules.ts follows codex-rs/execpolicy/src/parser.rs) */
function parsed(text: string) {
  const result = parseExecpolicyRules(text, "suggested.rules");
  expect(result.problems).toEqual([]);
  return result.rules.map((rule) => ({ pattern: rule.pattern, decision: rule.decision }));
}

describe("Codex's rule language (issue 26 item 4: rules Codex reads, not exec_command(...))", () => {
  it("a command becomes an execpolicy prefix_rule Codex's parser reads as allow", () => {
    const rule = codexRuleLanguage.allowRule("exec_command", { cmd: "git push origin main" });
    expect(rule).toBe('prefix_rule(pattern=["git", "push", "origin", "main"], decision="allow")');
    expect(parsed(rule as string)).toEqual([{ pattern: ["git", "push", "origin", "main"], decision: "allow" }]);
  });

  it("a script of several commands gets one rule per command (Codex checks each); quotes survive", () => {
    const rule = codexRuleLanguage.allowRule("shell", { command: ["bash", "-lc", `npm test && echo "done \\"ok\\""`] });
    expect(parsed(rule as string)).toEqual([
      { pattern: ["npm", "test"], decision: "allow" },
      { pattern: ["echo", 'done "ok"'], decision: "allow" },
    ]);
  });

  it("no rule for a tool Codex has no rule for", () => {
    expect(codexRuleLanguage.allowRule("apply_patch", { input: "*** Begin Patch" })).toBeUndefined();
    expect(codexRuleLanguage.allowRule("web_search", { query: "x" })).toBeUndefined();
  });
});
