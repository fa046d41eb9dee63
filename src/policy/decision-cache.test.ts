import { describe, expect, it } from "vitest";
import { createDecisionCache } from "./decision-cache.js";

describe("createDecisionCache", () => {
  it("returns frozen decisions per scope and evicts the oldest entries past its limit", () => {
    const cache = createDecisionCache();
    const stored = cache.set("Bash\u0000default\u00001", "ls", { behavior: "allow", source: "default", reason: "r" });
    expect(Object.isFrozen(stored)).toBe(true);
    expect(cache.get("Bash\u0000default\u00001", "ls")).toBe(stored);
    expect(cache.get("Bash\u0000dontAsk\u00001", "ls")).toBeUndefined();
    for (let index = 0; index < 2048; index++) {
      cache.set("Read\u0000default\u00001", `/f${index}`, { behavior: "ask", source: "default", reason: "r" });
    }
    expect(cache.get("Bash\u0000default\u00001", "ls")).toBeUndefined();
    expect(cache.get("Read\u0000default\u00001", "/f2047")).toBeDefined();
    expect(cache.get("Read\u0000default\u00001", "/f0")).toBeDefined();
  });
});
