import { describe, expect, it } from "vitest";
import { postgresSafe } from "./postgres-safe.js";

describe("postgresSafe", () => {
  it("replaces NUL and lone surrogates in strings and keys, at any depth", () => {
    expect(postgresSafe({ "a\u0000": ["x\ud800y", { deep: "ok\u0000" }], fine: "é😀" })).toEqual({
      "a\uFFFD": ["x\uFFFDy", { deep: "ok\uFFFD" }],
      fine: "é😀",
    });
  });

  it("returns clean values unchanged, without copying", () => {
    const value = { command: "ls -la", list: [1, "two", null, { three: true }] };
    expect(postgresSafe(value)).toBe(value);
  });
});
