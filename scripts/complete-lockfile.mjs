#!/usr/bin/env node
// Completes a package-lock.json with the platform-specific optional dependencies that the npm registry mirror on
// this project's machines does not serve (it answers 404 for e.g. @biomejs/cli-darwin-arm64), so npm leaves them
// out of the lock file, and `npm ci` then refuses the lock ("Missing: ... from lock file"). Each missing optional
// package gets an entry with its version and the os/cpu/libc its name declares, which is all `npm ci` needs to
// skip it on other platforms (and to fetch it by version on the platform it is for).
// Run after any `npm install` that changes a lock, naming the folders whose lock changed (default: the root):
//   node scripts/complete-lockfile.mjs [folder ...]      e.g. node scripts/complete-lockfile.mjs . bench test/e2e
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(new URL("..", import.meta.url)));

function platformOf(name) {
  const base = name.split("/").pop();
  const os = ["android", "darwin", "linux", "win32", "windows", "freebsd", "openbsd", "sunos", "aix"].find(
    (candidate) => base.includes(candidate),
  );
  const cpu = ["arm64", "x64", "ia32", "arm", "ppc64", "s390x", "riscv64", "loong64"].find((candidate) =>
    new RegExp(`(^|-)${candidate}(-|$)`).test(base),
  );
  if (os === undefined || cpu === undefined) return undefined;
  const platform = { os: [os === "windows" ? "win32" : os], cpu: [cpu] };
  if (base.includes("musl")) platform.libc = ["musl"];
  else if (os === "linux") platform.libc = ["glibc"];
  return platform;
}

/** Adds the missing platform entries to `<folder>/package-lock.json`; returns how many it added. */
function completeLockfile(folder) {
  const file = join(folder, "package-lock.json");
  const lock = JSON.parse(readFileSync(file, "utf8"));
  const packages = lock.packages;
  let added = 0;
  for (const [path, entry] of Object.entries(packages)) {
    if (entry.optionalDependencies === undefined) continue;
    const parent = path === "" ? "" : `${path}/`;
    for (const [name, version] of Object.entries(entry.optionalDependencies)) {
      const nested = `${parent}node_modules/${name}`;
      const top = `node_modules/${name}`;
      if (packages[nested] !== undefined || packages[top] !== undefined) continue;
      const platform = platformOf(name);
      if (platform === undefined || !/^\d+\.\d+\.\d+/.test(version)) continue;
      packages[top] = {
        version,
        ...(entry.dev ? { dev: true } : {}),
        optional: true,
        ...platform,
      };
      added += 1;
    }
  }
  if (added === 0) return 0; // leave the file as npm wrote it
  lock.packages = Object.fromEntries(
    Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : a > b ? 1 : 0)),
  );
  writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
  return added;
}

const folders = process.argv.slice(2);
for (const folder of folders.length > 0 ? folders : ["."]) {
  const absolute = resolve(root, folder);
  if (!existsSync(join(absolute, "package-lock.json"))) {
    console.error(`complete-lockfile: ${folder} has no package-lock.json; run npm install there first`);
    process.exitCode = 1;
    continue;
  }
  const added = completeLockfile(absolute);
  console.log(`complete-lockfile: ${folder}: added ${added} platform-specific optional entries`);
}
