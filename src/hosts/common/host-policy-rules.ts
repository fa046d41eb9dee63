import type { CompileWarning, PolicyRule } from "../../policy/policy-types.js";

/** A host's own permission rules, evaluated beside toolgate's (the stricter answer wins; see `buildPolicy`). */
export interface HostPolicyRules {
  /** the host's rules in toolgate's form, each with the host's own priority semantics */
  rules: PolicyRule[];
  /** the files they came from */
  sources: string[];
  /** rules toolgate cannot express (the host still applies them; toolgate does not see those denials first) */
  warnings: CompileWarning[];
  /** whether the Claude Code settings hierarchy also applies to this host (unless the config says otherwise) */
  claudeSettings: boolean;
}
