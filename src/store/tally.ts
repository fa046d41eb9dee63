/** Adds one stored row to a rollup tally keyed by (day, tool, key): the count and the smallest row id. */
export function tally(
  map: Map<string, { day: string; tool: string; key: string; total: number; firstId: number }>,
  row: { day: string; tool: string; key: string; id: number },
): void {
  const mapKey = `${row.day}\u0000${row.tool}\u0000${row.key}`;
  const known = map.get(mapKey);
  if (known) {
    known.total += 1;
    known.firstId = Math.min(known.firstId, row.id);
  } else map.set(mapKey, { day: row.day, tool: row.tool, key: row.key, total: 1, firstId: row.id });
}
