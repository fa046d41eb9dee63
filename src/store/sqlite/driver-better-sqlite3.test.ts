import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openBetterSqlite3, releaseAddon } from "./driver-better-sqlite3.js";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A package laid out as npm installs better-sqlite3: lib/index.js, and the builds named. */
function fakePackage(builds: string[]): string {
  const root = mkdtempSync(join(tmpdir(), "toolgate-addon-"));
  roots.push(root);
  mkdirSync(join(root, "lib"));
  writeFileSync(join(root, "lib", "index.js"), "");
  for (const build of builds) {
    mkdirSync(join(root, "build", build), { recursive: true });
    writeFileSync(join(root, "build", build, "better_sqlite3.node"), "");
  }
  return join(root, "lib", "index.js");
}

describe("openBetterSqlite3", () => {
  it("names the installed package's Release addon, so `bindings` never searches for it", () => {
    const main = createRequire(import.meta.url).resolve("better-sqlite3");
    const addon = releaseAddon(main);
    expect(addon).toMatch(/build\/Release\/better_sqlite3\.node$/);
    expect(existsSync(addon!)).toBe(true);
    const root = mkdtempSync(join(tmpdir(), "toolgate-addon-db-"));
    roots.push(root);
    const driver = openBetterSqlite3(join(root, "a.db"), { busyTimeoutMs: 100 });
    expect(driver.prepare("SELECT 1 + 1 AS two").get()).toEqual({ two: 2 });
    driver.close();
  });

  it("leaves the choice to `bindings` for a Debug build (which it prefers) or no Release build", () => {
    expect(releaseAddon(fakePackage(["Release"]))).toMatch(/build\/Release\/better_sqlite3\.node$/);
    expect(releaseAddon(fakePackage(["Release", "Debug"]))).toBeUndefined();
    expect(releaseAddon(fakePackage([]))).toBeUndefined();
  });
});
