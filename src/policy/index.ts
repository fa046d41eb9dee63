/**
 * `toolgate/policy`: the policy engine. Claude Code compatible permission rules, one precedence function, modes,
 * session grants, and the form other hosts' rules are imported into (each host's importer lives in its folder under
 * src/hosts/). Pure: no node:* imports, no clock, no I/O. Files are read by the composition root (src/root,
 * createPolicy) and validated by src/config/. Adding a line here is an API decision.
 */
export { applyMode } from "./apply-mode.js";
export {
  type ClaudePermissions,
  type ClaudeSettingsRules,
  type ClaudeSettingsScope,
  mergeClaudeSettings,
  normalizeMode,
} from "./claude-settings-rules.js";
export { commandPattern } from "./command-pattern.js";
export { type CompiledPolicy, compilePolicy, type PolicyOptions } from "./compile-policy.js";
export { type CompiledRule, compileRule } from "./compile-rule.js";
export { type DefaultsPreset, NO_DEFAULTS, READ_ONLY_DEFAULTS } from "./defaults/read-only-defaults.js";
export { type GrantScopeRequest, minimumGrantScope } from "./grants/minimum-grant-scope.js";
export { SAFE_GRANT_PREFIXES } from "./grants/safe-grant-prefixes.js";
export { suggestRule } from "./grants/suggest-rule.js";
export type { ImportedRule, ImportResult } from "./import/imported-rules.js";
export { formatRule, type ParsedRule, parseRule } from "./parse-rule.js";
export {
  type CompileWarning,
  type EvaluateOptions,
  PERMISSION_MODES,
  type PermissionMode,
  type PolicyDecision,
  type PolicyRule,
  type ToolCallInput,
} from "./policy-types.js";
export { combineParts, pickWinningRule } from "./precedence.js";
export { analyzeShellCommand, type ShellAnalysis, type Subcommand } from "./shell/analyze-shell-command.js";
export { COMMAND_ARITY, commandPrefix } from "./shell/command-arity.js";
export { canonicalToolName, type RuleFamily, toolFamily as ruleFamily } from "./tool-families.js";
