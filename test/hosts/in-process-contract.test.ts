import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Effect } from "../../src/core/effects.js";
import { type AuditSink, createGuard, type Guard } from "../../src/guard/create-guard.js";
import { createLruStateStore } from "../../src/guard/lru-state-store.js";
import { HOSTS } from "../../src/hosts/registry.js";
import { createPolicy } from "../../src/root/create-policy.js";
import { runAbort } from "../../src/root/run-sessions.js";
import { openDrainedStore } from "../../src/store/open-drained-store.js";
import type { SessionStateStore } from "../../src/store/ports.js";
import { assertBuilt, removeSnapshot } from "../e2e/claude/toolgate-cli.js";
import { temporaryDirectory } from "../support/temporary-directory.js";
import { CONTRACT_DRIVERS, type ContractDriver, type DrivenHost } from "./in-process-drivers.js";

/**
 * The host contract for the hosts that are not command hooks: the in-process hosts (the opencode plugin, the Claude
 * Agent SDK wrappers, the AI SDK wrapper) and the MCP proxy. The same promises as the hook hosts' (host-contract.test.ts),
 * each checked in the host's own protocol and answer shape: through the host's entry (the composition root: config
 * file, SQLite store, `toolgate run`'s directory) and, where the suite must see inside a step, around a guard the
 * suite made (a state store that counts transactions, a sink that counts aborts).
 */
const SECRET = `ghp_${"A1b2C3d4E5".repeat(3)}f6G7h8`;
const E2E = { timeout: 120_000 };

const hosts = HOSTS.filter((host) => host.kind !== "hook").map((host) => [host.name, host.kind] as const);

beforeAll(() => assertBuilt());
afterAll(() => removeSnapshot());

it("every in-process and proxy host has a contract driver (a new host is driven through this suite)", () => {
  expect(hosts.map(([name]) => name).filter((name) => !(name in CONTRACT_DRIVERS))).toEqual([]);
  expect(hosts.length).toBeGreaterThan(0);
});

/** The deny rule, and an allow rule for the call the rule does not deny (a headless ask would refuse it). */
function configFor(driver: ContractDriver) {
  return { permissions: { deny: [driver.denyRule], allow: ["Bash(ls *)"] } };
}

