import type { CallFacts, CompiledConfig, CorePorts } from "../core/config.js";

/**
 * The replay sees the same calls and texts again and again (a loop is the same call; a host's denial text is the
 * same sentence): the ports' pure results (redaction of texts and of JSON values, signature, pattern, suggested
 * rule) are cached, bounded, for a whole `analyze` run. The cached values are never mutated (the core copies
 * before it writes).
 *
 * A call's input is interned (`describe`): every input with the same JSON is replaced by the first object seen
 * with that JSON, so the per-call work after it (the core's redaction of a denied call's input with its reason,
 * the record's bounded copy, the call's targets) is keyed by the object, not by a JSON text of the whole input
 * built again for every denial. Equal JSON means an equal value to every pure function of it, so the results do
 * not change.
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

/** A call described once: its interned input and its facts (the same objects for every call with the same JSON). */
export interface DescribedCall {
  input: unknown;
  facts: CallFacts;
}

export interface MemoizedPorts {
  config: CompiledConfig;
  /** the call's facts and its interned input */
  describe: (tool: string, input: unknown) => DescribedCall;
}

export function memoizePorts(config: CompiledConfig): MemoizedPorts {
  const ports = config.ports;
  const suggested = memo<string>();
  const redacted = memo<string>();
  const redactedValues = memo<unknown>();
  /** interned inputs and their JSON length */
  const interned = new WeakMap<object, { length: number }>();
  /** tool -> input JSON -> the call described (two levels: no key text joining the two is built per call) */
  let describedOf = new Map<string, Map<string, DescribedCall>>();
  let describedEntries = 0;
  const describe = (tool: string, input: unknown): DescribedCall => {
    const json = JSON.stringify(input) ?? "";
    let ofTool = describedOf.get(tool);
    const hit = ofTool?.get(json);
    if (hit !== undefined) return hit;
    if (input !== null && typeof input === "object" && !interned.has(input)) {
      interned.set(input, { length: json.length });
    }
    const value = { input, facts: ports.describeCall(tool, input) };
    if (describedEntries >= MAX_ENTRIES) {
      describedOf = new Map();
      describedEntries = 0;
      ofTool = undefined;
    }
    if (ofTool === undefined) {
      ofTool = new Map();
      describedOf.set(tool, ofTool);
    }
    ofTool.set(json, value);
    describedEntries += 1;
    return value;
  };
  /**
   * Redactions of values made of interned inputs and strings (the core's `[input, reason, rule, path]`), in a trie
   * of maps keyed by each item itself (the input by identity, a string by value): no key text is built per call.
   */
  type Trie = Map<unknown, { next?: Trie; value?: unknown; done?: boolean }>;
  let trie: Trie = new Map();
  let trieEntries = 0;
  const redactInterned = (value: unknown): { value: unknown } | undefined => {
    if (!Array.isArray(value) || value.length === 0) return undefined;
    let length = 0;
    for (const item of value) {
      if (typeof item === "string") length += item.length;
      else {
        const known = item !== null && typeof item === "object" ? interned.get(item) : undefined;
        if (known === undefined) return undefined;
        length += known.length;
      }
    }
    if (length > MAX_VALUE) return { value: ports.redactValue(value) };
    if (trieEntries >= MAX_ENTRIES) {
      trie = new Map();
      trieEntries = 0;
    }
    let level = trie;
    for (let index = 0; ; index += 1) {
      const item: unknown = value[index];
      let node = level.get(item);
      if (node === undefined) {
        node = {};
        level.set(item, node);
      }
      if (index === value.length - 1) {
        if (node.done !== true) {
          node.value = ports.redactValue(value);
          node.done = true;
          trieEntries += 1;
        }
        return { value: node.value };
      }
      node.next ??= new Map();
      level = node.next;
    }
  };
  const keyOf = (tool: string, input: unknown) => `${tool}\u0000${JSON.stringify(input) ?? ""}`;
  const memoized: CorePorts = {
    ...ports,
    describeCall: (tool, input) => describe(tool, input).facts,
    suggestRule: (tool, input) => suggested(keyOf(tool, input), () => ports.suggestRule(tool, input)),
    redactValue: (value) => {
      const fast = redactInterned(value);
      if (fast !== undefined) return fast.value;
      const key = JSON.stringify(value) ?? "";
      return key.length > MAX_VALUE ? ports.redactValue(value) : redactedValues(key, () => ports.redactValue(value));
    },
    redactText: (text) =>
      text.length > MAX_TEXT ? ports.redactText(text) : redacted(text, () => ports.redactText(text)),
  };
  return { config: { ...config, ports: memoized }, describe };
}
