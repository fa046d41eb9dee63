/**
 * A small line diff (longest common subsequence) for showing what `toolgate install` changes in a settings file.
 * Settings files are small, so the quadratic table is fine. Returns unified-style lines with 2 lines of context.
 */
export function lineDiff(options: { before: string; after: string; context?: number }): string[] {
  const a = options.before === "" ? [] : options.before.replace(/\n$/, "").split("\n");
  const b = options.after === "" ? [] : options.after.replace(/\n$/, "").split("\n");
  const table: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      const row = table[i] as number[];
      row[j] = a[i] === b[j] ? (table[i + 1]?.[j + 1] ?? 0) + 1 : Math.max(table[i + 1]?.[j] ?? 0, row[j + 1] ?? 0);
    }
  }
  const lines: { mark: " " | "-" | "+"; text: string }[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      lines.push({ mark: " ", text: a[i] as string });
      i += 1;
      j += 1;
    } else if (i < a.length && (j >= b.length || (table[i + 1]?.[j] ?? 0) >= (table[i]?.[j + 1] ?? 0))) {
      lines.push({ mark: "-", text: a[i] as string });
      i += 1;
    } else {
      lines.push({ mark: "+", text: b[j] as string });
      j += 1;
    }
  }
  const context = options.context ?? 2;
  const changed = lines.map((line) => line.mark !== " ");
  const output: string[] = [];
  let skipped = false;
  lines.forEach((line, index) => {
    const near = changed.slice(Math.max(0, index - context), index + context + 1).some(Boolean);
    if (near) {
      output.push(`${line.mark} ${line.text}`);
      skipped = false;
    } else if (!skipped) {
      output.push("  ...");
      skipped = true;
    }
  });
  return changed.some(Boolean) ? output : [];
}
