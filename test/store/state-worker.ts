/**
 * Child-process worker for the concurrency tests: opens the store named by argv and does N read-modify-write
 * updates of one session, then reports to the parent. argv: engine (sqlite|postgres|file), location (file, URL, or
 * the state directory of the file store),
 * session id, iterations, worker name, [schema], [durable|fast], [connections: concurrent workers in this process,
 * each with its own connection and name `<name>.<k>`, default 1]. With TOOLGATE_WORKER_MODE=step each update is the
 * core's `step` with a `call.denied` event (the total is the core's `state.total`); otherwise a plain counter.
 */
import { compileCoreConfig } from "../../src/core/compile-config.js";
import { initialState } from "../../src/core/initial-state.js";
import type { SessionState } from "../../src/core/state.js";
import { step } from "../../src/core/step.js";
import { defaultPorts } from "../../src/guard/default-ports.js";
import type { Store } from "../../src/store/ports.js";

const [engine, location, sessionId, iterations, name, schema, durability, connections] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string | undefined,
  string | undefined,
  string | undefined,
];

interface Counter {
  count: number;
  perWorker: Record<string, number>;
}

async function open(): Promise<Store<Counter>> {
  if (engine === "file") {
    const { createFileSessionStateStore } = await import("../../src/store/file/file-session-state-store.js");
    const { createMemoryDenialStore } = await import("../../src/store/memory-store.js");
    // exactness under contention is what these workers test, not the budget: wait as long as it takes
    const lockWaitMs = Number(process.env.TOOLGATE_WORKER_LOCK_WAIT_MS ?? 60_000);
    const sessions = createFileSessionStateStore<Counter>({ directory: location, lockWaitMs });
    return { location, sessions, denials: createMemoryDenialStore(), close: () => sessions.close() };
  }
  if (engine === "sqlite") {
    const { createSqliteStore } = await import("../../src/store/sqlite/sqlite-store.js");
    // exactness under contention is what these workers test, not the lock budget: wait as long as it takes
    return createSqliteStore<Counter>({ filename: location, busyTimeoutMs: 60_000 });
  }
  const { createPostgresStore } = await import("../../src/store/postgres/postgres-store.js");
  return createPostgresStore<Counter>({
    connectionString: location,
    schema,
    poolSize: 1,
    durableState: durability !== "fast",
  });
}

const store = await open();
if (process.env.TOOLGATE_WORKER_MODE === "step") {
  const config = compileCoreConfig({ ports: defaultPorts() });
  const stateStore = store.sessions as unknown as Store<SessionState>["sessions"];
  for (let index = 0; index < Number(iterations); index++) {
    await stateStore.update(sessionId, (state) => {
      const current = state ?? initialState({ sessionId, interactive: false });
      const call = { toolUseId: `${name}-${index}`, tool: "Bash", input: { command: `rm -rf /tmp/${name}/${index}` } };
      const event = {
        type: "call.denied",
        at: 1_700_000_000_000 + index,
        sessionId,
        call,
        source: "rule",
        reason: "no",
      } as const;
      return step(current, event, config).state;
    });
  }
  await store.close();
  process.send?.({ done: name });
  process.exit(0);
}
async function count(workerStore: Store<Counter>, worker: string): Promise<void> {
  for (let index = 0; index < Number(iterations); index++) {
    await workerStore.sessions.update(sessionId, (state) => {
      const previous = state ?? { count: 0, perWorker: {} };
      return {
        count: previous.count + 1,
        perWorker: { ...previous.perWorker, [worker]: (previous.perWorker[worker] ?? 0) + 1 },
      };
    });
  }
}
const extra = await Promise.all(Array.from({ length: Number(connections ?? 1) - 1 }, () => open()));
await Promise.all([store, ...extra].map((workerStore, k) => count(workerStore, connections ? `${name}.${k}` : name)));
for (const workerStore of extra) await workerStore.close();
await store.close();
process.send?.({ done: name });
