import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { PolicyEvaluator } from "../../guard/create-guard.js";
import { readClaudeSettings } from "../../node/claude-settings.js";
import { compilePolicy } from "../../policy/compile-policy.js";
import { CLAUDE_CODE_DEFAULTS } from "../../policy/defaults/claude-code-defaults.js";
import { parseRule } from "../../policy/parse-rule.js";
import type { CompileWarning, PolicyRule } from "../../policy/policy-types.js";

/** The toolgate config files `loadConfig` reads (src/node/load-config.ts), and the env variables it applies. */
const CONFIG_FILE_NAMES = ["toolgate.config.json", ".toolgate.json"];
const CONFIG_ENV = ["TOOLGATE_CONFIG", "TOOLGATE_DENY_THRESHOLD", "TOOLGATE_NUDGE_THRESHOLD"];

/**
 * Whether a toolgate config applies to this project (a file in the directory or an ancestor, the user file, or a
 * config env variable). Without one the hook takes its fast path: no config schema to load.
 */
export function hasToolgateConfig(options: {
  cwd: string;
  homeDir: string;
  env: Readonly<Record<string, string | undefined>>;
}): boolean {
  if (CONFIG_ENV.some((name) => (options.env[name] ?? "") !== "")) return true;
  if (existsSync(join(options.homeDir, ".toolgate.json"))) return true;
  let directory = resolve(options.cwd);
  for (;;) {
    if (CONFIG_FILE_NAMES.some((name) => existsSync(join(directory, name)))) return true;
    const parent = dirname(directory);
    if (parent === directory) return false;
    directory = parent;
  }
}

/**
 * The project's live Claude Code settings hierarchy as a policy, exactly as `createPolicy` builds it when no
 * toolgate config exists (Claude Code defaults preset, managed/local/project/user rules, workspace trust), without
 * loading the config schema. Never throws from `evaluate` (an internal error is a deny).
 */
export function claudeSettingsPolicy(options: {
  cwd: string;
  homeDir: string;
  env: Readonly<Record<string, string | undefined>>;
}): PolicyEvaluator & { warnings: CompileWarning[] } {
  const settings = readClaudeSettings({ cwd: options.cwd, homeDir: options.homeDir, env: options.env });
  const warnings: CompileWarning[] = [];
  const rules: PolicyRule[] = [];
  for (const rule of settings.rules) {
    try {
      parseRule(rule.rule);
      rules.push(rule);
    } catch (error) {
      warnings.push({ code: "RULE_SYNTAX", message: `${(error as Error).message} (${rule.origin})` });
    }
  }
  for (const skipped of settings.ignored) {
    warnings.push({
      code: "RULE_IGNORED",
      message: `The ${skipped.scope} allow rule ${JSON.stringify(skipped.rule)} is ignored: ${skipped.why}.`,
    });
  }
  const compiled = compilePolicy({
    rules,
    cwd: options.cwd,
    homeDir: options.homeDir,
    additionalDirectories: settings.additionalDirectories,
    defaults: CLAUDE_CODE_DEFAULTS,
    ...(settings.defaultMode === undefined ? {} : { defaultMode: settings.defaultMode }),
  });
  warnings.push(...compiled.warnings);
  return {
    warnings,
    evaluate(call, evaluateOptions) {
      try {
        return compiled.evaluate(call, evaluateOptions);
      } catch (error) {
        return {
          behavior: "deny",
          source: "toolgate",
          reason: `toolgate could not evaluate this call (${(error as Error).message}), so it is denied (fail closed).`,
          denialSource: "rule",
        };
      }
    },
  };
}
