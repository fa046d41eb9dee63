import type {
  CompiledConfig,
  CompiledThreshold,
  CoreOptions,
  CorePorts,
  HeadlessStrategy,
  TemplateName,
} from "./config.js";
import { ToolgateError } from "./errors.js";
import { compileTemplate, DEFAULT_TEMPLATES, TEMPLATE_NAMES } from "./templates.js";
import { type ToolFamily, toolFamily } from "./tool-families.js";
import { compileToolGlob, compileToolGlobs } from "./tool-glob.js";

/**
 * Default thresholds per tool family (core/tool-families.ts): shell tools escalate after 2 denials, read and search
 * tools after 5, everything else after `defaultThreshold` (3). Threshold globs in the config come first;
 * `familyThresholds` (config or TOOLGATE_DENY_THRESHOLD[_<FAMILY>]) replace these values.
 */
export const DEFAULT_THRESHOLDS: Readonly<Partial<Record<ToolFamily, number>>> = { shell: 2, read: 5, search: 5 };

/** The per-family thresholds after the config's globs: the defaults, each replaced by `familyThresholds`. */
function familyThresholds(overrides: CoreOptions["familyThresholds"]): CompiledThreshold[] {
  const merged: Partial<Record<string, number>> = { ...DEFAULT_THRESHOLDS };
  for (const [family, threshold] of Object.entries(overrides ?? {})) {
    const value = positiveInteger(threshold, `escalation.familyThresholds.${family}`);
    if (value !== undefined) merged[family] = value;
  }
  return Object.entries(merged).map(([family, threshold]) => ({
    matches: (tool: string) => toolFamily(tool) === family,
    threshold,
    headlessStrategy: undefined,
  }));
}

export const DEFAULTS = {
  defaultThreshold: 3,
  hardMultiplier: 2,
  totalThreshold: 20,
  headlessStrategy: "abort" as HeadlessStrategy,
  recordBufferSize: 100,
  nudge: { enabled: true, threshold: 2, cooldownMs: 5 * 60_000, hourlyCap: 3 },
  loop: { observe: 3, steer: 4, block: 6, stop: 10, sameErrorSteer: 3, maxCycleLength: 5 },
} as const;

/** `{a,b}` alternatives are expanded here (one level), then each becomes a tool glob. */
function compileThresholdGlob(glob: string): (tool: string) => boolean {
  const braces = /^\{([^{}]*)\}$/.exec(glob);
  if (braces) return compileToolGlobs((braces[1] as string).split(","));
  return compileToolGlob(glob);
}

/**
 * Upper bounds that keep each step's work and each session's state small (loop detection scans up to
 * `maxCycleLength` cycle lengths over a window of about `2 × stop` calls). The zod schema (config/escalation-schema.ts)
 * uses the same numbers, so every config it accepts compiles.
 */
export const CORE_OPTION_LIMITS = { recordBufferSize: 10_000, loopStop: 1_000, maxCycleLength: 20 } as const;

function wholeNumber(
  value: number | undefined,
  path: string,
  range: { min: number; max?: number },
): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < range.min || (range.max !== undefined && value > range.max)) {
    const upTo = range.max === undefined ? "" : ` and at most ${range.max}`;
    throw new ToolgateError({
      code: "CONFIG_INVALID",
      message: `${path} must be a whole number of at least ${range.min}${upTo} (got ${String(value)}).`,
    });
  }
  return value;
}

function positiveInteger(value: number | undefined, path: string, max?: number): number | undefined {
  return wholeNumber(value, path, max === undefined ? { min: 1 } : { min: 1, max });
}

function atLeastOne(value: number | undefined, path: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isFinite(value) || value < 1) {
    throw new ToolgateError({
      code: "CONFIG_INVALID",
      message: `${path} must be a number of at least 1 (got ${String(value)}).`,
    });
  }
  return value;
}

function level(value: number | false | undefined, fallback: number, path: string): number | false {
  if (value === false) return false;
  return positiveInteger(value, path) ?? fallback;
}

