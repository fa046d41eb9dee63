import type { PermissionUpdate } from "@anthropic-ai/claude-agent-sdk";
import type { GrantScope } from "../../core/effects.js";
import { parseRule } from "../../policy/parse-rule.js";

/**
 * The `updatedPermissions` for an accepted toolgate grant: one allow rule of the grant's minimum scope, for this
 * session only. Claude Code's own `suggestions` are never passed through (they default to `localSettings`, which
 * persists).
 */
export function sessionGrantUpdate(scope: GrantScope): PermissionUpdate[] {
  const parsed = parseRule(scope.rule);
  const rule =
    parsed.specifier === undefined
      ? { toolName: parsed.tool }
      : { toolName: parsed.tool, ruleContent: parsed.specifier };
  return [{ type: "addRules", rules: [rule], behavior: "allow", destination: "session" }];
}
