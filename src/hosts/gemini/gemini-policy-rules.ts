import { existsSync } from "node:fs";
import { join } from "node:path";
import type { PolicyRule } from "../../policy/policy-types.js";
import type { HostPolicyRules } from "../common/host-policy-rules.js";
import { importGemini } from "./import-gemini.js";

/**
 * Gemini CLI's own rules as toolgate evaluates them beside its own: `~/.gemini/policies/*.toml` (user tier), read
 * with the import layer (`toolgate import gemini`). Gemini CLI 0.61.0 switches workspace policies
 * (`.gemini/policies/`) off (`disableWorkspacePolicies = true` in its bundle), so they are not read here either.
 * A policy file that is not valid TOML throws CONFIG_INVALID (the hook then fails closed and names the file).
 */
export function geminiPolicyRules(options: { homeDir: string; cwd: string }): HostPolicyRules {
  const none: HostPolicyRules = { rules: [], sources: [], warnings: [], claudeSettings: false };
  const directory = join(options.homeDir, ".gemini", "policies");
  if (!existsSync(directory)) return none;
  let imported: ReturnType<typeof importGemini>;
  try {
    imported = importGemini({ cwd: options.cwd, homeDir: options.homeDir, path: directory });
  } catch (error) {
    if ((error as { code?: string }).code === "CONFIG_NOT_FOUND") return none;
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
