import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bash, denied, run, testConfig } from "../../test/support/core-fixtures.js";
import { addId, mayHoldId, withId } from "./evicted-ids.js";
import { stepOwned } from "./step.js";

describe("the filter of evicted ids", () => {
  it("holds every id added to it (no false negative)", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 60 }), { minLength: 1, maxLength: 400 }), (ids) => {
        let filter: number[] | undefined;
        for (const id of ids) filter = withId(filter, id);
        for (const id of ids) expect(mayHoldId(filter as number[], id)).toBe(true);
      }),
      { numRuns: 200, seed: 20261128 },
    );
  });

  it("rarely holds an id never added: 100 ids in, 20,000 others out (about 1 in 200,000 expected)", () => {
    let filter: number[] | undefined;
    for (let index = 0; index < 100; index++) filter = withId(filter, `toolu_01A${index}`);
    let held = 0;
    for (let index = 0; index < 20_000; index++) if (mayHoldId(filter as number[], `toolu_01B${index}`)) held += 1;
    expect(held).toBeLessThanOrEqual(2);
  });

  it("is plain JSON of a fixed size, and never changes a filter it was given unless told to", () => {
    const first = withId(undefined, "a");
    expect(first).toHaveLength(256);
    expect(JSON.parse(JSON.stringify(first))).toEqual(first);
    const frozen = Object.freeze([...first]);
    const second = withId(frozen, "b");
    expect(frozen).toEqual(first);
    expect(second).not.toBe(frozen);
    expect(addId(second, "c")).toBe(second);
    expect(mayHoldId(second, "c")).toBe(true);
  });
});

describe("the record buffer's evictions", () => {
  const config = testConfig({ recordBufferSize: 2 });

  it("each record that leaves the buffer is held by the state's filter, in step and stepOwned alike", () => {
    const calls = ["t1", "t2", "t3", "t4", "t5"].map((id) => denied(bash(`rm ${id}`, id)));
    const { state } = run(calls, { config });
    expect(state.records.map((record) => record.toolUseId)).toEqual(["t4", "t5"]);
    const filter = state.evictedIds as number[];
    for (const id of ["t1", "t2", "t3"]) expect(mayHoldId(filter, id)).toBe(true);
    expect(["t4", "t5", "t6", "never"].filter((id) => mayHoldId(filter, id))).toEqual([]);

    let owned = run([], { config }).state;
    for (const event of calls) owned = stepOwned(owned, event, config).state;
    expect(owned).toEqual(state);
  });

  it("keeps none when the config says so (analyze's replay, which never asks)", () => {
    const calls = ["t1", "t2", "t3"].map((id) => denied(bash(`rm ${id}`, id)));
    const { state } = run(calls, { config: { ...config, keepEvictedIds: false } });
    expect(state.records).toHaveLength(2);
    expect(state.evictedIds).toBeUndefined();
  });

  it("no filter while nothing was evicted, and none for a state that evicted before it kept one", () => {
    const { state } = run([denied(bash("rm a", "a")), denied(bash("rm b", "b"))], { config });
    expect(state.evictedIds).toBeUndefined();
    // a state saved by an older toolgate: it evicted records, but which ones is unknown
    const older = run([denied(bash("rm c", "c")), denied(bash("rm d", "d"))], { config }).state;
    older.total = 5;
    const after = run([denied(bash("rm e", "e"))], { config, state: older }).state;
    expect(after.records).toHaveLength(2);
    expect(after.evictedIds).toBeUndefined();
  });
});
