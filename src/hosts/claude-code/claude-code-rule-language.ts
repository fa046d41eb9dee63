import type { RuleLanguage } from "../../policy/grants/allow-rule-suggestion.js";
import { suggestRule } from "../../policy/grants/suggest-rule.js";

/** Claude Code's `permissions.allow` in its settings files: `Bash(npm run build)`, `WebFetch(domain:example.com)` */
export const claudeCodeRuleLanguage: RuleLanguage = {
  name: "Claude Code permissions.allow",
  allowRule: (tool, input) => suggestRule(tool, input),
};
