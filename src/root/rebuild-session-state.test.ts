import { describe, expect, it } from "vitest";
import { makeRecord } from "../../test/store/fixtures.js";
import { createGuard } from "../guard/create-guard.js";
import { rebuildSessionState } from "./rebuild-session-state.js";

// the guard's own compiled config: the default thresholds and the real detect/ ports
const config = createGuard({ onError: () => undefined }).config;
const records = [1, 2, 3].map((seq) =>
  makeRecord({ seq, sessionId: "s1", turn: seq === 3 ? 2 : 1, toolUseId: `toolu_${seq}`, signature: `sig-${seq}` }),
);

describe("rebuildSessionState: a session's state from its denial records", () => {
  it("restores the counts, the turn and the high-water mark, each record once", () => {
    const state = rebuildSessionState({
      sessionId: "s1",
      interactive: true,
      host: "claude-code",
      records: [...records, records[0]!, makeRecord({ seq: 1, sessionId: "other" })],
      config,
    });
    expect(state.total).toBe(3);
    expect(state.turn).toBe(2);
    expect(state.highWaterMark).toBe(3);
    expect(state.agents.main?.tools.Bash).toBeDefined();
    expect(state.records.map((record) => record.toolUseId)).toEqual(["toolu_1", "toolu_2", "toolu_3"]);
    expect(state.aborted).toBeUndefined();
    expect(state.grants).toEqual([]);
  });

  it("brings back a headless session's abort", () => {
    const state = rebuildSessionState({ sessionId: "s1", interactive: false, records, config });
    expect(state.aborted?.tool).toBe("Bash");
  });
});
