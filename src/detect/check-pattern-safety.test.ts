import { describe, expect, it } from "vitest";
import { checkPatternSafety } from "./check-pattern-safety.js";

describe("checkPatternSafety", () => {
  it.each([
    ["acme_[A-Za-z0-9]{32}"],
    ["(?<secret>tok-[a-f0-9]{8,64})"],
    ["PIN (?<secret>[0-9]{4,8})"],
    ["x-(?:live|test)-[a-z]{16}"],
    ["\\bAKIA[A-Z0-9]{16}\\b"],
    ["[(*+]{1,4}literal"],
    ["a{3}b?c{0,10}"],
    ["(?:ab){1,4}"],
  ])("accepts %s", (source) => {
    expect(checkPatternSafety(source)).toEqual({ safe: true });
  });

  it.each([
    ["(a+)+", "unbounded"],
    ["(a{1,10}){1,10}", "nested quantifiers"],
    ["(?:a|a){1,20}", "nested quantifiers"],
    ["(x)\\1", "backreferences"],
    ["(?<n>x)\\k<n>", "backreferences"],
    ["a*b", "unbounded"],
    ["a{2,}", "unbounded"],
    ["(?<=x)y", "lookbehind"],
    ["[a-z]{1,5000}", "above"],
    ["[a-z]{1,300}[0-9]{1,300}", "too many"],
    ["(", "does not compile"],
    ["", "empty"],
  ])("rejects %s", (source, reason) => {
    const result = checkPatternSafety(source);
    expect(result.safe).toBe(false);
    if (!result.safe) expect(result.reason).toContain(reason);
  });

  it("rejects flags other than i, m, s, u", () => {
    expect(checkPatternSafety("abc", "g").safe).toBe(false);
    expect(checkPatternSafety("abc", "y").safe).toBe(false);
    expect(checkPatternSafety("abc", "ii").safe).toBe(false);
    expect(checkPatternSafety("abc", "iu")).toEqual({ safe: true });
  });
});
