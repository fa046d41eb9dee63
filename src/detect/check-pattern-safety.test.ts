import { describe, expect, it } from "vitest";
import { checkPatternSafety } from "./check-pattern-safety.js";
import { compileRedactionPatterns } from "./compile-redaction-patterns.js";
import { redactText } from "./redact.js";

describe("checkPatternSafety", () => {
  it.each([
    ["acme_[A-Za-z0-9]{32}", "acme_"],
    ["(?<secret>tok-[a-f0-9]{8,64})", "tok-"],
    ["PIN (?<secret>[0-9]{4,8})", "PIN "],
    ["acme-(?:live|test)-[a-z]{16}", "acme-"],
    ["\\bAKIA[A-Z0-9]{16}\\b", "AKIA"],
    ["^sbx\\.[a-z]{4}", "sbx."],
    ["key=(?:ab){1,4}", "key="],
  ])("accepts %s (prefix %s)", (source, prefix) => {
    expect(checkPatternSafety(source)).toEqual({ safe: true, prefix });
  });

  it.each([
    ["[a-z]{1,64}x", "fixed prefix"],
    ["ab[0-9]{4}", "fixed prefix"],
    ["acme|other", "alternatives"],
    ["acme(a+)+", "unbounded"],
    ["acme(a{1,10}){1,10}", "nested quantifiers"],
    ["acme(?:a|a){1,20}", "nested quantifiers"],
    ["acme(x)\\1", "backreferences"],
    ["acme(?<n>x)\\k<n>", "backreferences"],
    ["acme_a*b", "unbounded"],
    ["acme_a{2,}", "unbounded"],
    ["(?<=x)acme", "fixed prefix"],
    ["acme[a-z]{1,5000}", "above"],
    ["acme[a-z]{1,300}[0-9]{1,300}", "longest possible match"],
    ["acme[a-z]{1,100}[0-9]{1,100}", "too many"],
    ["acme(", "does not compile"],
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
    expect(checkPatternSafety("abc", "iu")).toEqual({ safe: true, prefix: "abc" });
  });

  it("accepted patterns finish on adversarial 1 MB inputs", () => {
    const patterns = compileRedactionPatterns([
      { kind: "acme-key", pattern: "acme_[a-z0-9_]{1,256}x" },
      { kind: "pin", pattern: "PIN (?<secret>[0-9]{1,64}[a-z]{1,64})", flags: "i" },
    ]);
    for (const unit of ["acme_", "acme_a", "pin 1", "PIN 12345a"]) {
      const text = unit.repeat(Math.ceil((1024 * 1024) / unit.length));
      expect(typeof redactText(text, { patterns })).toBe("string");
    }
  });
});
