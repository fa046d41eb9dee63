import type { CompiledConfig, HeadlessStrategy } from "./config.js";

interface ToolSettings {
  threshold: number;
  hard: number;
  strategy: HeadlessStrategy;
  alternatives: string[];
}

/**
 * Per-tool settings resolved once per tool name and config (first matching glob that sets each value, else the
 * defaults). The cache belongs to the compiled config, so results are the same as resolving each time.
 */
const cache = new WeakMap<CompiledConfig, Map<string, ToolSettings>>();

function settingsFor(config: CompiledConfig, tool: string): ToolSettings {
  let byTool = cache.get(config);
  if (byTool === undefined) {
    byTool = new Map();
    cache.set(config, byTool);
  }
  const known = byTool.get(tool);
  if (known !== undefined) return known;
  const threshold = config.thresholds.find((entry) => entry.threshold !== undefined && entry.matches(tool))?.threshold;
  const strategy = config.thresholds.find(
    (entry) => entry.headlessStrategy !== undefined && entry.matches(tool),
  )?.headlessStrategy;
  const resolved = threshold ?? config.defaultThreshold;
  const settings: ToolSettings = {
    threshold: resolved,
    hard: Math.ceil(resolved * config.hardMultiplier),
    strategy: strategy ?? config.headlessStrategy,
    alternatives: config.alternatives.find((entry) => entry.matches(tool))?.names ?? [],
  };
  if (byTool.size < 1024) byTool.set(tool, settings);
  return settings;
}

/** The escalation threshold and its hard stage for a tool. */
export function thresholdFor(config: CompiledConfig, tool: string): { threshold: number; hard: number } {
  return settingsFor(config, tool);
}

/** The headless strategy for a tool. */
export function strategyFor(config: CompiledConfig, tool: string): HeadlessStrategy {
  return settingsFor(config, tool).strategy;
}

/** The alternatives to name in fallback text for a tool. */
export function alternativesFor(config: CompiledConfig, tool: string): string[] {
  return settingsFor(config, tool).alternatives;
}
