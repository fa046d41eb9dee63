import { existsSync } from "node:fs";
import { join } from "node:path";
import type { CompileWarning, PolicyRule } from "../policy/policy-types.js";
import { importGemini } from "./import-sources.js";

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

/**
 * The host's own permission rules for the hosts that have them in files toolgate can read, by the host name the
 * composition root serves; undefined for every other host (Claude Code's settings are read by `buildPolicy`).
 *
 * Gemini CLI 0.61.0 loads `~/.gemini/policies/*.toml` (user tier); workspace policies (`.gemini/policies/`) are
 * switched off in that release (`disableWorkspacePolicies = true` in its bundle), so they are not read here either.
 * A policy file that is not valid TOML throws CONFIG_INVALID (a hook then fails closed and names the file).
 */
export function hostPolicyRules(options: { host: string; homeDir: string; cwd: string }): HostPolicyRules | undefined {
  if (options.host !== "gemini") return undefined;
  const directory = join(options.homeDir, ".gemini", "policies");
  if (!existsSync(directory)) return { rules: [], sources: [], warnings: [], claudeSettings: false };
  let imported: ReturnType<typeof importGemini>;
  try {
    imported = importGemini({ cwd: options.cwd, homeDir: options.homeDir, path: directory });
  } catch (error) {
    if ((error as { code?: string }).code === "CONFIG_NOT_FOUND") {
      return { rules: [], sources: [], warnings: [], claudeSettings: false };
    }
    throw error;
  }
  const origin = `Gemini CLI policy (${directory})`;
  const rules = (imported.permissions["rules"] as PolicyRule[]).map((rule) => ({ ...rule, origin }));
  const warnings = imported.unsupported.map((entry) => ({
    code: "HOST_RULE_UNSUPPORTED",
    message: `${entry.entry}: ${entry.reason}. Gemini CLI still applies it, but toolgate cannot see its denials first.`,
  }));
  return { rules, sources: imported.files, warnings, claudeSettings: false };
}
