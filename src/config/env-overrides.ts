import type { ToolgateConfig } from "./schema.js";

export interface ConfigWarning {
  code: string;
  message: string;
}

/**
 * Environment overrides (documented in docs/config.md), applied over the files:
 * - TOOLGATE_DENY_THRESHOLD -> escalation.defaultThreshold
 * - TOOLGATE_NUDGE_THRESHOLD, then OPENCODE_DENY_THRESHOLD -> escalation.nudge.threshold
 * A value that is not a positive integer is ignored with a warning (the core emits it as a warning effect).
 * TOOLGATE_CONFIG (a config file path) is read by the loader, not here.
 */
export function applyEnvOverrides(
  config: ToolgateConfig,
  env: Readonly<Record<string, string | undefined>>,
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
  if (deny !== undefined) escalation = { ...escalation, defaultThreshold: deny };
  const nudge = read("TOOLGATE_NUDGE_THRESHOLD") ?? read("OPENCODE_DENY_THRESHOLD");
  if (nudge !== undefined) escalation = { ...escalation, nudge: { ...escalation.nudge, threshold: nudge } };
  if (escalation === config.escalation || (config.escalation === undefined && applied.length === 0)) {
    return { config, warnings, applied };
  }
  return { config: { ...config, escalation }, warnings, applied };
}
