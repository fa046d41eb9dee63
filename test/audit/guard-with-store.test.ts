import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openAuditTrail } from "../../src/audit/open-audit-trail.js";
import { auditSchema } from "../../src/config/audit-schema.js";
import { createGuard } from "../../src/guard/create-guard.js";
import { createSqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { temporaryDirectory } from "../support/temporary-directory.js";

/**
 * The wiring a per-event host uses: each "process" opens the audit trail from env and config, makes a guard, handles
 * one event, drains and closes. Counts, records and per-turn hooks must come out as if it were one process.
 */
describe("guard + audit trail on a shared SQLite file", () => {
  it("counts across short-lived guards, stores every record, and flushes hooks at turn end", async () => {
    const home = temporaryDirectory("toolgate-trail-");
    const env = { TOOLGATE_DB: join(home, "toolgate.db") };
    const hookOut = join(home, "hook.jsonl");
    const config = {
      audit: auditSchema.parse({
        hooks: [{ command: `cat >> ${hookOut}` }],
        logs: { destination: join(home, "toolgate.log") },
      }),
      store: { spoolDirectory: join(home, "spool") },
    };
    const oneProcess = async (
      event: (session: ReturnType<ReturnType<typeof createGuard>["session"]>) => Promise<unknown>,
    ) => {
      const trail = await openAuditTrail({ ...config, env });
      const guard = createGuard({ stateStore: trail.stateStore, sinks: [trail.sink] });
      await event(guard.session("shared-session", { interactive: false, host: "claude-code" }));
      await guard.drain();
      await trail.close();
    };
    await oneProcess((session) => session.turnStarted());
    for (const command of ["rm -rf a", "rm -rf b", "git push --force"]) {
      await oneProcess((session) =>
        session.denied(
          { toolUseId: `toolu_${command}`, tool: "Bash", input: { command } },
          { source: "user", reason: "user said no" },
        ),
      );
    }
    expect(existsSync(hookOut)).toBe(false); // nothing before the turn ends
    await oneProcess((session) => session.turnEnded({ outcome: "error" }));
    const hooks = readFileSync(hookOut, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(hooks.map((payload) => payload.tool_input.command)).toEqual(["rm -rf a", "rm -rf b", "git push --force"]);
    await oneProcess((session) => session.end());

    const store = await createSqliteStore({ filename: env.TOOLGATE_DB });
    const state = await store.sessions.get("shared-session");
    expect((state!.state as { total: number }).total).toBe(3);
    expect((await store.denials.query({ sessionId: "shared-session" })).map((record) => record.seq)).toEqual([1, 2, 3]);
    expect((await store.denials.queryEvents({ kinds: ["session.summary"] })).length).toBe(1);
    await store.close();
    const log = readFileSync(join(home, "toolgate.log"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(log.filter((line) => line.event === "agent.permission.denied")).toHaveLength(3);
    expect(log.find((line) => line.event === "agent.session.summary")).toMatchObject({
      permissionDenialCount: 3,
      permissionDeniedTools: { Bash: 3 },
    });
  });
});

describe("audit trail with Postgres unreachable", () => {
  it("keeps state in the local SQLite file, spools records, and says so", async () => {
    const home = temporaryDirectory("toolgate-trail-");
    const errors: string[] = [];
    const trail = await openAuditTrail({
      env: { TOOLGATE_DATABASE_URL: "postgres://postgres@127.0.0.1:1/test", TOOLGATE_DB: join(home, "local.db") },
      store: { spoolDirectory: join(home, "spool") },
      audit: auditSchema.parse({ logs: { destination: "off" } }),
      onError: (_error, where) => errors.push(where),
    });
    expect(trail.location).toBe(`sqlite:${join(home, "local.db")}`);
    const guard = createGuard({ stateStore: trail.stateStore, sinks: [trail.sink] });
    const session = guard.session("offline", { interactive: false });
    await session.denied(
      { toolUseId: "toolu_1", tool: "Bash", input: { command: "ls" } },
      { source: "rule", reason: "no" },
    );
    await guard.drain();
    expect((await session.state()).total).toBe(1);
    expect(errors[0]).toContain("falls back to the local SQLite database");
    expect(errors).toContain("denial store");
    const spooled = readdirSync(join(home, "spool")).filter((name) => name.startsWith("denials-"));
    expect(spooled.length).toBeGreaterThan(0);
    await trail.close();
  });
});
