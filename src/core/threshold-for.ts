import type { CompiledConfig, HeadlessStrategy } from "./config.js";

/** The escalation threshold and headless strategy for a tool: first matching glob that sets each, else defaults. */
export function thresholdFor(config: CompiledConfig, tool: string): { threshold: number; hard: number } {
  let threshold = config.defaultThreshold;
  for (const entry of config.thresholds) {
    if (entry.threshold !== undefined && entry.matches(tool)) {
      threshold = entry.threshold;
      break;
    }
  }
  return { threshold, hard: Math.ceil(threshold * config.hardMultiplier) };
}

export function strategyFor(config: CompiledConfig, tool: string): HeadlessStrategy {
  for (const entry of config.thresholds) {
    if (entry.headlessStrategy !== undefined && entry.matches(tool)) return entry.headlessStrategy;
  }
  return config.headlessStrategy;
}

export function alternativesFor(config: CompiledConfig, tool: string): string[] {
  for (const entry of config.alternatives) {
    if (entry.matches(tool)) return entry.names;
  }
  return [];
}
