import { describe, expect, it } from "vitest";
import { allowRuleSuggestion } from "./allow-rule-suggestion.js";

const heredoc = "cat > protected/settings.ini <<'EOF'\n[app]\ndebug = true\nlog_level = info\nEOF";

describe("allowRuleSuggestion (issue 26 item 4): a rule only where one changes the outcome", () => {
  it.each<[string, Parameters<typeof allowRuleSuggestion>[0], string | null, RegExp | null]>([
    [
      "a plain call a person declined",
      { tool: "Bash", input: { command: "npm test" }, sources: ["user"], denyRuleWins: false },
      "Bash(npm test)",
      null,
    ],
    [
      "a heredoc: never a rule holding the file's body",
      { tool: "Bash", input: { command: heredoc }, sources: ["headless"], denyRuleWins: false },
      null,
      /heredoc/,
    ],
    [
      "a tab-stripping heredoc through another host's shell tool",
      { tool: "exec_command", input: { cmd: "cat <<-END > a\nx\nEND" }, sources: ["headless"], denyRuleWins: false },
      null,
      /heredoc/,
    ],
    [
      "a here-string is no heredoc",
      { tool: "Bash", input: { command: "grep x <<< hello" }, sources: ["user"], denyRuleWins: false },
      "Bash(grep x)",
      null,
    ],
    [
      "only the OS or a sandbox refused it",
      { tool: "Bash", input: { command: "touch /etc/x" }, sources: ["sandbox"], denyRuleWins: false },
      null,
      /OS, a sandbox/,
    ],
    [
      "the OS and a person: a rule still helps the person's part",
      { tool: "Bash", input: { command: "touch x" }, sources: ["sandbox", "user"], denyRuleWins: false },
      "Bash(touch x)",
      null,
    ],
    [
      "a deny rule would still win",
      { tool: "Bash", input: { command: "rm -rf build3" }, sources: ["headless"], denyRuleWins: true },
      null,
      /deny rule wins/,
    ],
    [
      "a language without a rule for the call",
      {
        tool: "apply_patch",
        input: {},
        sources: ["user"],
        denyRuleWins: false,
        language: { name: "Codex execpolicy .rules", allowRule: () => undefined },
      },
      null,
      /Codex execpolicy \.rules has no rule/,
    ],
  ])("%s", (_name, options, rule, why) => {
    const suggestion = allowRuleSuggestion(options);
    expect(suggestion.rule).toBe(rule);
    if (why !== null) expect(suggestion.rule === null ? suggestion.why : "").toMatch(why);
  });
});
