import { describe, expect, it } from "vitest";
import { createDecisionCache } from "./decision-cache.js";

describe("createDecisionCache", () => {
  it("returns frozen decisions per scope and evicts the oldest entries past its limit", () => {
    const cache = createDecisionCache();
    const stored = cache.set("Bash", 1, "ls", { behavior: "allow", source: "default", reason: "r" });
    expect(Object.isFrozen(stored)).toBe(true);
    expect(cache.get("Bash", 1, "ls")).toBe(stored);
    expect(cache.get("Bash", 7, "ls")).toBeUndefined();
    for (let index = 0; index < 2048; index++) {
      cache.set("Read", 1, `/f${index}`, { behavior: "ask", source: "default", reason: "r" });
    }
    expect(cache.get("Bash", 1, "ls")).toBeUndefined();
    expect(cache.get("Read", 1, "/f2047")).toBeDefined();
    expect(cache.get("Read", 1, "/f0")).toBeDefined();
  });
});
