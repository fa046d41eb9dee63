/** how many values one comparison looks at before it gives up (a cyclic or huge input): the answer is then "not the same" */
const MAX_VALUES = 100_000;

/**
 * Whether two JSON-like values are equal: primitives by `===`, arrays item by item, plain objects key by key in any
 * order. Iterative, and bounded: a deeply nested, cyclic or huge value is never called the same as another one, nor
 * is anything else that is not a plain object or array (a `Date`, a `Map`) unless it is the same object. So a caller
 * that reuses what it knows of one value for another only does it when they are surely equal.
 */
export function sameJsonValue(a: unknown, b: unknown): boolean {
  const pending: unknown[] = [a, b];
  let looked = 0;
  while (pending.length > 0) {
    const right = pending.pop();
    const left = pending.pop();
    if (left === right) continue;
    looked += 1;
    if (looked > MAX_VALUES) return false;
    if (!isJsonContainer(left) || !isJsonContainer(right)) return false;
    if (Array.isArray(left)) {
      if (!Array.isArray(right) || left.length !== right.length) return false;
      for (let index = 0; index < left.length; index += 1) pending.push(left[index], right[index]);
      continue;
    }
    if (Array.isArray(right)) return false;
    const keys = Object.keys(left);
    if (keys.length !== Object.keys(right).length) return false;
    for (const key of keys) {
      if (!Object.hasOwn(right, key)) return false;
      pending.push((left as Record<string, unknown>)[key], (right as Record<string, unknown>)[key]);
    }
  }
  return true;
}

function isJsonContainer(value: unknown): value is object {
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return true;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
