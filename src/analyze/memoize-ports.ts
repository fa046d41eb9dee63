import type { CompiledConfig, CorePorts } from "../core/config.js";

/**
 * The replay sees the same calls and texts again and again (a loop is the same call; a host's denial text is the
 * same sentence): the ports' pure results (redaction of texts and of JSON values, signature, pattern, suggested
 * rule) are cached, bounded, for
 * a whole `analyze` run. The cached values are never mutated (the core copies before it writes).
 */
const MAX_ENTRIES = 5000;
const MAX_TEXT = 4000;
/** a value (the core redacts a denied call's input with its reason) is cached up to this JSON length */
const MAX_VALUE = 16_000;

function memo<V>(): (key: string, compute: () => V) => V {
  const cache = new Map<string, V>();
  return (key, compute) => {
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const value = compute();
    if (cache.size >= MAX_ENTRIES) cache.clear();
    cache.set(key, value);
    return value;
  };
}

export function memoizePorts(config: CompiledConfig): CompiledConfig {
  const ports = config.ports;
  const keyOf = (tool: string, input: unknown) => `${tool}\u0000${JSON.stringify(input) ?? ""}`;
  const described = memo<ReturnType<CorePorts["describeCall"]>>();
  const suggested = memo<string>();
  const redacted = memo<string>();
  const redactedValues = memo<unknown>();
  const memoized: CorePorts = {
    ...ports,
    describeCall: (tool, input) => described(keyOf(tool, input), () => ports.describeCall(tool, input)),
    suggestRule: (tool, input) => suggested(keyOf(tool, input), () => ports.suggestRule(tool, input)),
    redactValue: (value) => {
      const key = JSON.stringify(value) ?? "";
      return key.length > MAX_VALUE ? ports.redactValue(value) : redactedValues(key, () => ports.redactValue(value));
    },
    redactText: (text) =>
      text.length > MAX_TEXT ? ports.redactText(text) : redacted(text, () => ports.redactText(text)),
  };
  return { ...config, ports: memoized };
}
