import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SessionState } from "../../src/core/state.js";
import { createLruStateStore } from "../../src/guard/lru-state-store.js";
import type { SessionStateStore } from "../../src/store/ports.js";
import { runSessionStateContract } from "./contract.js";

describe("store contract: in-process LRU state store", () => {
  let store: SessionStateStore<unknown>;
  beforeEach(() => {
    store = createLruStateStore<unknown>();
  });
  afterEach(async () => {
    await store.close();
  });
  runSessionStateContract(() => store);
});

describe("createLruStateStore", () => {
  it("evicts the least recently used session (a read counts as a use)", async () => {
    const store = createLruStateStore({ maxSessions: 2 });
    const state = (sessionId: string) => ({ sessionId }) as SessionState;
    await store.update("a", () => state("a"));
    await store.update("b", () => state("b"));
    await store.get("a");
    await store.update("c", () => state("c"));
    expect(store.size).toBe(2);
    expect(await store.get("b")).toBeUndefined();
    expect(await store.get("a")).toEqual({ state: state("a"), version: 1 });
    expect(await store.get("c")).toEqual({ state: state("c"), version: 1 });
  });
});
