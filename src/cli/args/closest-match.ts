/**
 * The edit distance between two words (optimal string alignment: insertions, deletions, substitutions and
 * transpositions of neighbours each cost 1), so `--dryrun`, `--jsno` and `--sinse` are one edit from the flag meant.
 */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const columns = b.length + 1;
  const table: number[][] = Array.from({ length: rows }, (_, row) =>
    Array.from({ length: columns }, (_, column) => (row === 0 ? column : column === 0 ? row : 0)),
  );
  for (let row = 1; row < rows; row++) {
    for (let column = 1; column < columns; column++) {
      const cost = a[row - 1] === b[column - 1] ? 0 : 1;
      const previous = table[row - 1] as number[];
      const current = table[row] as number[];
      let best = Math.min(
        (previous[column] as number) + 1,
        (current[column - 1] as number) + 1,
        (previous[column - 1] as number) + cost,
      );
      if (row > 1 && column > 1 && a[row - 1] === b[column - 2] && a[row - 2] === b[column - 1]) {
        best = Math.min(best, ((table[row - 2] as number[])[column - 2] as number) + 1);
      }
      current[column] = best;
    }
  }
  return (table[a.length] as number[])[b.length] as number;
}

/**
 * The candidate closest to `input` (case-insensitive), when it is close enough to be what the person meant: at most
 * a third of the longer word's letters changed (at least one edit), or one is a prefix of the other. Ties go to
 * the earlier candidate, so list candidates in the order you would suggest them.
 */
export function closestMatch(input: string, candidates: readonly string[]): string | undefined {
  const wanted = input.toLowerCase();
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const lower = candidate.toLowerCase();
    const distance = editDistance(wanted, lower);
    const limit = Math.max(1, Math.floor(Math.max(wanted.length, lower.length) / 3));
    const prefix = wanted.length >= 2 && (lower.startsWith(wanted) || wanted.startsWith(lower));
    if (distance > limit && !prefix) continue;
    if (best === undefined || distance < best.distance) best = { candidate, distance };
  }
  return best?.candidate;
}
