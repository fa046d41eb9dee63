// Runs every bench/*.bench.mjs in order against the built dist/. Usage: npm run bench [-- name-filter]
// BENCH_SHORT=1 npm run bench: every bench in its short mode (tiny sizes, seconds each; bench/support/short.mjs), as
// the test suite runs them (test/bench/benchmarks.test.ts): a check that they work, not a measurement.
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const filter = process.argv[2] ?? "";
const files = readdirSync(here)
  .filter((name) => name.endsWith(".bench.mjs") && name.includes(filter))
  .sort();
for (const name of files) {
  console.log(`\n## ${name}\n`);
  await import(pathToFileURL(join(here, name)).href);
}
