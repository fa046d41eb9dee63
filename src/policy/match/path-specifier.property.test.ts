import fc from "fast-check";
import picomatch from "picomatch/posix.js";
import { describe, expect, it } from "vitest";
import { compileGlobAutomaton } from "./glob-automaton.js";
import { anchorPattern, compileGlob, compileLiteralGlob, compilePathSpecifier } from "./path-specifier.js";

/** The prefilter (literal directory prefix) must never change what the glob itself decides. */
const segment = fc.constantFrom("repo", "src", "a", ".env", "secret.env", "docs", "x.md", "home", "me");
const path = fc.array(segment, { minLength: 1, maxLength: 5 }).map((parts) => `/${parts.join("/")}`);
const specifier = fc
  .tuple(
    fc.constantFrom("", "./", "/", "//", "~/"),
    fc.array(
      fc.oneof(
        segment,
        fc.constantFrom(
          "*",
          "**",
          "*.md",
          "s*",
          "*e*",
          "?",
          "s?c",
          "[a-s]*",
          "[^.]*",
          "{src,docs}",
          "x.{md,txt}",
          "**e",
        ),
      ),
      { minLength: 1, maxLength: 3 },
    ),
    fc.constantFrom("", "/"),
  )
  .map(([prefix, parts, suffix]) => `${prefix}${parts.join("/")}${suffix}`);

describe("compilePathSpecifier", () => {
  it("decides exactly as the anchored glob does, for the path and everything below it", () => {
    const context = { cwd: "/repo", homeDir: "/home/me", projectRoot: "/repo" };
    fc.assert(
      fc.property(specifier, path, (pattern, target) => {
        const glob = anchorPattern(pattern, context);
        // picomatch: `/**/x` never matches `/x`, `/*/**` never matches `/a` (both tested on their own below)
        fc.pre(!glob.startsWith("/**/") && !glob.includes("*/**"));
        const expected =
          picomatch.isMatch(target, glob, { dot: true }) || picomatch.isMatch(target, `${glob}/**`, { dot: true });
        expect(compilePathSpecifier(pattern, context)(target)).toBe(expected);
      }),
      { numRuns: 5000 },
    );
  });
});

describe("compileGlob", () => {
  const globCharacter = fc.constantFrom("a", "b", ".", "/", "*", "?", "[ab]", "[^a]", "{a,b}", "\\*", "**/", "/**");
  const glob = fc.array(globCharacter, { minLength: 1, maxLength: 8 }).map((parts) => `/${parts.join("")}`);
  const text = fc
    .array(fc.constantFrom("a", "b", ".", "/", "*", "ab", "ba"), { minLength: 0, maxLength: 8 })
    .map((parts) => `/${parts.join("")}`.replace(/\/{2,}/g, "/"));

  it("decides exactly as picomatch does (dot: true) for the syntax it models", () => {
    fc.assert(
      fc.property(glob, text, (pattern, target) => {
        // picomatch's own quirks, left out: `***`, `//` and `**{a,b}` mean different things in different places
        fc.pre(
          !pattern.startsWith("/**/") &&
            !pattern.includes("*/**") &&
            !pattern.includes("***") &&
            !pattern.includes("//") &&
            !pattern.includes("**{"),
        );
        // paths reach the matcher normalised: no `.` or `..` segments, no trailing slash
        fc.pre(!/\/\.{1,2}(\/|$)/.test(target) && (target === "/" || !target.endsWith("/")));
        expect(compileGlob(pattern)(target)).toBe(picomatch.isMatch(target, pattern, { dot: true }));
      }),
      { numRuns: 20000 },
    );
    // 20,000 fixed-size cases: about 6 s on a quiet 2-core machine and 31 s at a load of 17; the guard is there to
    // catch a hang (a backtracking regression), not to time the work
  }, 180_000);

  it("reads [!...] as a negated class, as gitignore and fnmatch do (picomatch 4 reads it as a set with `!`)", () => {
    expect(compileGlob("/[!.]*")("/repo")).toBe(true);
    expect(compileGlob("/[!.]*")("/.env")).toBe(false);
    expect(compileGlob("/[!.]*")("/!x")).toBe(true);
    expect(compileGlob("/a[!.]")("/a.")).toBe(false);
  });

  it("at the root, `/**/x` also matches `/x` (zero segments), as `/repo/**/x` matches `/repo/x`", () => {
    expect(compileGlob("/**/.env")("/.env")).toBe(true);
    expect(compileGlob("/repo/**/.env")("/repo/.env")).toBe(true);
    expect(compileGlob("/**/.env")("/a/b/.env")).toBe(true);
    expect(compileGlob("/**/.env")("/a/b/.envy")).toBe(false);
  });

  it("a trailing `/**` after a `*` segment also matches zero segments, as `/repo/**` matches `/repo`", () => {
    expect(compileGlob("/*/**")("/repo")).toBe(true);
    expect(compileGlob("/repo/**")("/repo")).toBe(true);
    expect(compileGlob("/*/**")("/")).toBe(false);
  });

  it("stays linear where picomatch's regex backtracks: many stars in one segment", () => {
    const stars = `/${"a*".repeat(40)}b`;
    const segment = `/${"a".repeat(4000)}`;
    // picomatch's regex needs far longer on this (exponential in the stars); the automaton makes one pass
    expect(compileGlob(stars)(segment)).toBe(false);
    expect(compileGlob(stars)(`${segment}b`)).toBe(true);
  });
});

describe("compileLiteralGlob (the fast form of literal and literal-directory globs)", () => {
  const part = fc.constantFrom("a", "b", "ab", ".env", "..", ".", "", "src", "a b", "é", "**", "/**", "*", "x*");
  const glob = fc
    .tuple(fc.constantFrom("", "/"), fc.array(part, { minLength: 0, maxLength: 5 }), fc.constantFrom("", "/", "/**"))
    .map(([lead, parts, tail]) => `${lead}${parts.join("/")}${tail}`);
  const target = fc.oneof(
    fc
      .array(fc.constantFrom("a", "b", "ab", ".env", "src", "a b", "é", ""), { maxLength: 5 })
      .map((parts) => `/${parts.join("/")}`),
    fc.string({ maxLength: 12 }),
  );

  it("decides exactly as the automaton does wherever it applies", () => {
    let fast = 0;
    fc.assert(
      fc.property(glob, target, (pattern, path) => {
        const literal = compileLiteralGlob(pattern);
        const automaton = compileGlobAutomaton(pattern);
        fc.pre(literal !== undefined && automaton !== undefined);
        fast++;
        expect(literal?.(path)).toBe(automaton?.(path));
        // also on the path and everything below it, as compilePathSpecifier asks
        expect(literal?.(`${path}/x`)).toBe(automaton?.(`${path}/x`));
      }),
      { numRuns: 20000 },
    );
    expect(fast).toBeGreaterThan(1000);
  });

  it("applies to the literal and literal-directory forms only", () => {
    expect(compileLiteralGlob("/repo/src/**")?.("/repo/src")).toBe(true);
    expect(compileLiteralGlob("/repo/src/**/**")?.("/repo/src/a/b")).toBe(true);
    expect(compileLiteralGlob("/repo/src/**")?.("/repo/srcx")).toBe(false);
    expect(compileLiteralGlob("/repo/.env")?.("/repo/.env")).toBe(true);
    expect(compileLiteralGlob("/repo/*.env")).toBeUndefined();
    expect(compileLiteralGlob("/repo/**/.env")).toBeUndefined();
    expect(compileLiteralGlob("/re\\*po/**")).toBeUndefined();
  });
});
