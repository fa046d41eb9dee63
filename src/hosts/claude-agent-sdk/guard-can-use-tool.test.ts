import type { CanUseTool } from "@anthropic-ai/claude-agent-sdk";
import { describe, expect, it } from "vitest";
import { createGuard } from "../../guard/create-guard.js";
import { createLruStateStore } from "../../guard/lru-state-store.js";
import { compilePolicy } from "../../policy/compile-policy.js";
import { NO_DEFAULTS } from "../../policy/defaults/read-only-defaults.js";
import type { SessionStateStore } from "../../store/ports.js";
import { guardCanUseTool } from "./guard-can-use-tool.js";

/**
 * `canUseTool` alone (an SDK app without toolgate's hooks, and without a prompt of its own): the SDK asks it about
 * each call Claude Code would ask a person about. toolgate's decision and the refusal nobody can answer are one
 * reducer step and one state transaction; a session grant still lets the call through.
 */
function counted(threshold = 10) {
  const inner = createLruStateStore();
  let transactions = 0;
  const stateStore: SessionStateStore = {
    get: (sessionId) => inner.get(sessionId),
    update: (sessionId, fn) => {
      transactions += 1;
      return inner.update(sessionId, fn);
    },
    delete: (sessionId) => inner.delete(sessionId),
    close: () => inner.close(),
  };
  const policy = compilePolicy({
    rules: [
      { rule: "Bash(rm *)", behavior: "deny", origin: "test" },
      { rule: "Bash(ls *)", behavior: "allow", origin: "test" },
    ],
    cwd: "/work",
    homeDir: "/home/me",
    defaults: NO_DEFAULTS,
  });
  const guard = createGuard({
    policy,
    stateStore,
    core: { familyThresholds: { shell: threshold } },
    onError: () => undefined,
  });
  return { guard, transactions: () => transactions };
}

const callOptions = (toolUseID: string) =>
  ({ signal: new AbortController().signal, toolUseID }) as Parameters<CanUseTool>[2];

describe("guardCanUseTool without an inner callback", () => {
  it("refuses every call in one state transaction each: a deny rule's, one no rule matches, one toolgate allows", async () => {
    const { guard, transactions } = counted();
    const session = guard.session("s1", { interactive: false });
    const canUseTool = guardCanUseTool(session);
    const calls = [
      ["t1", "rm -rf build", "rule"],
      ["t2", "npm publish", "headless"],
      // toolgate's allow rule does not answer Claude Code's question: nobody can, so it is refused too
      ["t3", "ls -la", "headless"],
      ["t4", "rm -rf dist", "rule"],
    ] as const;
    for (const [id, command] of calls) {
      const before = transactions();
      const answer = await canUseTool("Bash", { command }, callOptions(id));
      expect({ id, behavior: answer?.behavior, transactions: transactions() - before }).toEqual({
        id,
        behavior: "deny",
        transactions: 1,
      });
    }
    const { records } = await session.state();
    expect(records.map((record) => [record.toolUseId, record.source])).toEqual(
      calls.map(([id, , source]) => [id, source]),
    );
  });

  it("lets a call the person's session grant covers through, in one state transaction", async () => {
    const { guard, transactions } = counted(2);
    const session = guard.session("s2", { interactive: true });
    const offers: string[] = [];
    const canUseTool = guardCanUseTool(session, {
      onGrantOffer: (offer) => {
        offers.push(offer.scope.rule);
        return true;
      },
    });
    // the second refusal passes the threshold: the person is offered the minimum scope and accepts it
    expect((await canUseTool("Bash", { command: "npm publish" }, callOptions("t1")))?.behavior).toBe("deny");
    expect((await canUseTool("Bash", { command: "npm publish" }, callOptions("t2")))?.behavior).toBe("allow");
    expect(offers).toEqual(["Bash(npm publish)"]);
    const before = transactions();
    const answer = await canUseTool("Bash", { command: "npm publish" }, callOptions("t3"));
    expect(answer?.behavior).toBe("allow");
    expect(transactions() - before).toBe(1);
    expect((await session.state()).records.map((record) => record.toolUseId)).toEqual(["t1", "t2"]);
  });
});
