import { describe, expect, it } from "vitest";
import type { ToolCall } from "../core/events.js";
import { createGuard } from "./create-guard.js";
import { createLruStateStore } from "./lru-state-store.js";

describe("hostile tool input and session state (issue 12, class 5c)", () => {
  it("a denied call with a 500,000-element array leaves a small session state", async () => {
    // before: the array was kept whole in the pattern's recent inputs and the record (every later call of the
    // session then took 17 s to load and store the state)
    const stateStore = createLruStateStore();
    const session = createGuard({ stateStore }).session("s", { interactive: false });
    const call: ToolCall = {
      toolUseId: "t1",
      tool: "mcp__x__y",
      input: {
        items: new Array(500_000).fill(7),
        nested: { wide: Object.fromEntries([...Array(5000).keys()].map((k) => [`k${k}`, k])) },
      },
    };
    await session.decide(call);
    await session.denied(call, { source: "headless", reason: "needs approval" });
    const stored = await stateStore.get("s");
    const size = JSON.stringify(stored?.state).length;
    expect(size).toBeLessThan(50_000);
    expect(JSON.stringify(stored?.state)).toContain("more items]");
  });
});
