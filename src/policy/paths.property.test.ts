import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normalizePath, normalizeSegments } from "./paths.js";

describe("normalizePath", () => {
  it("returns what the segment-by-segment normalisation returns, for any path", () => {
    const part = fc.constantFrom("/", "//", ".", "..", "...", ".a", "a.", "a", "src", "é", " ", "\\\\");
    const path = fc.array(part, { maxLength: 10 }).map((parts) => parts.join(""));
    fc.assert(
      fc.property(path, (target) => {
        expect(normalizePath(target)).toBe(normalizeSegments(target));
      }),
      { numRuns: 20000 },
    );
  });

  it("leaves a normalised path as it is and normalises the rest", () => {
    expect(normalizePath("/repo/src/a.ts")).toBe("/repo/src/a.ts");
    expect(normalizePath("/")).toBe("/");
    expect(normalizePath("/repo/./src/../x/")).toBe("/repo/x");
    expect(normalizePath("/repo/..")).toBe("/");
    expect(normalizePath("/repo/.")).toBe("/repo");
    expect(normalizePath("/repo//a")).toBe("/repo/a");
    expect(normalizePath("/a/.../b")).toBe("/a/.../b");
  });
});
