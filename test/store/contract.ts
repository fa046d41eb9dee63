import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DenialRecord } from "../../src/core/records.js";
import { computeReport } from "../../src/store/compute-report.js";
import type { SessionStateStore, Store } from "../../src/store/ports.js";
import { makeRecord, makeRecordWithoutIdentity, reportFixture } from "./fixtures.js";

interface CounterState {
  count: number;
  writers: string[];
}

/**
 * The one contract every store passes (memory, SQLite, Postgres). `create` returns a fresh, empty store each
 * time; the suite closes it.
 */
export function runStoreContract(options: { name: string; create: () => Promise<Store<unknown>> }): void {
  describe(`store contract: ${options.name}`, () => {
    let store: Store<unknown>;
    beforeEach(async () => {
      store = await options.create();
    });
    afterEach(async () => {
      await store.close();
    });

    describe("DenialStore", () => {
      it("round-trips every field of a record, in append order, with increasing ids", async () => {
        const first = makeRecord({ seq: 1, agentId: "agent-7", parentSessionId: "parent", decisionReasonType: "rule" });
        const second = makeRecord({ seq: 2, rule: undefined, labels: undefined, host: undefined, input: "plain" });
        await store.denials.append([first, second]);
        const rows = await store.denials.query();
        expect(rows.map(({ id, ...record }) => record)).toEqual([first, second]);
        expect(rows[0]!.id).toBeLessThan(rows[1]!.id);
        expect(Object.keys(rows[1]!)).not.toContain("rule");
      });

      it("ignores an empty batch and never duplicates a (session, seq) replayed by a spool", async () => {
        await store.denials.append([]);
        const records = [makeRecord({ seq: 1 }), makeRecord({ seq: 2 })];
        await store.denials.append(records);
        await store.denials.append([records[1]!, makeRecord({ seq: 3 })]);
        const rows = await store.denials.query();
        expect(rows.map((row) => row.seq)).toEqual([1, 2, 3]);
        const report = await store.denials.report();
        expect(report.total).toBe(3);
        expect(report.topSignatures[0]?.count).toBe(3);
      });

      it("keeps all records of two numbering epochs of one session, and still skips replays of either", async () => {
        // issue 12, class 2: the session's numbering restarted from 1 (state lost, or kept locally during an
        // outage); both epochs' records are real and must all be kept.
        const first = [1, 2, 3].map((seq) => makeRecord({ seq, toolUseId: `toolu_first_${seq}` }));
        const second = [1, 2, 3].map((seq) =>
          makeRecord({ seq, toolUseId: `toolu_second_${seq}`, at: Date.UTC(2026, 10, 20, 13, 0, seq) }),
        );
        await store.denials.append(first);
        await store.denials.append(second);
        await store.denials.append([...second, ...first]); // both replayed
        const rows = await store.denials.query();
        expect(rows.map((row) => row.toolUseId)).toEqual([...first, ...second].map((record) => record.toolUseId));
        expect((await store.denials.report()).total).toBe(6);
      });

      it("lists the session ids that start with a prefix (denials and events), in byte order, at most limit", async () => {
        const ids = ["3f2c9a1e-aaaa", "3f2c9a1e-bbbb", "3f2d0000", "3F2C9A1E-upper", "3f2c%_x", "3f2cé", "3f2cz"];
        await store.denials.append(ids.slice(0, 5).map((sessionId, seq) => makeRecord({ seq: seq + 1, sessionId })));
        await store.denials.appendEvents(
          ids.slice(5).map((sessionId, at) => ({ kind: "run.aborted", sessionId, turn: 1, at, detail: {} })),
        );
        await store.denials.append([makeRecord({ seq: 9, sessionId: "3f2c9a1e-aaaa" })]); // listed once
        expect(await store.denials.sessionIds({ prefix: "3f2c9a1e", limit: 10 })).toEqual([
          "3f2c9a1e-aaaa",
          "3f2c9a1e-bbbb",
        ]);
        // case-sensitive; LIKE's wildcards are plain characters; byte order puts é (0xC3) after z
        expect(await store.denials.sessionIds({ prefix: "3f2c", limit: 10 })).toEqual([
          "3f2c%_x",
          "3f2c9a1e-aaaa",
          "3f2c9a1e-bbbb",
          "3f2cz",
          "3f2cé",
        ]);
        expect(await store.denials.sessionIds({ prefix: "3f2c%", limit: 10 })).toEqual(["3f2c%_x"]);
        expect(await store.denials.sessionIds({ prefix: "3f2", limit: 2 })).toEqual(["3f2c%_x", "3f2c9a1e-aaaa"]);
        expect(await store.denials.sessionIds({ prefix: "3f2c9a1e-aaaa", limit: 10 })).toEqual(["3f2c9a1e-aaaa"]);
        expect(await store.denials.sessionIds({ prefix: "nope", limit: 10 })).toEqual([]);
      });

      it("stores a keyed audit event once however often its batch is delivered, unkeyed events every time", async () => {
        const keyed = { kind: "nudge.sent", sessionId: "s", turn: 1, at: 1, detail: {}, eventKey: "k-1" } as const;
        const unkeyed = { kind: "nudge.sent", sessionId: "s", turn: 1, at: 2, detail: {} } as const;
        await store.denials.appendEvents([keyed, unkeyed]);
        await store.denials.appendEvents([keyed, unkeyed]);
        const events = await store.denials.queryEvents();
        expect(events.map((event) => event.at)).toEqual([1, 2, 2]);
        expect(Object.keys(events[0]!)).not.toContain("eventKey");
      });

      it("accepts records and state carrying NUL characters and lone surrogates (never a poison batch)", async () => {
        const odd = "a\u0000b\ud800c";
        await store.denials.append([makeRecord({ seq: 1, reason: odd, inputSummary: odd, input: { [odd]: odd } })]);
        await store.denials.appendEvents([{ kind: "nudge.sent", sessionId: "s", turn: 1, at: 1, detail: { odd } }]);
        const [row] = await store.denials.query();
        expect(row?.reason.startsWith("a")).toBe(true);
        expect(row?.reason.endsWith("c")).toBe(true);
        expect(await store.denials.queryEvents()).toHaveLength(1);
        const saved = await store.sessions.update("odd", () => ({ text: odd }));
        expect(saved.version).toBe(1);
        expect(((await store.sessions.get("odd"))!.state as { text: string }).text.endsWith("c")).toBe(true);
      });

      it("filters by time window, session, tool and id, and orders and limits", async () => {
        const records = [
          makeRecord({ seq: 1, at: 1_000, tool: "Bash" }),
          makeRecord({ seq: 2, at: 2_000, tool: "Write" }),
          makeRecord({ seq: 3, at: 3_000, tool: "Bash" }),
          makeRecord({ seq: 1, at: 2_500, tool: "Bash", sessionId: "session-b" }),
        ];
        await store.denials.append(records);
        const seqs = (rows: DenialRecord[]) => rows.map((row) => `${row.sessionId}:${row.seq}`);
        expect(seqs(await store.denials.query({ since: 2_000, until: 3_000 }))).toEqual(["session-a:2", "session-b:1"]);
        expect(seqs(await store.denials.query({ sessionId: "session-b" }))).toEqual(["session-b:1"]);
        expect(seqs(await store.denials.query({ tool: "Bash", sessionId: "session-a" }))).toEqual([
          "session-a:1",
          "session-a:3",
        ]);
        const all = await store.denials.query();
        expect(seqs(await store.denials.query({ afterId: all[1]!.id }))).toEqual(["session-a:3", "session-b:1"]);
        expect(seqs(await store.denials.query({ order: "desc", limit: 2 }))).toEqual(["session-b:1", "session-a:3"]);
      });

      it("stores audit events and filters them by kind", async () => {
        const { events } = reportFixture();
        await store.denials.appendEvents(events);
        const loops = await store.denials.queryEvents({ kinds: ["loop.detected"] });
        expect(loops.map(({ id, ...event }) => event)).toEqual(
          events.filter((event) => event.kind === "loop.detected"),
        );
        expect(await store.denials.queryEvents({ sessionId: "s3" })).toHaveLength(1);
      });

      it("reports exactly what the reference computation reports", async () => {
        const { records, events } = reportFixture();
        await store.denials.append(records);
        await store.denials.appendEvents(events);
        const queries = [
          {},
          { top: 2 },
          { tool: "Bash" },
          { sessionId: "s2" },
          { since: records[4]!.at, until: records[9]!.at },
          { since: Date.UTC(2030, 0, 1) },
          // after year 9999 a day is written +010000-01-01, which sorts before every stored day (issue 26 problem 11)
          { since: Date.parse("+010000-01-01") },
          { until: Date.parse("+010000-01-01") },
        ];
        for (const query of queries) {
          expect(await store.denials.report(query), JSON.stringify(query)).toEqual(
            computeReport({ records, events, query }),
          );
        }
        expect((await store.denials.report({ since: Date.parse("+010000-01-01") })).total).toBe(0);
        expect((await store.denials.report({ until: Date.parse("+010000-01-01") })).total).toBe(10);
        const full = await store.denials.report();
        expect(full.total).toBe(10);
        expect(full.topTools[0]).toEqual({ tool: "shell", count: 5, hostTools: ["Bash"] });
        expect(full.incidents.map((incident) => incident.sessionId)).toEqual(["s2", "s3"]);
      });

      it("counts loops, waste and status as core/figures.ts defines them (issue 26 item 1)", async () => {
        // 8 identical denied calls and no verdict: a loop all the same; a verdict at two levels: one loop
        const repeated = Array.from({ length: 8 }, (_, index) =>
          makeRecord({ seq: index + 1, sessionId: "host-loop", signature: "sig-sh", pattern: "sh" }),
        );
        const verdicts = [1, 2].map((seq) =>
          makeRecord({ seq, sessionId: "verdict", source: seq === 2 ? "loop" : "rule" }),
        );
        const at = repeated[0]!.at;
        await store.denials.append([...repeated, ...verdicts]);
        await store.denials.appendEvents(
          ["observe", "steer"].map((level, index) => ({
            kind: "loop.detected" as const,
            sessionId: "verdict",
            turn: 1,
            at: at + index,
            tool: "Bash",
            detail: { kind: "identical-call", repeats: 3 + index, level },
          })),
        );
        const report = await store.denials.report();
        expect(report.figures).toEqual({
          sessions: 2,
          denials: 10,
          loops: 2,
          sessionsWithLoops: 2,
          wastedCalls: 8,
          wastedTokens: null,
          savedCalls: 1,
          status: { clean: 0, looped: 2, aborted: 0, "blocked-required-call": 0 },
        });
        expect(report.incidents).toEqual([
          { sessionId: "host-loop", loops: 1, aborts: 0, denials: 8, status: "looped" },
          { sessionId: "verdict", loops: 1, aborts: 0, denials: 2, status: "looped" },
        ]);
      });

      it("wasted tokens a live hook summed from its transcript: tokens from its summary, calls from the denials", async () => {
        // three denials of one pattern (two wasted) and the hook's session summary at the session's end
        const denied = Array.from({ length: 3 }, (_, index) =>
          makeRecord({ seq: index + 1, sessionId: "hooked", signature: `sig-${index}`, pattern: "rm" }),
        );
        await store.denials.append([...denied, makeRecord({ seq: 1, sessionId: "untold", pattern: "ls" })]);
        await store.denials.appendEvents([
          {
            kind: "session.summary",
            sessionId: "hooked",
            turn: 1,
            at: denied[2]!.at + 1,
            detail: { permissionDenialCount: 3, permissionDeniedTools: { Bash: 3 }, grants: 0, wastedTokens: 240 },
          },
        ]);
        const report = await store.denials.report();
        expect(report.figures).toMatchObject({ sessions: 2, denials: 4, wastedCalls: 2, wastedTokens: 240 });
      });

      it("scrubs stored rows with the current redaction and reports how many changed", async () => {
        await store.denials.append([
          makeRecord({ seq: 1, inputSummary: "curl -H 'token: sk-live-123'", input: { command: "sk-live-123" } }),
          makeRecord({ seq: 2, inputSummary: "ls", input: { command: "ls" } }),
        ]);
        const redact = (record: DenialRecord): DenialRecord => ({
          ...record,
          inputSummary: record.inputSummary.replaceAll("sk-live-123", "[REDACTED]"),
          reason: record.reason.replaceAll("sk-live-123", "[REDACTED]"),
          input: JSON.parse(JSON.stringify(record.input).replaceAll("sk-live-123", "[REDACTED]")),
        });
        expect(await store.denials.scrub(redact)).toBe(1);
        expect(await store.denials.scrub(redact)).toBe(0);
        const rows = await store.denials.query();
        expect(JSON.stringify(rows)).not.toContain("sk-live-123");
        expect(rows[0]!.input).toEqual({ command: "[REDACTED]" });
      });

      it("scrubs stored session descriptions (project, first prompt line) and reports how many changed", async () => {
        const info = (sessionId: string, firstPrompt: string) =>
          ({
            kind: "session.info",
            sessionId,
            turn: 1,
            at: 1_000,
            detail: { project: `/work/${sessionId}`, firstPrompt },
          }) as const;
        // more sessions than one chunk of the engines' keyset walk (500)
        const many = Array.from({ length: 1_200 }, (_, index) => info(`s-${String(index).padStart(4, "0")}`, "ls"));
        await store.denials.appendEvents([...many, info("leaky", "use sk-live-123 to deploy"), info("other", "fine")]);
        const redactText = (text: string) => text.replaceAll("sk-live-123", "[REDACTED]");
        expect(await store.denials.scrubSessionInfo(redactText)).toBe(1);
        expect(await store.denials.scrubSessionInfo(redactText)).toBe(0);
        expect(await store.denials.sessionInfo(["leaky", "other", "s-1199"])).toEqual([
          { sessionId: "leaky", project: "/work/leaky", firstPrompt: "use [REDACTED] to deploy", at: 1_000 },
          { sessionId: "other", project: "/work/other", firstPrompt: "fine", at: 1_000 },
          { sessionId: "s-1199", project: "/work/s-1199", firstPrompt: "ls", at: 1_000 },
        ]);
        // every row is visited, the last chunk's too
        expect(await store.denials.scrubSessionInfo((text) => text.replace(/^ls$/, "[ls]"))).toBe(1_200);
      });

      it("stores each record's canonical tool and family, filling them from the tool table when a record has none", async () => {
        await store.denials.append([
          makeRecord({ seq: 1, tool: "run_shell_command" }),
          makeRecordWithoutIdentity({ seq: 2, tool: "exec_command" }),
          makeRecordWithoutIdentity({ seq: 3, tool: "mcp__github__create_issue" }),
          makeRecordWithoutIdentity({ seq: 4, tool: "my_tool" }),
        ]);
        const rows = await store.denials.query();
        expect(rows.map((row) => [row.tool, row.canonicalTool, row.toolFamily])).toEqual([
          ["run_shell_command", "shell", "shell"],
          ["exec_command", "shell", "shell"],
          ["mcp__github__create_issue", "mcp_github_create_issue", "mcp"],
          ["my_tool", "my_tool", "other"],
        ]);
      });

      it("groups one tool across hosts: one shell row naming each host's tool, and a tool filter matches every host", async () => {
        const day = 86_400_000;
        const start = Date.UTC(2026, 10, 10, 12);
        const plan: [string, string, number][] = [
          ["Bash", "claude", 0],
          ["bash", "opencode", 0],
          ["exec_command", "codex", 1],
          ["run_shell_command", "gemini", 1],
          ["run_shell_command", "qwen", 2],
          ["Read", "claude", 2],
          ["read_file", "gemini", 3],
          ["mcp__github__create_issue", "claude", 3],
          ["mcp_github_create_issue", "gemini", 4],
        ];
        const records = plan.map(([tool, host, offset], index) =>
          makeRecord({
            seq: index + 1,
            sessionId: host,
            tool,
            host,
            at: start + offset * day + index,
            signature: `${tool}:rm`,
          }),
        );
        await store.denials.append(records);
        const full = await store.denials.report();
        expect(full.topTools).toEqual([
          { tool: "shell", count: 5, hostTools: ["Bash", "bash", "exec_command", "run_shell_command"] },
          {
            tool: "mcp_github_create_issue",
            count: 2,
            hostTools: ["mcp__github__create_issue", "mcp_github_create_issue"],
          },
          { tool: "read", count: 2, hostTools: ["Read", "read_file"] },
        ]);
        expect(full.topPatterns.map((pattern) => [pattern.tool, pattern.count])).toContainEqual(["shell", 5]);
        // whole days come from the daily rollups, edge days from the rows: both group and filter canonically
        const windows = [
          {},
          { since: start - day, until: start + 6 * day },
          { since: start + 1, until: start + 3 * day + 5 },
        ];
        for (const window of windows) {
          for (const tool of [undefined, "shell", "exec_command", "BASH", "mcp__github__create_issue"]) {
            const query = { ...window, ...(tool === undefined ? {} : { tool }) };
            expect(await store.denials.report(query), JSON.stringify(query)).toEqual(
              computeReport({ records, events: [], query }),
            );
          }
        }
        expect((await store.denials.report({ tool: "shell" })).total).toBe(5);
        expect((await store.denials.report({ tool: "exec_command" })).total).toBe(5);
        expect((await store.denials.query({ tool: "shell" })).map((row) => row.host)).toEqual([
          "claude",
          "opencode",
          "codex",
          "gemini",
          "qwen",
        ]);
        await store.denials.prune(start + 2 * day); // the cut day's rollups are recounted from the rows
        expect((await store.denials.report({ tool: "shell" })).topTools).toEqual([
          { tool: "shell", count: 1, hostTools: ["run_shell_command"] },
        ]);
      });

      it("keeps one description per session from session.info events: the first of each fact wins (issue 26 item 3)", async () => {
        const info = (at: number, detail: Record<string, unknown>, sessionId = "described") =>
          ({ kind: "session.info", sessionId, turn: 1, at, detail }) as const;
        await store.denials.appendEvents([
          info(2_000, { project: "/work/alpha" }),
          { kind: "nudge.sent", sessionId: "described", turn: 1, at: 2_500, detail: {} },
        ]);
        await store.denials.appendEvents([
          info(3_000, { project: "/work/other", firstPrompt: "fix the \u202e build" }),
          info(1_000, { firstPrompt: "a second prompt never replaces the first" }),
          info(4_000, { project: "/p" }, "second"),
          info(5_000, {}, "empty"),
        ]);
        expect(await store.denials.sessionInfo(["second", "described", "absent", "empty", "described"])).toEqual([
          { sessionId: "described", project: "/work/alpha", firstPrompt: "fix the \u202e build", at: 1_000 },
          { sessionId: "second", project: "/p", firstPrompt: null, at: 4_000 },
        ]);
        expect(await store.denials.sessionInfo([])).toEqual([]);
        // stored as the session's description, not as an event
        expect((await store.denials.queryEvents()).map((event) => event.kind)).toEqual(["nudge.sent"]);
        await store.denials.prune(2_000);
        expect((await store.denials.sessionInfo(["described", "second"])).map((row) => row.sessionId)).toEqual([
          "second",
        ]);
      });

      it("prunes records and events older than a time", async () => {
        await store.denials.append([makeRecord({ seq: 1, at: 1_000 }), makeRecord({ seq: 2, at: 5_000 })]);
        await store.denials.appendEvents([
          { kind: "nudge.sent", sessionId: "session-a", turn: 1, at: 1_000, detail: {} },
          { kind: "nudge.sent", sessionId: "session-a", turn: 1, at: 6_000, detail: {} },
        ]);
        expect(await store.denials.prune(5_000)).toEqual({ denials: 1, events: 1 });
        expect((await store.denials.query()).map((row) => row.seq)).toEqual([2]);
        expect((await store.denials.report()).total).toBe(1);
      });

      it("keeps reports exact after pruning in the middle of a day", async () => {
        const { records, events } = reportFixture();
        await store.denials.append(records);
        await store.denials.appendEvents(events);
        const cut = records[5]!.at + 1; // mid-day, inside the last day of the fixture
        await store.denials.prune(cut);
        const kept = records.filter((record) => record.at >= cut);
        const keptEvents = events.filter((event) => event.at >= cut);
        for (const query of [{}, { since: Date.UTC(2026, 0, 1) }, { tool: "WebFetch" }]) {
          expect(await store.denials.report(query)).toEqual(
            computeReport({ records: kept, events: keptEvents, query }),
          );
        }
        await store.denials.append([makeRecord({ seq: 99, sessionId: "late", at: cut + 10 })]);
        expect((await store.denials.report()).total).toBe(kept.length + 1);
      });
    });

    runSessionStateContract(() => store.sessions);
  });
}

