import { isAscii } from "node:buffer";
import {
  chmodSync,
  closeSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { Script } from "node:vm";

/** What happened to the code cache: used, absent, refused (then the bundle just compiled), or not used at all. */
export type CodeCacheStatus = "hit" | "missing" | "rejected" | "off";

export interface LoadedHookBundle {
  exports: Record<string, unknown>;
  cache: CodeCacheStatus;
  /** the private directory the code caches are kept in; undefined when none is used */
  cacheDirectory: string | undefined;
  /** the bundle's parts this process loaded so far (by name), each through its own code cache */
  parts: ReadonlyMap<string, LoadedHookBundle>;
  /** writes a fresh cache when there was none usable (call once the work is done: it then holds the compiled code) */
  saveCache(): void;
}

const MAGIC = Buffer.from("TGHOOKC1");

/**
 * crc32 as node:zlib computes it, from the zlib binding itself when the runtime still offers it: loading node:zlib
 * loads the stream modules too (about 2 ms of a 25 ms process start), the binding alone about 0.1 ms. The same
 * native function either way; node:zlib whenever the binding is gone, or deprecations would warn or throw.
 */
const crc32: (data: Uint8Array) => number = (() => {
  const flags = [...process.execArgv, process.env["NODE_OPTIONS"] ?? ""].join(" ");
  if (!/deprecation/.test(flags)) {
    try {
      const binding = (process as unknown as { binding(name: string): { crc32?: unknown } }).binding("zlib");
      const native = binding.crc32;
      if (typeof native === "function")
        return (data: Uint8Array) => (native as (d: Uint8Array, v: number) => number)(data, 0) >>> 0;
    } catch {
      // not offered: node:zlib below
    }
  }
  return process.getBuiltinModule("node:zlib").crc32;
})();
const HEADER_BYTES = MAGIC.length + 12;

/**
 * Loads the bundled hook (a CommonJS file) through a V8 code cache, so a hook process skips most of the parse and
 * compile of its code. The cache can never serve stale code: its file is keyed on the bundle's path, its version
 * (size and modification time), the Node version, the architecture and the flags, and holds an exact copy of the source it was made
 * from, compared byte for byte before use, plus a crc32 of the cached code (V8 itself checks no checksum). A cache
 * that fails any check, or that V8 refuses, is ignored: the bundle just compiles, and a fresh cache is written
 * (write-temp-and-rename, in a directory only this user can read: 0700, checked with lstat). No cache directory:
 * no cache.
 *
 * A bundle may leave code that few events reach in parts beside it (`hook-part-<name>.cjs`, required as
 * `./hook-part-<name>.cjs`): each loads the same way, with its own cache for the same path, only when required.
 * `saveCache` saves theirs too.
 */
export function loadHookBundle(options: {
  bundlePath: string;
  cacheDirectory: string | undefined;
  /**
   * the code path this process will run (host and event, e.g. `<host>-PreToolUse`): one cache per path, so each
   * holds the functions its own path compiled (V8 caches what ran before the cache was made; a cache made by
   * another event would leave this one compiling its functions in every process)
   */
  path?: string | undefined;
  /**
   * the require function the bundle gets for what it does not hold (Node built-ins, native modules, optional
   * peers): the launcher's own, which resolves from the same directory; default one made for `bundlePath` (with
   * node:module, which costs a hook process a few tenths of a millisecond to load)
   */
  require?: NodeJS.Require | undefined;
}): LoadedHookBundle {
  const { bundlePath } = options;
  const { source, version } = readBundle(bundlePath);
  const directory = options.cacheDirectory === undefined ? undefined : privateDirectory(options.cacheDirectory);
  const prefix = `hook-${hex(crc32(cacheScope(bundlePath)))}-`;
  // the bundle's version in the name (its size and modification time, not a checksum of its 350 kB): it only groups
  // the caches of one build, for the clean-up; the byte-for-byte comparison with the source the cache holds decides
  const content = `${prefix}${version}`;
  const path = options.path !== undefined && /^[A-Za-z0-9-]{1,64}$/.test(options.path) ? `-${options.path}` : "";
  const file = directory === undefined ? undefined : join(directory, `${content}${path}.cache`);
  const cachedData = file === undefined ? undefined : readCache(file, source);
  // the build escapes every non-ASCII character: one-byte text is decoded, scanned and kept at half the cost
  const text = isAscii(source) ? source.toString("latin1") : source.toString("utf8");
  const wrapper = `(function (exports, require, module, __filename, __dirname) {${text}\n})`;
  const script = new Script(wrapper, {
    filename: bundlePath,
    ...(cachedData === undefined ? {} : { cachedData }),
  });
  const cache: CodeCacheStatus =
    file === undefined ? "off" : cachedData === undefined ? "missing" : script.cachedDataRejected ? "rejected" : "hit";
  const module = { exports: {} as Record<string, unknown> };
  const run = script.runInThisContext() as (...parameters: unknown[]) => void;
  const parts = new Map<string, LoadedHookBundle>();
  const nodeRequire = options.require ?? process.getBuiltinModule("node:module").createRequire(bundlePath);
  // a part of the bundle (`./hook-part-<name>.cjs`, code only some events reach) loads like the bundle itself:
  // through its own code cache for this path, once per process; anything else is Node's own require
  const require = Object.assign((specifier: string) => {
    const name = PART.exec(specifier)?.[1];
    if (name === undefined) return nodeRequire(specifier);
    let part = parts.get(name);
    if (part === undefined) {
      part = loadHookBundle({ ...options, bundlePath: join(dirname(bundlePath), `hook-part-${name}.cjs`) });
      parts.set(name, part);
    }
    return part.exports;
  }, nodeRequire);
  run.call(module.exports, module.exports, require, module, bundlePath, dirname(bundlePath));
  let saved = false;
  return {
    exports: module.exports,
    cache,
    cacheDirectory: directory,
    parts,
    saveCache() {
      for (const part of parts.values()) part.saveCache();
      if (file === undefined || cache === "hit" || saved) return;
      saved = true;
      try {
        writeCache({ file, prefix, content, source, data: script.createCachedData() });
      } catch {
        // a cache that cannot be written only costs the next process its compile
      }
    },
  };
}

/** How a bundle names one of its parts (scripts/bundle/10-hook.mjs): a file beside it, `hook-part-<name>.cjs`. */
const PART = /^\.\/hook-part-([a-z][a-z0-9-]{0,31})\.cjs$/;

/** The bundle's bytes and a version of them for cache file names: size and modification time (ns), from one open. */
function readBundle(bundlePath: string): { source: Buffer; version: string } {
  const descriptor = openSync(bundlePath, "r");
  try {
    const stat = fstatSync(descriptor, { bigint: true });
    const source = Buffer.allocUnsafe(Number(stat.size));
    let read = 0;
    while (read < source.length) {
      const count = readSync(descriptor, source, read, source.length - read, read);
      if (count === 0) break;
      read += count;
    }
    // a file that changed under the read: its bytes as read, under a name no other content gets
    const bytes = read === source.length ? source : source.subarray(0, read);
    return { source: bytes, version: `${stat.size.toString(16)}.${stat.mtimeNs.toString(16)}` };
  } finally {
    closeSync(descriptor);
  }
}

/** Where the hook's code cache lives: `$XDG_CACHE_HOME/toolgate/hook`, else `~/.toolgate/cache/hook`. */
export function hookCacheDirectory(env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (env["TOOLGATE_HOOK_CODE_CACHE"] === "off") return undefined;
  const xdg = env["XDG_CACHE_HOME"];
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, "toolgate", "hook");
  const home = env["HOME"];
  return home !== undefined && isAbsolute(home) ? join(home, ".toolgate", "cache", "hook") : undefined;
}

