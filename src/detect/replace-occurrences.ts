/**
 * Replace every non-overlapping occurrence of `needle` in `text`, in time linear in `text.length + needle.length`.
 * Native `split` is used when the product of the lengths is small; otherwise a Knuth-Morris-Pratt scan, because the
 * engine's substring search can take `text.length * needle.length` steps on periodic texts (`-a-a-a...`).
 */
const NATIVE_BUDGET = 1 << 22;

function failureTable(needle: string): Int32Array {
  const table = new Int32Array(needle.length);
  let k = 0;
  for (let i = 1; i < needle.length; i += 1) {
    while (k > 0 && needle.charCodeAt(i) !== needle.charCodeAt(k)) k = table[k - 1] ?? 0;
    if (needle.charCodeAt(i) === needle.charCodeAt(k)) k += 1;
    table[i] = k;
  }
  return table;
}

/** Returns the text with every occurrence replaced, and how many there were. */
export function replaceOccurrences(options: {
  text: string;
  needle: string;
  replacement: string;
  /** product of lengths up to which the engine's own search is used (tests lower it to exercise the scan) */
  nativeBudget?: number;
}): { text: string; count: number } {
  const { text, needle, replacement } = options;
  if (needle.length === 0 || needle.length > text.length) return { text, count: 0 };
  if (text.length * needle.length <= (options.nativeBudget ?? NATIVE_BUDGET)) {
    if (!text.includes(needle)) return { text, count: 0 };
    const parts = text.split(needle);
    return { text: parts.join(replacement), count: parts.length - 1 };
  }
  const table = failureTable(needle);
  let output = "";
  let copiedUpTo = 0;
  let count = 0;
  let k = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    while (k > 0 && code !== needle.charCodeAt(k)) k = table[k - 1] ?? 0;
    if (code === needle.charCodeAt(k)) k += 1;
    if (k === needle.length) {
      const start = i - needle.length + 1;
      output += text.slice(copiedUpTo, start) + replacement;
      copiedUpTo = i + 1;
      count += 1;
      k = 0;
    }
  }
  return count === 0 ? { text, count: 0 } : { text: output + text.slice(copiedUpTo), count };
}
