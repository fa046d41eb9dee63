import { type AuditEvent, type DenialRecord, withToolIdentity } from "../../src/core/records.js";

/** A realistic, already-redacted denial record, with its tool identity as the reducer sets it; override what a test needs. */
export function makeRecord(overrides: Partial<DenialRecord> & { seq: number }): DenialRecord {
  return withToolIdentity(makeRecordWithoutIdentity(overrides));
}

/** A record as a host or an older toolgate made it: no canonical tool or family (stores fill them). */
export function makeRecordWithoutIdentity(overrides: Partial<DenialRecord> & { seq: number }): DenialRecord {
  const at = overrides.at ?? Date.UTC(2026, 10, 20, 12, 0, 0) + overrides.seq * 1000;
  return {
    sessionId: "session-a",
    turn: 1,
    tool: "Bash",
    toolUseId: `toolu_${overrides.sessionId ?? "session-a"}_${overrides.seq}`,
    source: "rule",
    reason: "Denied by rule Bash(rm *)",
    rule: "Bash(rm *)",
    signature: "sig-rm",
    pattern: "rm",
    inputSummary: "rm -rf build",
    input: { command: "rm -rf build", description: "clean", nested: { list: [1, "two", null, true] } },
    timestamp: new Date(at).toISOString(),
    host: "claude-code",
    labels: { workflow: "ci", repository: "acme/app" },
    ...overrides,
    at,
  };
}

/** 3 sessions, 3 tools, 3 days, with loops and an abort: enough for every report section. */
export function reportFixture(): { records: DenialRecord[]; events: AuditEvent[] } {
  const day = 86_400_000;
  const start = Date.UTC(2026, 10, 18, 10, 0, 0);
  const records: DenialRecord[] = [];
  const plan: [string, string, string, number][] = [
    ["s1", "Bash", "sig-rm", 0],
    ["s1", "Bash", "sig-rm", 0],
    ["s1", "Bash", "sig-curl", 1],
    ["s1", "Write", "sig-write-env", 1],
    ["s2", "Bash", "sig-rm", 1],
    ["s2", "WebFetch", "sig-fetch", 2],
    ["s2", "WebFetch", "sig-fetch", 2],
    ["s2", "WebFetch", "sig-fetch", 2],
    ["s3", "Write", "sig-write-env", 2],
    ["s3", "Bash", "sig-curl", 2],
  ];
  const seqs = new Map<string, number>();
  for (const [index, [sessionId, tool, signature, dayOffset]] of plan.entries()) {
    const seq = (seqs.get(sessionId) ?? 0) + 1;
    seqs.set(sessionId, seq);
    records.push(
      makeRecord({
        seq,
        sessionId,
        tool,
        signature,
        pattern: signature.replace("sig-", ""),
        inputSummary: `${tool} ${signature}`,
        input: { summary: `${tool} ${signature}` },
        at: start + dayOffset * day + index * 60_000,
      }),
    );
  }
  const events: AuditEvent[] = [
    {
      kind: "loop.detected",
      sessionId: "s2",
      turn: 1,
      at: start + 2 * day,
      tool: "WebFetch",
      detail: { level: "steer" },
    },
    { kind: "loop.detected", sessionId: "s2", turn: 1, at: start + 2 * day + 1, tool: "WebFetch", detail: {} },
    {
      kind: "run.aborted",
      sessionId: "s3",
      turn: 1,
      at: start + 2 * day + 5,
      tool: "Bash",
      detail: { reason: "denials" },
    },
    { kind: "nudge.sent", sessionId: "s1", turn: 1, at: start, detail: {} },
  ];
  return { records, events };
}
