import type { HostPolicyRules } from "../common/host-policy-rules.js";
import { codexRulesFiles, loadCodexExecpolicy } from "./codex-execpolicy.js";
import { execpolicyPolicyRules } from "./execpolicy-rules.js";

/**
 * Codex CLI's own execpolicy rules as toolgate evaluates them beside its own (the descriptor's `permissionRules`):
 * `$CODEX_HOME/rules/*.rules`, then the project's `.codex/rules/*.rules` when Codex trusts the project, read
 * without running Starlark (literal `prefix_rule` calls; anything else is a warning, and Codex's refusals under it
 * are counted from the rollout). `CODEX_HOME` comes from the environment, else `<home>/.codex`. The Claude Code
 * settings hierarchy still applies to Codex (as it did before Codex's rules were read here).
 */
export function codexPolicyRules(options: {
  homeDir: string;
  cwd: string;
  env?: Readonly<Record<string, string | undefined>>;
}): HostPolicyRules {
  const env = { ...(options.env ?? process.env), HOME: options.homeDir };
  const parsed = loadCodexExecpolicy({ cwd: options.cwd, env });
  const { rules, warnings } = execpolicyPolicyRules(parsed);
  return { rules, sources: codexRulesFiles({ cwd: options.cwd, env }).files, warnings, claudeSettings: true };
}
