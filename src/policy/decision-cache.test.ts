import { describe, expect, it } from "vitest";
import { createDecisionCache, type DecisionCache } from "./decision-cache.js";
import type { PolicyDecision } from "./policy-types.js";

/** stores a decision: a call's decision is kept the second time it is seen */
function store(cache: DecisionCache, tool: string, variant: number, subject: string, decision: PolicyDecision) {
  cache.set(tool, variant, subject, { ...decision });
  return cache.set(tool, variant, subject, decision);
}

describe("createDecisionCache", () => {
  it("keeps a decision the second time its call is seen, not the first", () => {
    const cache = createDecisionCache();
    const first = cache.set("Bash", 1, "ls", { behavior: "allow", source: "default", reason: "r" });
    expect(Object.isFrozen(first)).toBe(true);
    expect(cache.get("Bash", 1, "ls")).toBeUndefined();
    const second = cache.set("Bash", 1, "ls", { behavior: "allow", source: "default", reason: "r" });
    expect(cache.get("Bash", 1, "ls")).toBe(second);
    // seen once in another variant: not kept there
    cache.set("Bash", 2, "ls", { behavior: "allow", source: "default", reason: "r" });
    expect(cache.get("Bash", 2, "ls")).toBeUndefined();
  });

  it("returns frozen decisions per tool, variant and subject, and stays bounded", () => {
    const cache = createDecisionCache();
    const stored = store(cache, "Bash", 1, "ls", { behavior: "allow", source: "default", reason: "r" });
    expect(Object.isFrozen(stored)).toBe(true);
    expect(cache.get("Bash", 1, "ls")).toBe(stored);
    expect(cache.get("Bash", 7, "ls")).toBeUndefined();
    expect(cache.get("Read", 1, "ls")).toBeUndefined();
    expect(cache.get("Bash", 1, "ls ")).toBeUndefined();
    // a subject equal in content but another string object finds the entry
    expect(cache.get("Bash", 1, ["l", "s"].join(""))).toBe(stored);
    // replacing an entry keeps one entry
    const again = cache.set("Bash", 1, "ls", { behavior: "deny", source: "default", reason: "r2" });
    expect(cache.get("Bash", 1, "ls")).toBe(again);
    for (let index = 0; index < 20_000; index++) {
      store(cache, "Read", 1, `/f${index}`, { behavior: "ask", source: "default", reason: `r${index}` });
    }
    expect(cache.get("Bash", 1, "ls")).toBeUndefined();
    let kept = 0;
    for (let index = 0; index < 20_000; index++) {
      const found = cache.get("Read", 1, `/f${index}`);
      if (found !== undefined) {
        expect(found.reason).toBe(`r${index}`);
        kept++;
      }
    }
    expect(kept).toBeLessThanOrEqual(4096);
    expect(kept).toBeGreaterThan(3000);
    expect(cache.get("Read", 1, "/f19999")).toBeDefined();
  });

  it("keeps every call of a working set that comes round again and again (no two calls keep each other out)", () => {
    const cache = createDecisionCache();
    const calls: [string, string][] = [];
    for (let index = 0; index < 300; index++) {
      if (index % 3 === 0) calls.push(["Bash", `git status --short ${index}`]);
      else if (index % 3 === 1) calls.push(["Read", `/repo/src/module${index % 50}/file${index}.ts`]);
      else calls.push(["WebFetch", `https://site${index % 30}.example.com/page${index}`]);
    }
    for (let round = 0; round < 3; round++) {
      for (const [tool, subject] of calls) {
        if (cache.get(tool, 1, subject) === undefined) {
          cache.set(tool, 1, subject, { behavior: "allow", source: "default", reason: subject });
        }
      }
    }
    let missing = 0;
    for (const [tool, subject] of calls) if (cache.get(tool, 1, subject)?.reason !== subject) missing++;
    expect(missing).toBeLessThanOrEqual(3);
  });

  it("keeps a working set of a few hundred calls, long subjects included", () => {
    const cache = createDecisionCache();
    const subjects = Array.from({ length: 300 }, (_, index) =>
      index % 10 === 0 ? `git log ${"x".repeat(2000)} ${index} ${"y".repeat(600)}` : `git status --short ${index}`,
    );
    for (const subject of subjects)
      store(cache, "Bash", 3, subject, { behavior: "allow", source: "default", reason: subject });
    let hits = 0;
    for (const subject of subjects) if (cache.get("Bash", 3, subject)?.reason === subject) hits++;
    expect(hits).toBeGreaterThanOrEqual(295);
    // long subjects that differ only in their unhashed middle are told apart
    const middle = (char: string) => `a${"b".repeat(5000)}${char}${"b".repeat(5000)}`;
    store(cache, "Bash", 3, middle("1"), { behavior: "allow", source: "default", reason: "one" });
    store(cache, "Bash", 3, middle("2"), { behavior: "deny", source: "default", reason: "two" });
    expect(cache.get("Bash", 3, middle("1"))?.reason).toBe("one");
    expect(cache.get("Bash", 3, middle("2"))?.reason).toBe("two");
    expect(cache.get("Bash", 3, middle("3"))).toBeUndefined();
  });
});
