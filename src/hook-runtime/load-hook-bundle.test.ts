import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { crc32 } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hookCacheDirectory, loadHookBundle } from "./load-hook-bundle.js";

let root: string;
let bundlePath: string;
let cacheDirectory: string;

/** A CommonJS bundle whose exported value names its version; enough code that V8 has something to cache. */
function writeBundle(value: string): void {
  const helpers = Array.from({ length: 50 }, (_, index) => `function helper${index}(x) { return x + ${index}; }`);
  writeFileSync(
    bundlePath,
    `${helpers.join("\n")}\nmodule.exports.value = ${JSON.stringify(value)};\nmodule.exports.sum = helper49(1);\nexports.path = __filename;\n`,
  );
}

const cacheFiles = () => readdirSync(cacheDirectory).filter((name) => name.endsWith(".cache"));

/** Loads the bundle as a hook process would, then saves the cache as the hook entry does once it answered. */
function load() {
  const loaded = loadHookBundle({ bundlePath, cacheDirectory });
  loaded.saveCache();
  return loaded;
}

// One hook process loads the bundle once; a test loads it many times in one process, where V8 would otherwise
// answer a repeated compile from its in-memory compilation cache and never look at the cached data given.
setFlagsFromString("--no-compilation-cache");

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "toolgate-code-cache-"));
  bundlePath = join(root, "hook-bundle.cjs");
  cacheDirectory = join(root, "cache", "hook");
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe("loadHookBundle (the hook's V8 code cache)", () => {
  it("runs the bundle as CommonJS, writes a cache in a private directory, and uses it the next time", () => {
    writeBundle("one");
    const first = load();
    expect(first.cache).toBe("missing");
    expect(first.exports).toMatchObject({ value: "one", sum: 50, path: bundlePath });
    expect(cacheFiles()).toHaveLength(1);
    expect(statSync(cacheDirectory).mode & 0o777).toBe(0o700);
    expect(statSync(join(cacheDirectory, cacheFiles()[0]!)).mode & 0o777).toBe(0o600);
    const second = load();
    expect(second.cache).toBe("hit");
    expect(second.exports).toMatchObject({ value: "one", sum: 50 });
  });

  it("keeps one cache per code path, and drops every path's cache when the bundle changes", () => {
    writeBundle("one");
    const paths = ["claude-code-PreToolUse", "claude-code-Stop"];
    for (const path of paths) loadHookBundle({ bundlePath, cacheDirectory, path }).saveCache();
    expect(cacheFiles().sort()).toEqual([
      expect.stringMatching(/-claude-code-PreToolUse\.cache$/),
      expect.stringMatching(/-claude-code-Stop\.cache$/),
    ]);
    for (const path of paths) expect(loadHookBundle({ bundlePath, cacheDirectory, path }).cache).toBe("hit");
    // a path that is not a plain name is not put in a file name: the shared cache is used
    expect(loadHookBundle({ bundlePath, cacheDirectory, path: "../x" }).cache).toBe("missing");
    writeBundle("two");
    loadHookBundle({ bundlePath, cacheDirectory, path: "claude-code-Stop" }).saveCache();
    expect(cacheFiles()).toEqual([expect.stringMatching(/-claude-code-Stop\.cache$/)]);
    expect(loadHookBundle({ bundlePath, cacheDirectory, path: "claude-code-PreToolUse" }).cache).toBe("missing");
  });

  it("never runs old code for a changed bundle, even one of the same size and time under the old cache's name", () => {
    const time = new Date("2026-01-01T00:00:00Z");
    writeBundle("one");
    utimesSync(bundlePath, time, time);
    load();
    const [forOne] = cacheFiles();
    writeBundle("two"); // same length: V8's own check (the source's length) would accept the old cache
    const changed = load();
    expect(changed.cache).toBe("missing");
    expect(changed.exports["value"]).toBe("two");
    const [forTwo] = cacheFiles(); // the cache for the old version is gone, replaced by this one
    expect(forTwo).not.toBe(forOne);
    // "two" with the size and time of "one": the name of the cache made from "one", which is there; only the
    // byte-for-byte source check can refuse it
    writeBundle("one");
    utimesSync(bundlePath, time, time);
    load();
    expect(cacheFiles()).toEqual([forOne]);
    writeBundle("two");
    utimesSync(bundlePath, time, time);
    const planted = loadHookBundle({ bundlePath, cacheDirectory });
    expect(planted.cache).toBe("missing");
    expect(planted.exports["value"]).toBe("two");
  });

  it.each([
    [
      "one flipped byte in the cached code",
      (bytes: Buffer) => {
        bytes[bytes.length - 40] = bytes[bytes.length - 40]! ^ 0xff;
        return bytes;
      },
    ],
    ["a truncated file", (bytes: Buffer) => bytes.subarray(0, bytes.length - 100)],
    ["an empty file", () => Buffer.alloc(0)],
    ["garbage", (bytes: Buffer) => Buffer.alloc(bytes.length, 0x5a)],
  ])("ignores a corrupt cache file (%s): the bundle just compiles and runs", (_, corrupt) => {
    writeBundle("one");
    load();
    const file = join(cacheDirectory, cacheFiles()[0]!);
    writeFileSync(file, corrupt(readFileSync(file)));
    const loaded = load();
    expect(loaded.cache).toBe("missing");
    expect(loaded.exports).toMatchObject({ value: "one", sum: 50 });
    expect(load().cache).toBe("hit"); // rewritten whole
  });

  it("compiles without the cache V8 refuses (intact file, wrong code), and replaces it", () => {
    writeBundle("one");
    load();
    const file = join(cacheDirectory, cacheFiles()[0]!);
    const bytes = readFileSync(file);
    const header = 20;
    const sourceLength = bytes.readUInt32LE(8);
    const data = Buffer.alloc(bytes.length - header - sourceLength, 7);
    bytes.writeUInt32LE(crc32(data), 16);
    writeFileSync(file, Buffer.concat([bytes.subarray(0, header + sourceLength), data]));
    const loaded = load();
    expect(loaded.cache).toBe("rejected");
    expect(loaded.exports["value"]).toBe("one");
    expect(load().cache).toBe("hit");
  });

  it("uses no cache in a directory that is a symbolic link, and makes its own directory private again", () => {
    writeBundle("one");
    mkdirSync(join(root, "elsewhere"));
    mkdirSync(join(root, "cache"));
    symlinkSync(join(root, "elsewhere"), cacheDirectory);
    const linked = load();
    expect(linked.cache).toBe("off");
    expect(readdirSync(join(root, "elsewhere"))).toEqual([]);
    rmSync(cacheDirectory);
    mkdirSync(cacheDirectory, { mode: 0o755 });
    chmodSync(cacheDirectory, 0o755);
    expect(load().cache).toBe("missing");
    expect(statSync(cacheDirectory).mode & 0o777).toBe(0o700);
  });

  it("removes, when it writes a cache, other caches nobody rewrote for 30 days", () => {
    writeBundle("one");
    mkdirSync(cacheDirectory, { recursive: true, mode: 0o700 });
    const old = join(cacheDirectory, "hook-0badc0de-00000000.cache");
    const recent = join(cacheDirectory, "hook-0badc0de-11111111.cache");
    writeFileSync(old, "x");
    writeFileSync(recent, "x");
    const longAgo = new Date(Date.now() - 40 * 24 * 60 * 60 * 1000);
    utimesSync(old, longAgo, longAgo);
    load();
    expect(existsSync(old)).toBe(false);
    expect(existsSync(recent)).toBe(true);
  });

  it("loads a part only when the bundle requires it, once, through its own cache for the same path", () => {
    const part = join(root, "hook-part-extra.cjs");
    writeFileSync(part, "globalThis.partLoads = (globalThis.partLoads ?? 0) + 1;\nexports.answer = 42;\n");
    writeFileSync(
      bundlePath,
      'exports.later = () => require("./hook-part-extra.cjs").answer + require("./hook-part-extra.cjs").answer;\n' +
        'exports.plain = () => require("node:path").sep;\n',
    );
    const globals = globalThis as { partLoads?: number };
    delete globals.partLoads;
    const loaded = loadHookBundle({ bundlePath, cacheDirectory, path: "claude-code-PreToolUse" });
    expect(loaded.parts.size).toBe(0);
    expect(globals.partLoads).toBeUndefined(); // not read until required
    expect((loaded.exports["later"] as () => number)()).toBe(84);
    expect(globals.partLoads).toBe(1); // required twice, evaluated once
    expect(loaded.parts.get("extra")?.cache).toBe("missing");
    expect((loaded.exports["plain"] as () => string)()).toBe("/"); // anything else: Node's require
    loaded.saveCache(); // saves the part's cache too
    expect(cacheFiles()).toHaveLength(2);
    expect(cacheFiles().every((name) => name.endsWith("-claude-code-PreToolUse.cache"))).toBe(true);
    const again = loadHookBundle({ bundlePath, cacheDirectory, path: "claude-code-PreToolUse" });
    expect(again.cache).toBe("hit");
    (again.exports["later"] as () => number)();
    expect(again.parts.get("extra")?.cache).toBe("hit");
    // a changed part drops its own cache only
    writeFileSync(part, "exports.answer = 1;\n");
    const changed = loadHookBundle({ bundlePath, cacheDirectory, path: "claude-code-PreToolUse" });
    expect((changed.exports["later"] as () => number)()).toBe(2);
    expect([changed.cache, changed.parts.get("extra")?.cache]).toEqual(["hit", "missing"]);
    delete globals.partLoads;
  });

  it("fails the require of a missing part, and leaves other relative paths to Node", () => {
    writeFileSync(
      bundlePath,
      'exports.part = () => require("./hook-part-gone.cjs");\nexports.other = () => require("./hook-part-../x.cjs");\n',
    );
    const loaded = loadHookBundle({ bundlePath, cacheDirectory });
    expect(() => (loaded.exports["part"] as () => unknown)()).toThrow(/hook-part-gone\.cjs/);
    expect(() => (loaded.exports["other"] as () => unknown)()).toThrow(/Cannot find module/);
    expect(loaded.parts.size).toBe(0);
  });

  it("puts the cache under XDG_CACHE_HOME or the toolgate home, and nowhere when turned off", () => {
    expect(hookCacheDirectory({ XDG_CACHE_HOME: "/x/cache", HOME: "/home/u" })).toBe("/x/cache/toolgate/hook");
    expect(hookCacheDirectory({ HOME: "/home/u" })).toBe("/home/u/.toolgate/cache/hook");
    expect(hookCacheDirectory({ XDG_CACHE_HOME: "relative", HOME: "/home/u" })).toBe("/home/u/.toolgate/cache/hook");
    expect(hookCacheDirectory({ HOME: "/home/u", TOOLGATE_HOOK_CODE_CACHE: "off" })).toBeUndefined();
    expect(hookCacheDirectory({})).toBeUndefined();
  });
});
