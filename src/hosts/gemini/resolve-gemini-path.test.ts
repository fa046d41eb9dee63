import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { defensiveToolPaths, type GeminiPathReading, resolveGeminiPath } from "./resolve-gemini-path.js";

const cwd = "/work/p";
const read = (path: string, reading: GeminiPathReading = "defensive") => resolveGeminiPath(path, { cwd, reading });

describe("a Gemini file tool's path, read as Gemini CLI 0.61.0 reads it", () => {
  it.each([
    ["secrets/id_rsa", ["/work/p/secrets/id_rsa"]],
    ["@secrets/id_rsa", ["/work/p/secrets/id_rsa", "/work/p/@secrets/id_rsa"]],
    ["@/secrets/id_rsa", ["/work/p/secrets/id_rsa", "/work/p/@/secrets/id_rsa"]],
    ["@\\\\secrets/id_rsa", ["/work/p/secrets/id_rsa", "/work/p/@\\\\secrets/id_rsa"]],
    ["@//etc/shadow", ["/work/p/etc/shadow", "/work/p/@/etc/shadow"]],
    ["@", ["/work/p/@"]],
    ["@/", ["/work/p/@"]],
    ["%73ecrets/id_rsa", ["/work/p/secrets/id_rsa"]],
    ["/work/p/secret%73/id_rsa", ["/work/p/secrets/id_rsa"]],
    ["secrets%2Fid_rsa", ["/work/p/secrets/id_rsa"]],
    ["a/%2e%2e/secrets/id_rsa", ["/work/p/secrets/id_rsa"]],
    ["secr\0ets/id_rsa", ["/work/p/secrets/id_rsa"]],
    ["@%40x", ["/work/p/@x", "/work/p/@@x"]],
    ["~/.ssh/id_rsa", ["/work/p/~/.ssh/id_rsa"]],
    ["~/../secrets/id_rsa", ["/work/p/secrets/id_rsa"]],
    // a malformed escape: Gemini keeps the whole path undecoded
    ["%73ecrets/%E0%A4%A", ["/work/p/%73ecrets/%E0%A4%A"]],
    ["100%/x", ["/work/p/100%/x"]],
  ])("%j is %j", (path, expected) => {
    expect(read(path).paths).toEqual(expected);
  });

  it("a directory of glob and grep_search is decoded but keeps its `@`; list_directory's is only resolved", () => {
    expect(read("@secret%73", "real").paths).toEqual(["/work/p/@secrets"]);
    expect(read("secret%73", "literal").paths).toEqual(["/work/p/secret%73"]);
    expect(read("~/../secrets", "literal").paths).toEqual(["/work/p/secrets"]);
  });

  it("decodes the whole absolute path: an escape in the working directory is decoded too", () => {
    expect(resolveGeminiPath("x", { cwd: "/w/%73ecrets", reading: "defensive" }).paths).toEqual(["/w/secrets/x"]);
    expect(resolveGeminiPath("x", { cwd: "/w/100%", reading: "defensive" }).paths).toEqual(["/w/100%/x"]);
  });

  it("a path the policy reads as Gemini does is as written; one Gemini changes is not", () => {
    expect(read("secrets/id_rsa").asWritten).toBe(true);
    expect(read("/etc/../etc/shadow").asWritten).toBe(true);
    expect(read("@secrets/id_rsa").asWritten).toBe(false);
    expect(read("%73ecrets").asWritten).toBe(false);
    expect(read("~/.ssh/id_rsa").asWritten).toBe(false);
    expect(read("secr\0ets").asWritten).toBe(false);
  });

  it.each([
    ["secrets/id_rsa%00", "defensive"],
    ["%00", "real"],
    ["secrets\0", "real"],
  ] as const)("%j (%s) cannot be read: Gemini refuses a NUL character", (path, reading) => {
    expect(() => read(path, reading)).toThrow(/NUL/);
  });

  it("without an absolute working directory, a relative path Gemini would change cannot be read", () => {
    expect(resolveGeminiPath("src/a.ts", { cwd: undefined, reading: "defensive" })).toEqual({
      paths: ["src/a.ts"],
      asWritten: true,
    });
    expect(resolveGeminiPath("/etc/%73hadow", { cwd: undefined, reading: "real" }).paths).toEqual(["/etc/shadow"]);
    for (const path of ["@secrets/id_rsa", "%73ecrets", "~/x"]) {
      expect(() => resolveGeminiPath(path, { cwd: "relative", reading: "defensive" }), path).toThrow(/working/);
    }
  });

  it("drops a leading `@` as resolveDefensiveToolPath does when nothing of it exists on disk", () => {
    expect(defensiveToolPaths("@a/b")).toEqual(["a/b", "@a/b"]);
    expect(defensiveToolPaths("a/@b")).toEqual(["a/@b"]);
    expect(defensiveToolPaths("\0@a")).toEqual(["a", "@a"]);
  });
});