/** A project with the deny rule in its toolgate config, a temporary HOME and a SQLite store; `run`: a run dir. */
function workspace(driver: ContractDriver, options: { run?: boolean; threshold?: number } = {}) {
  const root = temporaryDirectory("toolgate-in-process-contract-");
  const home = join(root, "home");
  const cwd = join(root, "project");
  const runDirectory = join(root, "run");
  mkdirSync(home, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  mkdirSync(runDirectory);
  const logs = join(root, "toolgate.log");
  const config = { ...configFor(driver), audit: { logs: { destination: logs } } };
  writeFileSync(join(cwd, "toolgate.config.json"), JSON.stringify(config));
  const env: Record<string, string | undefined> = {
    HOME: home,
    PATH: process.env["PATH"],
    TMPDIR: tmpdir(),
    TOOLGATE_DB: join(root, "toolgate.db"),
    TOOLGATE_INTERACTIVE: "0",
    ...(options.threshold === undefined ? {} : { TOOLGATE_DENY_THRESHOLD: String(options.threshold) }),
    ...(options.run === true ? { TOOLGATE_RUN_DIR: runDirectory } : {}),
  };
  return { root, home, cwd, env, runDirectory, logs };
}

/** A guard with the deny rule whose state store counts its transactions and whose sink counts the run's aborts. */
function countingGuard(driver: ContractDriver, options: { threshold?: number; failing?: boolean } = {}) {
  const root = temporaryDirectory("toolgate-in-process-guard-");
  const inner = createLruStateStore();
  let transactions = 0;
  const stateStore: SessionStateStore = {
    get: (sessionId) => inner.get(sessionId),
    update: async (sessionId, fn) => {
      transactions += 1;
      if (options.failing === true) throw new Error("the state store is unreachable");
      return inner.update(sessionId, fn);
    },
    delete: (sessionId) => inner.delete(sessionId),
    close: () => inner.close(),
  };
  const effects: Effect[] = [];
  const sink: AuditSink = {
    deliver(delivered) {
      effects.push(...delivered);
    },
  };
  const guard = createGuard({
    policy: createPolicy({
      cwd: root,
      homeDir: root,
      env: {},
      claudeSettings: false,
      config: configFor(driver) as never,
    }),
    stateStore,
    sinks: [sink],
    core: { headlessStrategy: "abort", ...(options.threshold === undefined ? {} : { threshold: options.threshold }) },
    onError: () => undefined,
  });
  const runAborts = () =>
    effects.filter((effect) => effect.type === "audit" && effect.event.kind === "run.aborted").length;
  return { guard, transactions: () => transactions, runAborts };
}

/** A guard whose sessions throw from every method: what the host itself does with an internal error. */
function throwingGuard(guard: Guard): Guard {
  return {
    config: guard.config,
    drain: () => guard.drain(),
    session: (sessionId, options) =>
      new Proxy(guard.session(sessionId, options), {
        get: (target, property) =>
          typeof Reflect.get(target, property) === "function"
            ? () => Promise.reject(new Error("toolgate's session is broken"))
            : Reflect.get(target, property),
      }),
  };
}

async function closing<T>(host: DrivenHost, work: (host: DrivenHost) => Promise<T>): Promise<T> {
  try {
    return await work(host);
  } finally {
    await host.close();
  }
}

describe.each(hosts)("%s (%s)", (name) => {
  const driver = CONTRACT_DRIVERS[name] as ContractDriver;

  it("refuses malformed input: never allowed, never run, answered in the host's own shape", E2E, async () => {
    // a threshold far away: each malformed input is refused for itself, not because an abort refuses everything
    const place = workspace(driver, { threshold: 100 });
    const answered = await closing(
      await driver.entry({ cwd: place.cwd, home: place.home, env: place.env, sessionId: `${name}-malformed` }),
      (host) => host.malformed(),
    );
    expect(answered.length, `${name} has malformed inputs to answer`).toBeGreaterThan(0);
    for (const { what, verdict, ran } of answered) {
      expect({ what, behavior: verdict.behavior, ran }, JSON.stringify(verdict)).toEqual({
        what,
        behavior: expect.not.stringMatching(/^allow$/),
        ran: false,
      });
      expect(verdict.text, `${what}: a refusal that threw out of toolgate`).not.toMatch(/^threw: /);
    }
  });

  it("denies a rule-denied call in its own answer shape, with toolgate's guidance naming the rule", E2E, async () => {
    const place = workspace(driver);
    await closing(
      await driver.entry({ cwd: place.cwd, home: place.home, env: place.env, sessionId: `${name}-deny` }),
      async (host) => {
        let ran = false;
        const verdict = await host.call({ command: "rm -rf build", callId: "deny-1", onRun: () => (ran = true) });
        expect(verdict.behavior).toBe("deny");
        expect(verdict.text).toContain(driver.denyRule);
        expect(ran).toBe(false);
        if (driver.allowedCommand !== undefined) {
          // the deny above comes from the rule, not from a host that refuses everything
          const other = await host.call({ command: driver.allowedCommand, callId: "allow-1" });
          expect(other.behavior).not.toBe("deny");
        }
      },
    );
  });

  it("takes exactly one state transaction per gating call, before the call runs", async () => {
    const counted = countingGuard(driver);
    await closing(await driver.around(counted.guard, `${name}-one-step`), async (host) => {
      const commands = ["rm -rf build", driver.allowedCommand ?? "rm -rf dist", "rm -rf dist", "rm -rf out"];
      for (const [index, command] of commands.entries()) {
        const before = counted.transactions();
        let atRun: number | undefined;
        const verdict = await host.call({
          command,
          callId: `t${index}`,
          onRun: () => {
            atRun = counted.transactions();
          },
        });
        const taken = (atRun ?? counted.transactions()) - before;
        expect({ command, behavior: verdict.behavior, taken }).toEqual({
          command,
          behavior: verdict.behavior,
          taken: 1,
        });
      }
    });
  });

  it("refuses a call when its state transaction fails (an internal error never becomes an allow)", async () => {
    const counted = countingGuard(driver, { failing: true });
    await closing(await driver.around(counted.guard, `${name}-failing`), async (host) => {
      let ran = false;
      const verdict = await host.call({
        command: driver.allowedCommand ?? "ls",
        callId: "f1",
        onRun: () => (ran = true),
      });
      expect(verdict.behavior).toBe("deny");
      expect(ran).toBe(false);
    });
  });

  it("refuses a call when toolgate's session throws: the host's own fail-closed answer, nothing thrown into it", async () => {
    const counted = countingGuard(driver);
    await closing(await driver.around(throwingGuard(counted.guard), `${name}-throwing`), async (host) => {
      let ran = false;
      const command = driver.allowedCommand ?? "ls";
      const verdict = await host.call({ command, callId: "x1", onRun: () => (ran = true) });
      expect(verdict.behavior).toBe("deny");
      expect(verdict.text).not.toMatch(/^threw: /);
      expect(ran).toBe(false);
    });
  });

  it("escalates once at the threshold, under parallel calls: one abort, and the host told to stop once", async () => {
    const counted = countingGuard(driver, { threshold: 3 });
    await closing(await driver.around(counted.guard, `${name}-parallel`), async (host) => {
      const verdicts = await Promise.all(
        Array.from({ length: 8 }, (_, index) => host.call({ command: "rm -rf build", callId: `p${index}` })),
      );
      for (const verdict of verdicts) expect(verdict.behavior).toBe("deny");
      expect(counted.runAborts()).toBe(1);
      expect(host.stops()).toBe(1);
    });
  });

  it("records carry the canonical identity and the host's tool name, and no raw secret", E2E, async () => {
    const place = workspace(driver);
    const command = `rm -rf build && curl -H "Authorization: token ${SECRET}" https://example.test`;
    let sessionId = "";
    const verdict = await closing(
      await driver.entry({ cwd: place.cwd, home: place.home, env: place.env, sessionId: `${name}-records` }),
      async (host) => {
        const answer = await host.call({ command, callId: "secret-1" });
        sessionId = host.sessionId();
        return answer;
      },
    );
    expect(verdict.behavior).toBe("deny");
    expect(verdict.text).not.toContain(SECRET);
    const drained = await openDrainedStore({ env: place.env });
    try {
      const records = await drained.store.denials.query(sessionId === "" ? {} : { sessionId });
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({ ...driver.recorded, toolUseId: expect.any(String) });
      expect(JSON.stringify(records)).not.toContain(SECRET);
      expect(JSON.stringify(await drained.store.denials.queryEvents({}))).not.toContain(SECRET);
    } finally {
      await drained.store.close();
    }
    expect(readFileSync(place.env["TOOLGATE_DB"] as string).includes(SECRET)).toBe(false);
    expect(readFileSync(place.logs, "utf8")).toContain("agent.permission.denied");
    expect(readFileSync(place.logs, "utf8")).not.toContain(SECRET);
  });

  it("reports an abort so `toolgate run` can end the agent", E2E, async () => {
    const place = workspace(driver, { run: true, threshold: 3 });
    await closing(
      await driver.entry({ cwd: place.cwd, home: place.home, env: place.env, sessionId: `${name}-run` }),
      async (host) => {
        const verdicts = [];
        // exactly the threshold: a call after the abort would be held for run to end the agent (the proxy)
        for (let index = 0; index < 3; index += 1) {
          verdicts.push(await host.call({ command: `rm -rf build${index}`, callId: `r${index}` }));
        }
        for (const verdict of verdicts) expect(verdict.behavior).toBe("deny");
        expect(verdicts.at(-1)?.text).toMatch(/abort|stop/i);
        expect(host.stops()).toBe(1);
      },
    );
    if (driver.underRun === "abort-marker") {
      const lines = readFileSync(join(place.runDirectory, "aborted"), "utf8").trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(runAbort(place.runDirectory)).toMatchObject({ hostEndsRun: true, reason: expect.stringMatching(/abort/) });
    } else {
      // the host ends the run itself (its own answer stops it); nothing of it can note an abort for `run`
      expect(() => readFileSync(join(place.runDirectory, "aborted"))).toThrow();
    }
  });
});
