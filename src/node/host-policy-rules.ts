import type { CompileWarning, PolicyRule } from "../policy/policy-types.js";

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

/** The readers of hosts whose permission files toolgate reads, loaded only for that host (one line per host). */
const READERS: Readonly<Record<string, () => Promise<(options: { homeDir: string; cwd: string }) => HostPolicyRules>>> =
  {
    gemini: async () => (await import("./gemini-policy-rules.js")).geminiPolicyRules,
  };

/**
 * The host's own permission rules, by the host name the composition root serves; undefined for every other host
 * (Claude Code's settings are read by `buildPolicy` itself). Throws CONFIG_INVALID for a file it cannot read.
 */
export async function hostPolicyRules(options: {
  host: string;
  homeDir: string;
  cwd: string;
}): Promise<HostPolicyRules | undefined> {
  const load = READERS[options.host];
  if (load === undefined) return undefined;
  return (await load())({ homeDir: options.homeDir, cwd: options.cwd });
}
