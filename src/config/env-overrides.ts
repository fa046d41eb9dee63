import { TOOL_FAMILY_NAMES, type ToolFamily } from "../core/tool-families.js";
import type { ToolgateConfig } from "./schema.js";

export interface ConfigWarning {
  code: string;
  message: string;
}

/**
 * Environment overrides (documented in docs/config.md), applied over the files:
 * - TOOLGATE_DENY_THRESHOLD -> every tool's threshold: escalation.defaultThreshold and every family's
 *   escalation.familyThresholds entry (so the defaults' shell 2 / read 5 no longer apply); a config
 *   `escalation.thresholds` glob that matches a tool still decides that tool
 * - TOOLGATE_DENY_THRESHOLD_<FAMILY> (SHELL, READ, SEARCH, EDIT, WEB, MCP, OTHER) -> that family's threshold, over
 *   TOOLGATE_DENY_THRESHOLD
 * - TOOLGATE_NUDGE_THRESHOLD, then a host's own older variable for it (`nudgeAliases`, from the hosts' descriptors)
 *   -> escalation.nudge.threshold
 * A value that is not a positive integer is ignored with a warning (the core emits it as a warning effect).
 * TOOLGATE_CONFIG (a config file path) is read by the loader, not here.
 */
export function applyEnvOverrides(
  config: ToolgateConfig,
  env: Readonly<Record<string, string | undefined>>,
  options: { nudgeAliases?: readonly string[] } = {},
): { config: ToolgateConfig; warnings: ConfigWarning[]; applied: string[] } {
  const warnings: ConfigWarning[] = [];
  const applied: string[] = [];
  const read = (name: string): number | undefined => {
    const raw = env[name];
    if (raw === undefined || raw.trim() === "") return undefined;
    const value = Number(raw.trim());
    if (!Number.isInteger(value) || value < 1) {
      warnings.push({
        code: "ENV_INVALID",
        message: `${name}=${JSON.stringify(raw)} is not a positive whole number; using the configured or default value instead. Set it to a number such as 3.`,
      });
      return undefined;
    }
    applied.push(name);
    return value;
  };
  let escalation = config.escalation ?? {};
  const deny = read("TOOLGATE_DENY_THRESHOLD");
  const families: Partial<Record<ToolFamily, number>> = {};
  for (const family of TOOL_FAMILY_NAMES) {
    const value = read(`TOOLGATE_DENY_THRESHOLD_${family.toUpperCase()}`) ?? deny;
    if (value !== undefined) families[family] = value;
  }
  if (deny !== undefined) escalation = { ...escalation, defaultThreshold: deny };
  if (Object.keys(families).length > 0) {
    escalation = { ...escalation, familyThresholds: { ...escalation.familyThresholds, ...families } };
  }
  let nudge = read("TOOLGATE_NUDGE_THRESHOLD");
  for (const alias of options.nudgeAliases ?? []) nudge ??= read(alias);
  if (nudge !== undefined) escalation = { ...escalation, nudge: { ...escalation.nudge, threshold: nudge } };
  if (escalation === config.escalation || (config.escalation === undefined && applied.length === 0)) {
    return { config, warnings, applied };
  }
  return { config: { ...config, escalation }, warnings, applied };
}
