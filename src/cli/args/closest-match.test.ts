import { describe, expect, it } from "vitest";
import { closestMatch, editDistance } from "./closest-match.js";

describe("editDistance", () => {
  it("counts insertions, deletions, substitutions and swapped neighbours as one edit each", () => {
    expect(editDistance("dryrun", "dry-run")).toBe(1);
    expect(editDistance("sinse", "since")).toBe(1);
    expect(editDistance("jsno", "json")).toBe(1);
    expect(editDistance("json", "json")).toBe(0);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("kitten", "sitting")).toBe(3);
  });
});

describe("closestMatch", () => {
  const flags = ["project", "local", "user", "dry-run", "command", "help"];
  it("finds the flag a typo meant", () => {
    expect(closestMatch("dryrun", flags)).toBe("dry-run");
    expect(closestMatch("usr", flags)).toBe("user");
    expect(closestMatch("Project", flags)).toBe("project");
    expect(closestMatch("dry", flags)).toBe("dry-run");
  });
  it("suggests nothing for a word that is not close to any", () => {
    expect(closestMatch("verbose", flags)).toBeUndefined();
    expect(closestMatch("x", flags)).toBeUndefined();
  });
});
