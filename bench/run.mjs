// Runs every bench/*.bench.mjs in order against the built dist/. Usage: npm run bench [-- name-filter]
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
