/**
 * A bounded copy of `value` for what enters session state and denial records: every string longer than
 * `maxLength` is cut (on a code-point boundary) and marked with how much was left out, every array keeps its first
 * `maxItems` items, every object its first `maxKeys` keys, nesting stops at `maxDepth`, and no more than
 * `maxNodes` values are copied in all; whatever was cut is replaced by a marker saying how much. A denied 200 KB
 * Write or a 5-million-element array in `tool_input` stays small in the state buffer and the store, and the work
 * done here is bounded by the limits, not by the input's size. Values that need no cut are returned as they are.
 * The input is already redacted: cutting only removes, it never reveals.
 */
export interface ValueLimits {
  maxLength: number;
  maxItems: number;
  maxKeys: number;
  maxDepth: number;
  maxNodes: number;
}

export const DEFAULT_VALUE_LIMITS: Omit<ValueLimits, "maxLength"> = {
  maxItems: 50,
  maxKeys: 50,
  maxDepth: 12,
  maxNodes: 1000,
};

export function truncateStrings(value: unknown, maxLength: number, options: Partial<ValueLimits> = {}): unknown {
  const all: ValueLimits = { ...DEFAULT_VALUE_LIMITS, maxLength, ...options };
  return bound(value, { limits: all, nodes: 0 }, 0);
}

interface Walk {
  limits: ValueLimits;
  /** values copied so far */
  nodes: number;
}

function bound(value: unknown, walk: Walk, depth: number): unknown {
  walk.nodes += 1;
  if (typeof value === "string") return cutString(value, walk.limits.maxLength);
  if (value === null || typeof value !== "object") return value;
  if (depth >= walk.limits.maxDepth || walk.nodes > walk.limits.maxNodes) return "…[nested value cut]";
  if (Array.isArray(value)) return boundArray(value, walk, depth);
  return boundObject(value as Record<string, unknown>, walk, depth);
}

function boundArray(value: unknown[], walk: Walk, depth: number): unknown {
  let changed = value.length > walk.limits.maxItems;
  const kept = changed ? value.slice(0, walk.limits.maxItems) : value;
  const out: unknown[] = [];
  for (const item of kept) {
    if (walk.nodes >= walk.limits.maxNodes) {
      changed = true;
      break;
    }
    const next = bound(item, walk, depth + 1);
    if (next !== item) changed = true;
    out.push(next);
  }
  if (!changed) return value;
  if (out.length < value.length) out.push(`…[${value.length - out.length} more items]`);
  return out;
}

function boundObject(value: Record<string, unknown>, walk: Walk, depth: number): unknown {
  let changed = false;
  const out: Record<string, unknown> = {};
  let kept = 0;
  let total = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    total += 1;
    if (kept >= walk.limits.maxKeys || walk.nodes >= walk.limits.maxNodes) {
      changed = true;
      // count the rest without copying it (keys are cheap to count; a huge object is cut here)
      continue;
    }
    const inner = value[key];
    const next = bound(inner, walk, depth + 1);
    if (next !== inner) changed = true;
    const safeKey = cutString(key, walk.limits.maxLength);
    if (safeKey !== key) changed = true;
    Object.defineProperty(out, safeKey, { value: next, enumerable: true, writable: true, configurable: true });
    kept += 1;
  }
  if (!changed) return value;
  if (kept < total) out["…"] = `[${total - kept} more keys]`;
  return out;
}

function cutString(value: string, maxLength: number): string {
  if (value.length <= maxLength) return value;
  let end = maxLength;
  const code = value.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${value.slice(0, end)}…[${value.length - end} more characters]`;
}
