// Runs every bench/*.bench.mjs in order against the built dist/, in this one process, and ends with the table of
// the goals they checked (bench/support/goals.mjs). Usage: npm run bench [-- name-filter ...]: the files whose
// name contains any filter, e.g. `npm run bench -- policy hook analyze store` for issue 30's goals (and two hook benches that check none).
// BENCH_SHORT=1 npm run bench: every bench in its short mode (tiny sizes, seconds each; bench/support/short.mjs), as
// the test suite runs them (test/bench/benchmarks.test.ts): a check that they work, not a measurement.
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(here)
  .filter(
    (name) => name.endsWith(".bench.mjs") && (filters.length === 0 || filters.some((part) => name.includes(part))),
  )
  .sort();
for (const name of files) {
  console.log(`\n## ${name}\n`);
  await import(pathToFileURL(join(here, name)).href);
}
