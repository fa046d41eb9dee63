import type { SessionState } from "../core/state.js";
import type { SessionStateStore, VersionedState } from "../store/ports.js";

/**
 * The in-process state store for hosts that run toolgate inside their own process (SDK wrappers, plugins,
 * the MCP proxy): the guard's default. Keeps at most `maxSessions` sessions and evicts the least recently used one.
 *
 * States are kept as JSON text, like the SQL stores keep them: what `get` returns and what `update` hands its
 * function are fresh copies, so a caller that changes a state it was given (or one it wrote) changes nothing stored,
 * and a state that would not survive SQLite or Postgres does not survive here either. The copies cost one
 * `JSON.stringify` and one `JSON.parse` of the state per update (a state is bounded by `recordBufferSize`). `update` runs its function
 * synchronously, so updates of one store never interleave. Passes the store contract suite
 * (test/store/memory-lru.test.ts).
 */
export function createLruStateStore<S = SessionState>(
  options: { maxSessions?: number } = {},
): SessionStateStore<S> & { readonly size: number } {
  const maxSessions = options.maxSessions ?? 10_000;
  const sessions = new Map<string, VersionedState<string>>();
  function touch(sessionId: string, value: VersionedState<string>): void {
    sessions.delete(sessionId);
    sessions.set(sessionId, value);
    while (sessions.size > maxSessions) {
      const oldest = sessions.keys().next().value as string;
      sessions.delete(oldest);
    }
  }
  return {
    get size() {
      return sessions.size;
    },
    async get(sessionId) {
      const stored = sessions.get(sessionId);
      if (stored === undefined) return undefined;
      touch(sessionId, stored);
      return { state: JSON.parse(stored.state) as S, version: stored.version };
    },
    async update(sessionId, fn) {
      const stored = sessions.get(sessionId);
      const next = fn(stored === undefined ? undefined : (JSON.parse(stored.state) as S));
      const version = (stored?.version ?? 0) + 1;
      touch(sessionId, { state: JSON.stringify(next), version });
      // `next` is the caller's own object: what is stored is the text, so nothing the caller does to it reaches here
      return { state: next, version };
    },
    async delete(sessionId) {
      sessions.delete(sessionId);
    },
    async close() {
      sessions.clear();
    },
  };
}
