import type { AuditEvent, DenialRecord } from "../../src/core/records.js";
import { makeRecord } from "../store/fixtures.js";

/**
 * The sessions of issue 26's one-truth store that the hooks recorded (what toolgate itself did while the agents
 * ran), beside what `toolgate analyze --save` reads from test/fixtures/transcripts: one host loop, one verdict loop
 * at two levels, an abort, an escalation nobody granted, and a clean session. Shared by test/cli/one-truth.test.ts
 * and the browser walk in test/e2e/dashboard/one-truth.test.ts.
 */
export function hookSessions(): { records: DenialRecord[]; events: AuditEvent[] } {
  const at = Date.UTC(2026, 10, 20, 12);
  const records: DenialRecord[] = [];
  const add = (sessionId: string, count: number, extra: Partial<DenialRecord> = {}) => {
    const start = records.filter((record) => record.sessionId === sessionId).length;
    for (let index = 0; index < count; index += 1)
      records.push(makeRecord({ seq: start + index + 1, sessionId, at: at + records.length * 1000, ...extra }));
  };
  add("hook-host-loop", 8, { signature: "sig-sh", pattern: "sh" });
  add("hook-verdict", 3, { signature: "sig-curl", pattern: "curl" });
  add("hook-verdict", 2, { signature: "sig-curl", pattern: "curl", source: "loop" });
  add("hook-aborted", 2, { signature: "sig-push", pattern: "git push" });
  add("hook-aborted", 1, { signature: "sig-push", pattern: "git push", source: "aborted" });
  add("hook-blocked", 2, { signature: "sig-rm", pattern: "rm" });
  add("hook-clean", 1, { signature: "sig-ls", pattern: "ls" });
  const event = (sessionId: string, kind: AuditEvent["kind"], detail: Record<string, unknown>, offset: number) => ({
    kind,
    sessionId,
    turn: 1,
    at: at + 60_000 + offset,
    tool: "Bash",
    detail,
  });
  const events: AuditEvent[] = [
    event("hook-verdict", "loop.detected", { kind: "identical-call", repeats: 3, level: "observe" }, 1),
    event("hook-verdict", "loop.detected", { kind: "identical-call", repeats: 4, level: "steer" }, 2),
    event("hook-aborted", "run.aborted", { reason: "loop", error: "stopped" }, 3),
    event("hook-blocked", "escalation.reached", { pattern: "rm", count: 2 }, 4),
    // the hook read its host's transcript at the session's end: the tokens of its 7 wasted calls (core/call-tokens.ts)
    event("hook-host-loop", "session.summary", { permissionDenialCount: 8, grants: 0, wastedTokens: 700 }, 5),
  ];
  return { records, events };
}
