import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";

type LockEntry = { dev?: boolean; devOptional?: boolean; [key: string]: unknown };

/**
 * A package-lock.json for a project that depends on the packed tarball (and on `extra` packages, e.g. `pg`),
 * resolved to the versions in the repository's own lock. `npm ci --offline` installs it from the npm cache that the
 * repository's `npm ci` filled: that fills the cache with tarballs but not with registry metadata, so a plain
 * `npm install <tarball> --offline` would fail (ENOTCACHED) on a fresh machine; a lock needs only tarballs.
 * toolgate's own entry copies the dependency fields of the tarball's package.json, so the install is what npm would
 * do with that manifest.
 */
export function offlineLock(options: {
  repoRoot: string;
  tarball: string;
  manifest: Record<string, unknown>;
  extra?: string[];
}): { packageJson: object; lock: object } {
  const rootLock = JSON.parse(readFileSync(join(options.repoRoot, "package-lock.json"), "utf8")) as {
    packages: Record<string, LockEntry>;
  };
  const all = rootLock.packages;
  const packages: Record<string, unknown> = {};
  const add = (path: string) => {
    if (packages[path] !== undefined || all[path] === undefined) return;
    const { dev: _dev, devOptional: _devOptional, ...entry } = all[path] as LockEntry;
    packages[path] = entry;
    for (const name of Object.keys({ ...(entry.dependencies as object), ...(entry.optionalDependencies as object) })) {
      const nested = `${path}/node_modules/${name}`;
      add(all[nested] !== undefined ? nested : `node_modules/${name}`);
    }
  };
  const { dependencies = {}, optionalDependencies = {} } = options.manifest as Record<string, Record<string, string>>;
  for (const name of [...Object.keys({ ...dependencies, ...optionalDependencies }), ...(options.extra ?? [])]) {
    add(`node_modules/${name}`);
  }
  const spec = `file:${options.tarball}`;
  const integrity = `sha512-${createHash("sha512").update(readFileSync(options.tarball)).digest("base64")}`;
  const { version, license, bin, engines, peerDependencies, peerDependenciesMeta } = options.manifest;
  packages["node_modules/toolgate"] = {
    version,
    resolved: spec,
    integrity,
    license,
    dependencies,
    optionalDependencies,
    peerDependencies,
    peerDependenciesMeta,
    bin,
    engines,
  };
  const projectDependencies: Record<string, string> = { toolgate: spec };
  for (const name of options.extra ?? []) projectDependencies[name] = String(all[`node_modules/${name}`]?.version);
  const root = { name: "pack-check", dependencies: projectDependencies };
  return {
    packageJson: { name: "pack-check", private: true, type: "module", dependencies: projectDependencies },
    lock: { name: "pack-check", lockfileVersion: 3, requires: true, packages: { "": root, ...packages } },
  };
}
