import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { normalizePiPath, type PiPathSystem, resolvePiPath } from "./resolve-pi-path.js";

const linux: PiPathSystem = { platform: "linux", homeDir: "/home/u" };
const resolve = (path: string, system: PiPathSystem = linux) => resolvePiPath(path, { cwd: "/work/p", system });

describe("a pi tool's path, read as pi 1.6.0 reads it (resolveToCwd)", () => {
  it.each([
    ["/etc/shadow", "/etc/shadow"],
    ["@/etc/shadow", "/etc/shadow"],
    ["file:///etc/shadow", "/etc/shadow"],
    ["@file:///etc/shadow", "/etc/shadow"],
    ["file://localhost/etc/shadow", "/etc/shadow"],
    ["file:///etc/%73hadow", "/etc/shadow"],
    ["file:///tmp/../etc/shadow", "/etc/shadow"],
    ["@~/.ssh/id_rsa", "/home/u/.ssh/id_rsa"],
    ["~", "/home/u"],
    ["src/a.ts", "/work/p/src/a.ts"],
    ["@src/a.ts", "/work/p/src/a.ts"],
    ["@@/etc/shadow", "/work/p/@/etc/shadow"],
    ["../../etc/shadow", "/etc/shadow"],
    ["//etc//shadow/", "/etc/shadow"],
    ["my\u00A0secret.txt", "/work/p/my secret.txt"],
    ["\u3000@/etc/shadow", "/work/p/ @/etc/shadow"],
    ["FILE:///etc/shadow", "/work/p/FILE:/etc/shadow"],
  ])("%j is %j", (path, expected) => {
    expect(resolve(path)).toBe(expected);
  });

  it.each(["file://host/etc/shadow", "file:///etc%2fshadow", "file:///etc/%E0%A4%A", "file://[::1"])(
    "%j cannot be read as pi reads it: it throws",
    (path) => {
      expect(() => resolve(path)).toThrow();
    },
  );

  it("reads a file URL as node's fileURLToPath does, and throws where it throws", () => {
    const urls = [
      "file:///a/b%20c",
      "file:///%C3%A9t%C3%A9",
      "file://localhost/x",
      "file:///a/./b/../c",
      "file:///a?q=1#h",
      "file:///a%2Fb",
      "file:///a%2fb",
      "file:///a%5cb",
      "file:///a/%",
      "file://h/x",
      "file:/x",
    ];
    for (const url of urls) {
      let expected: string | Error;
      try {
        expected = fileURLToPath(url);
      } catch (error) {
        expected = error as Error;
      }
      if (!url.startsWith("file://")) continue;
      if (expected instanceof Error) expect(() => resolve(url), url).toThrow();
      else expect(resolve(url), url).toBe(join("/", expected));
    }
  });

  it("on Windows: a Git Bash drive path and a drive file URL are drive paths; a UNC file URL is refused", () => {
    const windows: PiPathSystem = { platform: "win32", homeDir: "C:\\Users\\u" };
    expect(normalizePiPath("@/c/Windows/x", { system: windows, toolPath: true })).toBe("C:\\Windows\\x");
    expect(normalizePiPath("file:///C:/Windows/x", { system: windows, toolPath: true })).toBe("C:\\Windows\\x");
    expect(() => normalizePiPath("file:///Windows/x", { system: windows, toolPath: true })).toThrow();
    expect(() => normalizePiPath("file://server/share/x", { system: windows, toolPath: true })).toThrow();
    expect(normalizePiPath("~\\x", { system: windows, toolPath: true })).toBe("C:\\Users\\u\\x");
  });

  it("without a home directory, a `~` path is left for toolgate's policy; without a cwd, a relative one too", () => {
    const noHome: PiPathSystem = { platform: "linux" };
    expect(resolvePiPath("@~/.ssh/id_rsa", { cwd: "/work/p", system: noHome })).toBe("~/.ssh/id_rsa");
    expect(resolvePiPath("@src/a.ts", { cwd: undefined, system: linux })).toBe("src/a.ts");
  });
});

/** pi's own function, where the e2e tests installed pi: the mirror answers as it does. */
const piPackage = join(
  fileURLToPath(new URL("../../../test/e2e/node_modules/@earendil-works/pi-coding-agent", import.meta.url)),
  "dist/core/tools/path-utils.js",
);

describe.skipIf(!existsSync(piPackage) || process.platform === "win32")("pi's installed resolveToCwd", () => {
  it("answers every path as the mirror does", async () => {
    const { resolveToCwd } = (await import(piPackage)) as { resolveToCwd: (path: string, cwd: string) => string };
    const { homedir } = await import("node:os");
    const system: PiPathSystem = { platform: process.platform, homeDir: homedir() };
    const paths = [
      "/etc/shadow",
      "@/etc/shadow",
      "file:///etc/shadow",
      "@file:///etc/shadow",
      "file://localhost/etc/%73hadow",
      "@~/.ssh/id_rsa",
      "~",
      "~/",
      "@@x",
      "a/../../b",
      "//etc//x/",
      "x\u2003y\u00A0z",
      "\u202F@/etc/x",
      "file:///a/./b/../c",
      "file://host/x",
      "file:///a%2fb",
      "file:///a/%E0%A4%A",
      "FILE:///etc/x",
      "~user/x",
      ".",
    ];
    for (const path of paths) {
      let expected: string | Error;
      try {
        expected = resolveToCwd(path, "/work/p");
      } catch (error) {
        expected = error as Error;
      }
      if (expected instanceof Error) expect(() => resolvePiPath(path, { cwd: "/work/p", system }), path).toThrow();
      else expect(resolvePiPath(path, { cwd: "/work/p", system }), path).toBe(expected);
    }
  });
});
