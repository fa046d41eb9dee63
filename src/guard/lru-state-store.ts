import type { SessionState } from "../core/state.js";
import type { SessionStateStore, VersionedState } from "../store/ports.js";

/**
 * The in-process state store for hosts that run toolgate inside their own process (Agent SDK, opencode, AI SDK,
 * MCP proxy). Keeps at most `maxSessions` sessions and evicts the least recently used idle one. States are kept by
 * reference: the reducer never mutates a state it was given, so no copy is needed.
 */
export function createLruStateStore(options: { maxSessions?: number } = {}): SessionStateStore & {
  readonly size: number;
} {
  const maxSessions = options.maxSessions ?? 10_000;
  const sessions = new Map<string, VersionedState>();
  function touch(sessionId: string, value: VersionedState): void {
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
      const value = sessions.get(sessionId);
      if (value !== undefined) touch(sessionId, value);
      return value;
    },
    async update(sessionId, fn: (state: SessionState | undefined) => SessionState) {
      const current = sessions.get(sessionId);
      const next = { state: fn(current?.state), version: (current?.version ?? 0) + 1 };
      touch(sessionId, next);
      return next;
    },
    async delete(sessionId) {
      sessions.delete(sessionId);
    },
    async close() {
      sessions.clear();
    },
  };
}