/** Gemini's own functions, where the e2e tests installed Gemini CLI: the mirror answers as they do. */
const geminiChunk = join(
  fileURLToPath(new URL("../../../test/e2e/node_modules/@google/gemini-cli", import.meta.url)),
  "bundle/chunk-JDPZ4CE3.js",
);

interface GeminiPaths {
  resolveToRealPath: (path: string) => string;
  resolveDefensiveToolPath: (path: string, targetDir: string) => string;
}

describe.skipIf(!existsSync(geminiChunk) || process.platform === "win32")(
  "Gemini CLI 0.61.0's installed path functions",
  () => {
    const paths = [
      "secrets/id_rsa",
      "@secrets/id_rsa",
      "@/secrets/id_rsa",
      "@\\secrets/id_rsa",
      "@",
      "@/",
      "@@x",
      "%73ecrets/id_rsa",
      "secret%73/id_rsa",
      "secrets%2fid_rsa",
      "a/%2e%2e/secrets/id_rsa",
      "x%2f../../secrets/id_rsa",
      "secr\0ets/id_rsa",
      "secrets/id_rsa%00",
      "%E0%A4%A/secret%73",
      "~/../secrets/id_rsa",
      "../../etc/%73hadow",
      "/etc/%73hadow",
      "@%2fetc/shadow",
      "file:///etc/shadow",
    ];

    function geminiAnswer(gemini: GeminiPaths, path: string, options: { targetDir: string; defensive: boolean }) {
      const { targetDir } = options;
      try {
        const sanitized = options.defensive ? gemini.resolveDefensiveToolPath(path, targetDir) : path;
        return gemini.resolveToRealPath(resolve(targetDir, sanitized));
      } catch (error) {
        return error as Error;
      }
    }

    it("answers every path as resolveToRealPath(path.resolve(targetDir, resolveDefensiveToolPath(...))) does", async () => {
      const gemini = (await import(geminiChunk)) as GeminiPaths;
      const targetDir = realpathSync(mkdtempSync(join(tmpdir(), "toolgate-gemini-path-")));
      try {
        for (const defensive of [true, false]) {
          const reading: GeminiPathReading = defensive ? "defensive" : "real";
          for (const path of paths) {
            const expected = geminiAnswer(gemini, path, { targetDir, defensive });
            const mine = () => resolveGeminiPath(path, { cwd: targetDir, reading });
            if (expected instanceof Error) expect(mine, `${reading} ${JSON.stringify(path)}`).toThrow();
            else expect(mine().paths[0], `${reading} ${JSON.stringify(path)}`).toBe(expected);
          }
        }
        // where the path as written (or its `@` first segment) exists, Gemini keeps the `@`: one of the mirror's paths
        mkdirSync(join(targetDir, "@secrets"));
        writeFileSync(join(targetDir, "@secrets", "id_rsa"), "");
        for (const path of ["@secrets/id_rsa", "@secrets/other"]) {
          const expected = geminiAnswer(gemini, path, { targetDir, defensive: true });
          expect(expected).toBe(join(targetDir, path));
          expect(resolveGeminiPath(path, { cwd: targetDir, reading: "defensive" }).paths).toContain(expected);
        }
      } finally {
        rmSync(targetDir, { recursive: true, force: true });
      }
    });
  },
);
