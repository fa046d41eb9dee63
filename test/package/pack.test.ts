/**
 * The packed tarball as a user gets it (README, "Install into your project"): `npm pack`, install into a temp
 * project offline, import every subpath export, run the bin. Nothing leaves the temp directory; HOME is a temp dir.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, repoRoot } from "../cli/cli-fixture.js";
import { offlineLock } from "./offline-lock.js";

const repoManifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8"));
let root: string;
let project: string;
let home: string;
let tarball: string;
let packedFiles: string[];
/** the machine's npm cache, read (offline) with the real environment's config; logs go to the temp dir */
let cache: string;

function npm(args: string[], cwd: string): string {
  return execFileSync("npm", [...args, "--cache", cache, "--logs-dir", join(root, "npm-logs")], {
    cwd,
    env: { ...process.env, HOME: home, npm_config_update_notifier: "false", npm_config_fund: "false" },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** `npm ci --offline` of the tarball (plus `extra` packages) with the repo's versions; better-sqlite3 not rebuilt. */
function install(extra: string[] = []): void {
  const manifest = JSON.parse(
    execFileSync("tar", ["-xOzf", tarball, "package/package.json"], { encoding: "utf8" }),
  ) as Record<string, unknown>;
  const { packageJson, lock } = offlineLock({ repoRoot, tarball, manifest, extra });
  writeFileSync(join(project, "package.json"), JSON.stringify(packageJson, null, 2));
  writeFileSync(join(project, "package-lock.json"), JSON.stringify(lock, null, 2));
  // --ignore-scripts: better-sqlite3's install would try a download; the repo's build of the same version is copied
  npm(["ci", "--offline", "--ignore-scripts", "--no-audit"], project);
  const binding = join("node_modules", "better-sqlite3", "build", "Release", "better_sqlite3.node");
  mkdirSync(join(project, "node_modules", "better-sqlite3", "build", "Release"), { recursive: true });
  copyFileSync(join(repoRoot, binding), join(project, binding));
}

function toolgate(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(join(project, "node_modules", ".bin", "toolgate"), args, {
    cwd: project,
    env: { PATH: process.env.PATH ?? "", HOME: home, ...env },
    encoding: "utf8",
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(() => {
  ensureBuilt();
  root = mkdtempSync(join(tmpdir(), "toolgate-pack-"));
  project = join(root, "project");
  home = join(root, "home");
  mkdirSync(project);
  mkdirSync(home);
  cache = execFileSync("npm", ["config", "get", "cache"], { encoding: "utf8" }).trim();
  // --ignore-scripts: no prepack build in the shared tree while other tests run dist/
  const [packed] = JSON.parse(npm(["pack", "--json", "--ignore-scripts", "--pack-destination", root], repoRoot));
  tarball = join(root, packed.filename);
  packedFiles = packed.files.map((file: { path: string }) => file.path);
  install();
}, 180_000);

afterAll(() => {
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
});

describe("npm pack", () => {
  it("ships the license, README, docs, schema.json and the built code, without tests or dev files", () => {
    for (const file of ["LICENSE", "README.md", "schema.json", "package.json", "dist/cli/main.js", "docs/config.md"]) {
      expect(packedFiles, file).toContain(file);
    }
    const links = [...readFileSync(join(repoRoot, "README.md"), "utf8").matchAll(/\]\((docs\/[^)#]+)/g)];
    for (const [, doc] of links) expect(packedFiles, `README links ${doc}`).toContain(doc);
    expect(packedFiles.filter((file) => /\.test\.ts$|^test\/|^types\/|^bench\/|^scripts\//.test(file))).toEqual([]);
  });

  it("installs offline with exactly the dependencies its manifest declares, pg only as an optional peer", () => {
    const installed = JSON.parse(readFileSync(join(project, "node_modules", "toolgate", "package.json"), "utf8"));
    expect(installed.dependencies).toEqual(repoManifest.dependencies);
    expect(installed.dependencies.pg).toBeUndefined();
    expect(installed.peerDependenciesMeta.pg).toEqual({ optional: true });
    expect(installed.license).toBe("MIT");
  });
});

describe("the installed bin", () => {
  it("prints its version", () => {
    const result = toolgate(["--version"]);
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toBe(repoManifest.version);
  });

  it("checks a call", () => {
    const result = toolgate(["check", "Bash", '{"command":"ls"}', "--json"]);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ behavior: "allow" });
  });

  it("says to install pg when Postgres is selected without it, with no stack trace", () => {
    const result = toolgate(["report", "--since", "1d"], {
      TOOLGATE_DATABASE_URL: "postgres://postgres@127.0.0.1:5432/test",
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain("`npm install pg`");
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

describe("every subpath export", () => {
  it("imports from a script in the project (with pg installed, as a Postgres user would)", () => {
    install(["pg"]);
    const subpaths = Object.keys(repoManifest.exports as Record<string, unknown>);
    const script = [
      "const results = {};",
      ...subpaths.map((subpath) => {
        const specifier = `toolgate${subpath.slice(1)}`;
        const attributes = subpath.endsWith(".json") ? ', { with: { type: "json" } }' : "";
        return `results[${JSON.stringify(subpath)}] = Object.keys(await import(${JSON.stringify(specifier)}${attributes})).length;`;
      }),
      "console.log(JSON.stringify(results));",
    ].join("\n");
    writeFileSync(join(project, "import-all.mjs"), script);
    const result = spawnSync(process.execPath, ["import-all.mjs"], {
      cwd: project,
      env: { PATH: process.env.PATH ?? "", HOME: home },
      encoding: "utf8",
    });
    expect(result.stderr).toBe("");
    const counts = JSON.parse(result.stdout) as Record<string, number>;
    expect(Object.keys(counts)).toEqual(subpaths);
    for (const [subpath, count] of Object.entries(counts)) expect(count, subpath).toBeGreaterThan(0);
  });
});
