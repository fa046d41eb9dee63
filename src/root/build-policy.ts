import { homedir } from "node:os";
import type { ToolgateConfig } from "../config/schema.js";
import { sharedSettingsHierarchy } from "../hosts/registry.js";
import { compilePolicy } from "../policy/compile-policy.js";
import { NO_DEFAULTS, READ_ONLY_DEFAULTS } from "../policy/defaults/read-only-defaults.js";
import { parseRule } from "../policy/parse-rule.js";
import type {
  CompileWarning,
  EvaluateOptions,
  PermissionMode,
  PolicyDecision,
  PolicyRule,
  ToolCallInput,
} from "../policy/policy-types.js";
import type { HostPolicyRules } from "./host-policy-rules.js";
import { stricterDecision } from "./stricter-decision.js";

export interface BuildPolicyOptions {
  /** the project directory; relative rules and paths resolve against it (default: process.cwd()) */
  cwd?: string;
  /** default: os.homedir() */
  homeDir?: string;
  /** default: process.env */
  env?: Readonly<Record<string, string | undefined>>;
  /** the validated toolgate config (`{}` when there is none) */
  config: ToolgateConfig;
  /** warnings and sources from loading it (`loadConfig`) */
  loaded?: { warnings: readonly CompileWarning[]; sources: readonly string[] };
  /** read the Claude Code settings hierarchy and use its defaults preset (default: config.claudeSettings.enabled ?? true) */
  claudeSettings?: boolean;
  /**
   * the host's own rules (its descriptor's `permissionRules`), compiled apart with no defaults and combined with toolgate's: a deny
   * in either denies, then an explicit ask, then an allow (see `stricterDecision`); the host's own priorities apply
   * among its rules only, so no host allow can outrank a toolgate deny
   */
  hostPolicy?: HostPolicyRules;
}

export interface Policy {
  /**
   * The decision for one call. Never throws: an internal error is a deny with source `toolgate` (fail closed).
   * `options.mode` defaults to the configured defaultMode; `interactive` to true; `grants` are session grants as
   * rules (they never override a deny).
   */
  evaluate(call: ToolCallInput, options?: EvaluateOptions): PolicyDecision;
  /** whether a session grant could let this call through (no deny rule, not `neverGrant`); false on error */
  canGrant(call: ToolCallInput, options?: EvaluateOptions): boolean;
  /** ignored rules, untrusted-workspace skips, env problems */
  readonly warnings: readonly CompileWarning[];
  /** the files the rules came from */
  readonly sources: readonly string[];
  readonly defaultMode: PermissionMode;
}

/**
 * The policy for an already loaded toolgate config plus (unless turned off) the shared settings hierarchy (Claude Code's) of
 * the project and home directory, with the read-only defaults preset for calls no rule matches. Imports no zod:
 * hosts without a toolgate config can call it with `config: {}` on their fast path.
 */
export function buildPolicy(options: BuildPolicyOptions): Policy {
  const cwd = options.cwd ?? process.cwd();
  const homeDir = options.homeDir ?? homedir();
  const env = options.env ?? process.env;
  const loaded = options.loaded ?? { warnings: [], sources: [] };
  const { config } = options;
  const warnings: CompileWarning[] = [...loaded.warnings];
  const sources: string[] = [...loaded.sources];
  const origin = loaded.sources.find((source) => !source.startsWith("env:"));
  const label = origin === undefined ? "toolgate config" : `toolgate config (${origin})`;
  const rules: PolicyRule[] = [];
  const permissions = config.permissions ?? {};
  for (const behavior of ["deny", "ask", "allow"] as const) {
    for (const rule of permissions[behavior] ?? []) rules.push({ rule, behavior, origin: label });
  }
  for (const rule of permissions.rules ?? []) {
    rules.push({ ...rule, modes: rule.modes as PermissionMode[] | undefined, origin: label });
  }
  const claudeEnabled =
    options.claudeSettings ?? config.claudeSettings?.enabled ?? options.hostPolicy?.claudeSettings ?? true;
  let defaultMode = permissions.defaultMode as PermissionMode | undefined;
  const additionalDirectories = [...(permissions.additionalDirectories ?? [])];
  const hierarchy = claudeEnabled ? sharedSettingsHierarchy() : undefined;
  if (hierarchy !== undefined) {
    const settings = hierarchy.read({
      cwd,
      homeDir,
      env,
      ...(config.claudeSettings?.managedSettingsPath === undefined
        ? {}
        : { managedSettingsPath: config.claudeSettings.managedSettingsPath }),
      ...(config.claudeSettings?.workspaceTrust === undefined
        ? {}
        : { workspaceTrust: config.claudeSettings.workspaceTrust }),
    });
    sources.push(...settings.files);
    for (const { file, why } of settings.skipped) {
      warnings.push({
        code: "SETTINGS_IGNORED",
        message: `${hierarchy.displayName} ignores ${file}: ${why}. Until then neither ${hierarchy.displayName} nor toolgate applies its permission rules, and ${hierarchy.displayName} runs none of its hooks (\`toolgate doctor\` checks it).`,
      });
    }
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
    defaultMode ??= settings.defaultMode;
    additionalDirectories.push(...settings.additionalDirectories);
  }
  const presetName = permissions.defaults ?? (claudeEnabled ? "read-only" : "none");
  const compiled = compilePolicy({
    rules,
    cwd,
    homeDir,
    additionalDirectories,
    defaults: presetName === "none" ? NO_DEFAULTS : READ_ONLY_DEFAULTS,
    neverGrant: permissions.neverGrant ?? [],
    ...(defaultMode === undefined ? {} : { defaultMode }),
  });
  warnings.push(...compiled.warnings);
  const host =
    options.hostPolicy === undefined
      ? undefined
      : compilePolicy({ rules: options.hostPolicy.rules, cwd, homeDir, defaults: NO_DEFAULTS });
  if (options.hostPolicy !== undefined && host !== undefined) {
    sources.push(...options.hostPolicy.sources);
    warnings.push(...options.hostPolicy.warnings, ...host.warnings);
  }
  const evaluate = (call: ToolCallInput, evaluateOptions: EvaluateOptions = {}): PolicyDecision => {
    try {
      const own = compiled.evaluate(call, evaluateOptions);
      return host === undefined ? own : stricterDecision(own, host.evaluate(call, evaluateOptions));
    } catch (error) {
      return {
        behavior: "deny",
        source: "toolgate",
        reason: `toolgate could not evaluate this call (${(error as Error).message}), so it is denied (fail closed).`,
        denialSource: "rule",
      };
    }
  };
  const canGrant = (call: ToolCallInput, evaluateOptions: EvaluateOptions = {}): boolean => {
    try {
      return compiled.canGrant(call, evaluateOptions) && (host?.canGrant(call, evaluateOptions) ?? true);
    } catch {
      return false;
    }
  };
  return { evaluate, canGrant, warnings, sources, defaultMode: defaultMode ?? "default" };
}
