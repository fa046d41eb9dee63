#!/usr/bin/env node
// The build's second half, after tsc: runs every step in scripts/bundle/*.mjs (sorted by name), each of which turns
// compiled or browser sources into one file under dist/ (a bundled hook entry, the dashboard's page assets, ...).
// A step exports `default async function ({ root, dist })` and prints one line about what it wrote.
//   npm run build   (tsc -p tsconfig.build.json && node scripts/bundle.mjs)
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(fileURLToPath(new URL("..", import.meta.url)));
const stepsDirectory = join(root, "scripts", "bundle");
const steps = readdirSync(stepsDirectory)
  .filter((name) => name.endsWith(".mjs"))
  .sort();
for (const name of steps) {
  const step = await import(pathToFileURL(join(stepsDirectory, name)).href);
  await step.default({ root, dist: join(root, "dist") });
}
