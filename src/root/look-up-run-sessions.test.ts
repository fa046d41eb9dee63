import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeRecord } from "../../test/store/fixtures.js";
import { initialState } from "../core/initial-state.js";
import type { AuditEvent } from "../core/records.js";
import { openDrainedStore } from "../store/open-drained-store.js";
import { resolveStoreLocation } from "../store/resolve-store-location.js";
import { createSpool } from "../store/spool.js";
import { spoolDirectoryFor } from "../store/spool-directory-for.js";
import type { SpoolBatch } from "../store/spooled-denial-store.js";
import { lookUpRunSessions } from "./look-up-run-sessions.js";

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/** what a command hook leaves behind: an aborted session's state file, and its records and abort event spooled */
function hookLeftovers(database: string) {
  const home = mkdtempSync(join(tmpdir(), "toolgate-run-sessions-"));
  directories.push(home);
  const env = { HOME: home, TOOLGATE_DB: database };
  const state = {
    ...initialState({ sessionId: "s1", interactive: false, host: "claude-code" }),
    total: 2,
    aborted: { at: 1, tool: "Bash", reason: "rm denied 2 times" },
  };
  mkdirSync(join(home, ".toolgate", "state"), { recursive: true });
  writeFileSync(join(home, ".toolgate", "state", "s-s1.json"), JSON.stringify({ sessionId: "s1", version: 3, state }));
  const spool = createSpool<SpoolBatch>({
    directory: spoolDirectoryFor(resolveStoreLocation({ env, home }), { home }),
    prefix: "denials",
  });
  spool.append({ kind: "denials", records: [1, 2].map((seq) => makeRecord({ seq, sessionId: "s1" })) });
  const abort: AuditEvent = {
    kind: "run.aborted",
    sessionId: "s1",
    turn: 1,
    at: 2,
    detail: { error: "toolgate aborted the run: Bash was denied 2 times" },
  };
  spool.append({ kind: "events", events: [abort] });
  return { home, env };
}

describe("lookUpRunSessions: what `toolgate run` reports about its sessions", () => {
  it("reads the hooks' state files and drains their spool into the store first", async () => {
    const root = mkdtempSync(join(tmpdir(), "toolgate-run-db-"));
    directories.push(root);
    const { env } = hookLeftovers(join(root, "toolgate.db"));
    const found = await lookUpRunSessions(["s1"], { env });
    expect(found.records.map((record) => record.seq)).toEqual([1, 2]);
    expect(found.aborted?.reason).toBe("toolgate aborted the run: Bash was denied 2 times");
    const { store } = await openDrainedStore({ env });
    expect(await store.denials.query({ sessionId: "s1" })).toHaveLength(2);
    await store.close();
  });

  it("reads the spool itself when the store cannot be opened (TOOLGATE_DB is a directory)", async () => {
    const root = mkdtempSync(join(tmpdir(), "toolgate-run-db-"));
    directories.push(root);
    mkdirSync(join(root, "db"));
    const { env } = hookLeftovers(join(root, "db"));
    const found = await lookUpRunSessions(["s1"], { env });
    expect(found.records.map((record) => record.seq)).toEqual([1, 2]);
    expect(found.aborted?.reason).toBe("toolgate aborted the run: Bash was denied 2 times");
  });
});