/** What else the compiled code depends on besides the source: this bundle file, this node and its flags. */
function cacheScope(bundlePath: string): Buffer {
  const flags = [...process.execArgv, process.env["NODE_OPTIONS"] ?? ""].join("\u0000");
  return Buffer.from([bundlePath, process.version, process.arch, flags].join("\u0000"));
}

/** The directory, created 0700 when missing; undefined when it is not a real directory of this user's alone. */
function privateDirectory(directory: string): string | undefined {
  try {
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    const stat = lstatSync(directory);
    if (!stat.isDirectory() || (process.getuid !== undefined && stat.uid !== process.getuid())) return undefined;
    if ((stat.mode & 0o077) !== 0) chmodSync(directory, 0o700);
    return directory;
  } catch {
    return undefined;
  }
}

/** The cached code in `file` when it is intact and was made from exactly `source`; undefined otherwise. */
function readCache(file: string, source: Buffer): Buffer | undefined {
  let descriptor: number | undefined;
  try {
    descriptor = openSync(file, "r");
    const stat = fstatSync(descriptor);
    if (!stat.isFile() || (process.getuid !== undefined && stat.uid !== process.getuid())) return undefined;
    const bytes = Buffer.allocUnsafe(stat.size);
    let read = 0;
    while (read < bytes.length) {
      const count = readSync(descriptor, bytes, read, bytes.length - read, read);
      if (count === 0) return undefined;
      read += count;
    }
    if (bytes.length < HEADER_BYTES || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
    const sourceBytes = bytes.readUInt32LE(MAGIC.length);
    const dataBytes = bytes.readUInt32LE(MAGIC.length + 4);
    const checksum = bytes.readUInt32LE(MAGIC.length + 8);
    if (HEADER_BYTES + sourceBytes + dataBytes !== bytes.length) return undefined;
    if (!bytes.subarray(HEADER_BYTES, HEADER_BYTES + sourceBytes).equals(source)) return undefined;
    const data = bytes.subarray(HEADER_BYTES + sourceBytes);
    return crc32(data) === checksum ? data : undefined;
  } catch {
    return undefined;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

/**
 * Writes the cache atomically (temp file, then rename) and removes this bundle's caches for other contents (those
 * of its other code paths stay), and caches nothing rewrote for 30 days.
 */
function writeCache(options: { file: string; prefix: string; content: string; source: Buffer; data: Buffer }): void {
  const header = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(header);
  header.writeUInt32LE(options.source.length, MAGIC.length);
  header.writeUInt32LE(options.data.length, MAGIC.length + 4);
  header.writeUInt32LE(crc32(options.data), MAGIC.length + 8);
  const temporary = `${options.file}.${process.pid}.tmp`;
  writeFileSync(temporary, Buffer.concat([header, options.source, options.data]), { mode: 0o600 });
  renameSync(temporary, options.file);
  const directory = dirname(options.file);
  const stale = Date.now() - STALE_CACHE_MS;
  for (const name of readdirSync(directory)) {
    const path = join(directory, name);
    if (!name.startsWith("hook-") || !name.endsWith(".cache") || path === options.file) continue;
    // this bundle's caches for other contents, or any cache not rewritten for a month (another node, another path)
    const otherContent =
      name.startsWith(options.prefix) && !name.startsWith(`${options.content}-`) && name !== `${options.content}.cache`;
    if (otherContent || statSync(path).mtimeMs < stale) unlinkSync(path);
  }
}

/** A cache file nobody rewrote for this long belongs to a node or a toolgate that is gone: removed on the next write. */
const STALE_CACHE_MS = 30 * 24 * 60 * 60 * 1000;

function hex(value: number): string {
  return value.toString(16).padStart(8, "0");
}