/**
 * The SessionStateStore half of the contract, on its own for stores that keep only session state (the in-process
 * LRU store). `sessions` returns the store under test; the caller creates and closes it around each test.
 */
export function runSessionStateContract(sessions: () => SessionStateStore<unknown>): void {
  describe("SessionStateStore", () => {
    const increment =
      (writer: string) =>
      (state: unknown): CounterState => {
        const previous = (state as CounterState | undefined) ?? { count: 0, writers: [] };
        return { count: previous.count + 1, writers: [...previous.writers, writer] };
      };

    it("creates at version 1, bumps the version per update, and hands fn the previous state", async () => {
      expect(await sessions().get("s")).toBeUndefined();
      const seen: unknown[] = [];
      const first = await sessions().update("s", (state) => {
        seen.push(state);
        return increment("a")(state);
      });
      expect(first).toEqual({ state: { count: 1, writers: ["a"] }, version: 1 });
      const second = await sessions().update("s", (state) => {
        seen.push(state);
        return increment("b")(state);
      });
      expect(second).toEqual({ state: { count: 2, writers: ["a", "b"] }, version: 2 });
      expect(seen).toEqual([undefined, { count: 1, writers: ["a"] }]);
      expect(await sessions().get("s")).toEqual(second);
      expect(await sessions().get("other")).toBeUndefined();
    });

    it("leaves the state unchanged when fn throws", async () => {
      await sessions().update("s", increment("a"));
      await expect(
        sessions().update("s", () => {
          throw new Error("reducer failed");
        }),
      ).rejects.toThrow("reducer failed");
      expect(await sessions().get("s")).toEqual({ state: { count: 1, writers: ["a"] }, version: 1 });
    });

    it("serialises concurrent updates without losing one", async () => {
      await Promise.all(Array.from({ length: 50 }, (_, index) => sessions().update("s", increment(`w${index}`))));
      const result = await sessions().get("s");
      expect(result?.version).toBe(50);
      const state = result!.state as CounterState;
      expect(state.count).toBe(50);
      expect(new Set(state.writers).size).toBe(50);
    });

    it("keeps its own copy: changing a state it handed out or was handed changes nothing stored", async () => {
      const written: CounterState = { count: 1, writers: ["a"] };
      const returned = await sessions().update("s", () => written);
      written.writers.push("changed after update");
      (returned.state as CounterState).writers.push("changed the returned state");
      const read = await sessions().get("s");
      (read!.state as CounterState).count = 99;
      await expect(
        sessions().update("s", (state) => {
          (state as CounterState).count = 42; // a reducer that changes its input, then fails
          throw new Error("reducer failed");
        }),
      ).rejects.toThrow("reducer failed");
      expect(await sessions().get("s")).toEqual({ state: { count: 1, writers: ["a"] }, version: 1 });
    });

    it("deletes a session and starts over at version 1", async () => {
      await sessions().update("s", increment("a"));
      await sessions().delete("s");
      await sessions().delete("never-existed");
      expect(await sessions().get("s")).toBeUndefined();
      expect((await sessions().update("s", increment("b"))).version).toBe(1);
    });
  });
}
