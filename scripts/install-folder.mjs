#!/usr/bin/env node
// Installs the separate dependency set of one folder (test/e2e: the real host binaries the end-to-end tests run;
// bench: engines only a benchmark compares against) with `npm ci`, unless its node_modules already matches its lock
// file. These sets stay out of the root install so `npm ci && npm run demo` stays small and quiet.
//   node scripts/install-folder.mjs <folder>      (npm test runs it for test/e2e, npm run bench for bench)
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(new URL("..", import.meta.url)));
const folder = process.argv[2];
if (folder === undefined) {
  console.error("usage: node scripts/install-folder.mjs <folder>   (a folder with its own package.json and lock)");
  process.exit(2);
}
const directory = resolve(root, folder);
const lockFile = join(directory, "package-lock.json");
if (!existsSync(lockFile)) {
  console.error(
    `install-folder: ${folder}/package-lock.json is missing; run npm install in ${folder}, then npm run lockfile`,
  );
  process.exit(1);
}

/** npm ci writes node_modules/.package-lock.json; the install is current when it lists what the lock lists. */
function installed() {
  const hidden = join(directory, "node_modules", ".package-lock.json");
  if (!existsSync(hidden)) return false;
  const wanted = JSON.parse(readFileSync(lockFile, "utf8")).packages;
  const have = JSON.parse(readFileSync(hidden, "utf8")).packages;
  return Object.entries(wanted).every(
    ([path, entry]) => path === "" || entry.optional === true || have[path]?.version === entry.version,
  );
}

if (installed()) process.exit(0);
console.log(`installing ${folder} dependencies (npm ci in ${folder})`);
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const result = spawnSync(npm, ["ci", "--no-audit", "--no-fund"], { cwd: directory, stdio: "inherit" });
process.exit(result.status ?? 1);