/**
 * Validated options + the pure ports → the compiled config the reducer reads. Throws ToolgateError
 * (CONFIG_INVALID) for values no schema should have let through.
 */
export function compileCoreConfig(options: {
  options?: CoreOptions;
  ports: CorePorts;
  warnings?: { code: string; message: string }[];
}): CompiledConfig {
  const core = options.options ?? {};
  const thresholds: CompiledThreshold[] = (core.thresholds ?? []).map((entry, index) => ({
    matches: compileThresholdGlob(entry.tool),
    threshold: positiveInteger(entry.threshold, `escalation.thresholds[${index}].threshold`),
    headlessStrategy: entry.headlessStrategy,
  }));
  thresholds.push(...familyThresholds(core.familyThresholds));
  const templates = {} as Record<TemplateName, ReturnType<typeof compileTemplate>>;
  for (const name of TEMPLATE_NAMES) {
    templates[name] = compileTemplate(core.templates?.[name] ?? DEFAULT_TEMPLATES[name]);
  }
  const loop = core.loop ?? {};
  const stop = positiveInteger(loop.stop, "escalation.loop.stop", CORE_OPTION_LIMITS.loopStop) ?? DEFAULTS.loop.stop;
  const maxCycleLength =
    positiveInteger(loop.maxCycleLength, "escalation.loop.maxCycleLength", CORE_OPTION_LIMITS.maxCycleLength) ??
    DEFAULTS.loop.maxCycleLength;
  const nudge = core.nudge ?? {};
  return {
    thresholds,
    defaultThreshold:
      positiveInteger(core.defaultThreshold, "escalation.defaultThreshold") ?? DEFAULTS.defaultThreshold,
    hardMultiplier: atLeastOne(core.hardMultiplier, "escalation.hardMultiplier") ?? DEFAULTS.hardMultiplier,
    totalThreshold: positiveInteger(core.totalThreshold, "escalation.totalThreshold") ?? DEFAULTS.totalThreshold,
    headlessStrategy: core.headlessStrategy ?? DEFAULTS.headlessStrategy,
    alternatives: Object.entries(core.alternatives ?? {}).map(([glob, names]) => ({
      matches: compileThresholdGlob(glob),
      names,
    })),
    grantWholeTool: core.grantWholeTool ?? false,
    recordBufferSize:
      positiveInteger(core.recordBufferSize, "escalation.recordBufferSize", CORE_OPTION_LIMITS.recordBufferSize) ??
      DEFAULTS.recordBufferSize,
    sessionTreeBudget: positiveInteger(core.sessionTreeBudget, "escalation.sessionTreeBudget"),
    nudge: {
      enabled: nudge.enabled ?? true,
      threshold: positiveInteger(nudge.threshold, "escalation.nudge.threshold") ?? DEFAULTS.nudge.threshold,
      cooldownMs: wholeNumber(nudge.cooldownMs, "escalation.nudge.cooldownMs", { min: 0 }) ?? DEFAULTS.nudge.cooldownMs,
      // 0: no nudges at all (like `enabled: false`)
      hourlyCap: wholeNumber(nudge.hourlyCap, "escalation.nudge.hourlyCap", { min: 0 }) ?? DEFAULTS.nudge.hourlyCap,
    },
    loop: {
      observe: level(loop.observe, DEFAULTS.loop.observe, "escalation.loop.observe"),
      steer: level(loop.steer, DEFAULTS.loop.steer, "escalation.loop.steer"),
      block: level(loop.block, DEFAULTS.loop.block, "escalation.loop.block"),
      stop,
      sameErrorSteer:
        positiveInteger(loop.sameErrorSteer, "escalation.loop.sameErrorSteer") ?? DEFAULTS.loop.sameErrorSteer,
      maxCycleLength,
      windowSize: Math.max(2 * maxCycleLength * 2, stop * 2, 20),
      isExempt: compileToolGlobs(loop.exemptTools ?? []),
    },
    templates,
    ports: options.ports,
    warnings: options.warnings ?? [],
  };
}
