// The short mode every bench/*.bench.mjs has (BENCH_SHORT=1): the same code paths and the same comparisons on tiny
// sizes and few rounds, seconds instead of minutes. The test suite runs each bench this way (test/bench), so a
// benchmark that breaks fails a test; its figures mean nothing. An explicit size variable (BENCH_RUNS=…) still wins.

/** true when BENCH_SHORT=1 */
export const short = process.env.BENCH_SHORT === "1";

/** `full` normally, `tiny` in the short mode. */
export function size(full, tiny) {
  return short ? tiny : full;
}

/** A number from the environment variable `name` when set, else `size(full, tiny)`. */
export function sizeFrom(name, full, tiny) {
  const value = process.env[name];
  return value === undefined || value === "" ? size(full, tiny) : Number(value);
}
