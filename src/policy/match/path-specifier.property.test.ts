import fc from "fast-check";
import picomatch from "picomatch/posix.js";
import { describe, expect, it } from "vitest";
import { anchorPattern, compilePathSpecifier } from "./path-specifier.js";

/** The prefilter (literal directory prefix) must never change what the glob itself decides. */
const segment = fc.constantFrom("repo", "src", "a", ".env", "secret.env", "docs", "x.md", "home", "me");
const path = fc.array(segment, { minLength: 1, maxLength: 5 }).map((parts) => `/${parts.join("/")}`);
const specifier = fc
  .tuple(
    fc.constantFrom("", "./", "/", "//", "~/"),
    fc.array(fc.oneof(segment, fc.constantFrom("*", "**", "*.md", "s*")), { minLength: 1, maxLength: 3 }),
    fc.constantFrom("", "/"),
  )
  .map(([prefix, parts, suffix]) => `${prefix}${parts.join("/")}${suffix}`);

describe("compilePathSpecifier", () => {
  it("decides exactly as the anchored glob does, for the path and everything below it", () => {
    const context = { cwd: "/repo", homeDir: "/home/me", projectRoot: "/repo" };
    fc.assert(
      fc.property(specifier, path, (pattern, target) => {
        const glob = anchorPattern(pattern, context);
        const expected =
          picomatch.isMatch(target, glob, { dot: true }) || picomatch.isMatch(target, `${glob}/**`, { dot: true });
        expect(compilePathSpecifier(pattern, context)(target)).toBe(expected);
      }),
      { numRuns: 5000 },
    );
  });
});
