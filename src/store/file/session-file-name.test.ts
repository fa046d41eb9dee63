import { describe, expect, it } from "vitest";
import { sessionFileName } from "./session-file-name.js";

describe("sessionFileName", () => {
  it("keeps a short lowercase id readable", () => {
    expect(sessionFileName("0b9c6f0e-2d57-4b7e-9d1e-6b1b6f7e8a90")).toBe("s-0b9c6f0e-2d57-4b7e-9d1e-6b1b6f7e8a90");
  });

  it("hashes anything that could escape the directory, collide by case, or exceed a name's length", () => {
    const hostile = [
      "../../etc/passwd",
      "a/b",
      "a\\b",
      "..",
      ".",
      "",
      "a\u0000b",
      "x".repeat(10_000),
      "ABC",
      "abc\n",
      "con",
      "\ud800",
    ];
    for (const id of hostile) {
      const name = sessionFileName(id);
      expect(name, JSON.stringify(id)).toMatch(/^(s-[a-z0-9][a-z0-9_-]*|h-[0-9a-f]{40})$/);
      expect(name.length).toBeLessThanOrEqual(102);
    }
    expect(sessionFileName("con")).toBe("s-con");
    expect(sessionFileName("ABC")).not.toBe(sessionFileName("abc"));
  });

  it("never lets a plain id name a hashed id's file", () => {
    const hashed = sessionFileName("Some Session");
    expect(sessionFileName(hashed)).not.toBe(hashed);
    expect(sessionFileName(hashed.slice(2))).toBe(`s-${hashed.slice(2)}`);
  });
});
