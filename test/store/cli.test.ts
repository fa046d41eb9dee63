import { spawnSync } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { beforeAll, describe, expect, it } from "vitest";
import { EXIT } from "../../src/cli/exit-codes.js";
import { computeReport } from "../../src/store/compute-report.js";
import { createSpool } from "../../src/store/spool.js";
import { spoolDirectoryFor } from "../../src/store/spool-directory-for.js";
import type { SpoolBatch } from "../../src/store/spooled-denial-store.js";
import { createSqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { temporaryDirectory } from "../support/temporary-directory.js";
import { makeRecord, reportFixture } from "./fixtures.js";
import { describePostgres } from "./postgres-test-database.js";

/** The store commands, run as a user would: the built CLI against a SQLite file chosen by TOOLGATE_DB. */
const main = join(import.meta.dirname, "../../dist/cli/main.js");
const secret = "ghp_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6";
let database: string;

function toolgate(args: string[], env: Record<string, string> = {}) {
  const home = temporaryDirectory("toolgate-home-");
  const result = spawnSync(process.execPath, [main, ...args], {
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", HOME: home, TOOLGATE_DB: database, ...env },
    cwd: home,
    timeout: 20_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(async () => {
  database = join(temporaryDirectory("toolgate-cli-"), "toolgate.db");
  const store = await createSqliteStore({ filename: database });
  const { records, events } = reportFixture();
  await store.denials.append(records);
  await store.denials.appendEvents(events);
  await store.close();
});

describe("toolgate report / tail / scrub / prune", () => {
  it("report --json returns the store's aggregates plus a minimal allow rule per top signature", () => {
    const result = toolgate(["report", "--since", "2026-01-01", "--json"]);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(EXIT.ok);
    const report = JSON.parse(result.stdout);
    const { records, events } = reportFixture();
    const expected = computeReport({ records, events, query: { since: Date.parse("2026-01-01") } });
    expect(report).toMatchObject(expected);
    expect(report.suggestedRules).toHaveLength(expected.topSignatures.length);
    expect(report.suggestedRules[0]).toMatchObject({ tool: "WebFetch", count: 3 });
    // the fixture's deny rule refused every call: an allow rule would change nothing, so none is suggested
    expect(report.suggestedRules[0]).toMatchObject({ rule: null, language: null });
    expect(report.suggestedRules[0].why).toContain("deny rule");
  });

  it("report prints the sections for people, filtered by tool", () => {
    const result = toolgate(["report", "--since", "2026-01-01", "--tool", "Bash"]);
    expect(result.status).toBe(EXIT.ok);
    expect(result.stdout).toContain("5 denials in 3 sessions");
    for (const heading of [
      "Top tools",
      "Most-denied patterns",
      "Sessions with loops, aborts or blocked calls",
      "Denials per day (UTC)",
    ])
      expect(result.stdout).toContain(heading);
    // every fixture denial came from the deny rule Bash(rm *): no allow rule would help, so none is offered
    expect(result.stdout).toContain("Bash(rm *) denied 3: a deny rule wins over any allow rule");
    expect(result.stdout).not.toContain("allow rule:");
    expect(result.stdout).not.toContain("WebFetch");
  });

  it("tail prints the latest denials oldest first", () => {
    const result = toolgate(["tail", "--lines", "2", "--no-follow", "--json"]);
    expect(result.status).toBe(EXIT.ok);
    const rows = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(rows.map((row) => `${row.sessionId}:${row.seq}`)).toEqual(["s3:1", "s3:2"]);
  });

  it("tail --no-follow says so when nothing matches, instead of printing nothing", () => {
    const result = toolgate(["tail", "--no-follow", "--tool", "NoSuchTool"]);
    expect(result.status).toBe(EXIT.ok);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^toolgate tail: no denials recorded for tool NoSuchTool in .+\n$/);
    expect(result.stderr).toContain(database);
  });

  it("rejects bad input with a sentence and exit 2, and a corrupt database with exit 7 naming the file", () => {
    const bad = toolgate(["report", "--since", "soon"]);
    expect(bad.status).toBe(EXIT.usage);
    expect(bad.stderr).toContain("--since takes a duration");
    expect(bad.stderr).not.toContain("    at ");
    expect(toolgate(["prune"]).status).toBe(EXIT.usage);
    const corrupt = join(temporaryDirectory("toolgate-cli-"), "broken.db");
    writeFileSync(corrupt, "garbage ".repeat(1000));
    const broken = toolgate(["report"], { TOOLGATE_DB: corrupt });
    expect(broken.status).toBe(EXIT.store);
    expect(broken.stderr).toContain(corrupt);
    expect(broken.stderr).toContain("Move it aside");
  });

  it("scrub re-redacts stored rows; prune deletes old ones", async () => {
    const store = await createSqliteStore({ filename: database });
    await store.denials.append([
      makeRecord({
        seq: 1,
        sessionId: "leaky",
        inputSummary: `git push https://${secret}@github.com`,
        input: { command: secret },
      }),
    ]);
    // a description stored before the pattern that catches its key (an older toolgate, a pattern added since)
    await store.denials.appendEvents([
      {
        kind: "session.info",
        sessionId: "leaky",
        turn: 1,
        at: Date.now(),
        detail: { project: "/work/app", firstPrompt: `deploy with token ${secret} please` },
      },
    ]);
    await store.close();
    const scrub = toolgate(["scrub", "--json"]);
    expect(scrub.status).toBe(EXIT.ok);
    expect(JSON.parse(scrub.stdout)).toMatchObject({ changed: 1, sessions: 1 });
    const reopened = await createSqliteStore({ filename: database });
    const [described] = await reopened.denials.sessionInfo(["leaky"]);
    await reopened.close();
    expect(described?.project).toBe("/work/app");
    expect(described?.firstPrompt).toMatch(/^deploy with token \S+ please$/);
    expect(described?.firstPrompt).not.toContain(secret);
    expect(toolgate(["tail", "--lines", "100", "--no-follow", "--json"]).stdout).not.toContain(secret);
    expect(JSON.parse(toolgate(["scrub", "--json"]).stdout)).toMatchObject({ changed: 0, sessions: 0 });
    const prune = toolgate(["prune", "--older-than", "1d", "--json"]);
    expect(prune.status).toBe(EXIT.ok);
    expect(JSON.parse(prune.stdout)).toMatchObject({ denials: 11, events: 4 });
    expect(JSON.parse(toolgate(["report", "--since", "2000-01-01", "--json"]).stdout).total).toBe(0);
  });
});

describe("--session takes the start of an id, as the commands' help shows (issue 25, item 14)", () => {
  const first = "3f2c9a1e-0b7d-4c2a-9e11-6d0f3b2a7c55";
  const second = "3f2c9a1e-77aa-4b1c-8d2e-0a1b2c3d4e5f";
  const third = "b81d4fae-7dec-41d0-a765-00a0c91e6bf6";
  let sessions: string;
  const run = (args: string[]) => toolgate(args, { TOOLGATE_DB: sessions });
  beforeAll(async () => {
    sessions = join(temporaryDirectory("toolgate-cli-prefix-"), "toolgate.db");
    const store = await createSqliteStore({ filename: sessions });
    await store.denials.append([
      makeRecord({ seq: 1, sessionId: first }),
      makeRecord({ seq: 2, sessionId: first }),
      makeRecord({ seq: 1, sessionId: second }),
      makeRecord({ seq: 1, sessionId: third }),
    ]);
    await store.close();
  });

  it("report and tail resolve a unique prefix to its session", () => {
    const report = run(["report", "--since", "2026-01-01", "--session", "b81d4fae", "--json"]);
    expect(report.stderr).toBe("");
    expect(report.status).toBe(EXIT.ok);
    expect(JSON.parse(report.stdout)).toMatchObject({ total: 1, window: { sessionId: third } });
    const text = run(["report", "--since", "2026-01-01", "--session", "b81d"]);
    expect(text.stdout).toContain(`1 denial in 1 session (since 2026-01-01 00:00 UTC, session ${third};`);
    const tail = run(["tail", "--no-follow", "--json", "--session", "3f2c9a1e-0b"]);
    expect(tail.status).toBe(EXIT.ok);
    const lines = tail.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.sessionId)).toEqual([first, first]);
  });

  it("a full id is taken as it is, even when it is the start of another", () => {
    const report = run(["report", "--since", "2026-01-01", "--session", first, "--json"]);
    expect(JSON.parse(report.stdout)).toMatchObject({ total: 2, window: { sessionId: first } });
  });

  it("refuses a prefix of several sessions with exit 2, naming them, instead of summing them", () => {
    for (const command of [["report"], ["tail", "--no-follow"]]) {
      const result = run([...command, "--session", "3f2c9a1e"]);
      expect(result.status).toBe(EXIT.usage);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain(
        `--session 3f2c9a1e matches 2 sessions (${first}, ${second}): give more of the id.`,
      );
    }
  });

  it("a value no session starts with finds nothing, and tail says so", () => {
    const result = run(["tail", "--no-follow", "--session", "ffff"]);
    expect(result.status).toBe(EXIT.ok);
    expect(result.stderr).toMatch(/^toolgate tail: no denials recorded for session ffff in /);
  });
});

describe("toolgate scrub with the config's redaction section", () => {
  it("applies the configured extra patterns to stored rows", async () => {
    const store = await createSqliteStore({ filename: database });
    await store.denials.append([
      makeRecord({
        seq: 1,
        sessionId: "ticket",
        inputSummary: "cat ACME-123456",
        input: { command: "cat ACME-123456" },
      }),
    ]);
    await store.close();
    const home = temporaryDirectory("toolgate-home-");
    writeFileSync(
      join(home, "toolgate.config.json"),
      JSON.stringify({ redaction: { patterns: [{ kind: "internal-id", pattern: "ACME-[0-9]{6}" }] } }),
    );
    const result = spawnSync(process.execPath, [main, "scrub", "--json"], {
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", HOME: home, TOOLGATE_DB: database },
      cwd: home,
    });
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout).changed).toBe(1);
    const after = await createSqliteStore({ filename: database });
    const [row] = await after.denials.query({ sessionId: "ticket" });
    await after.close();
    expect(JSON.stringify(row)).not.toContain("ACME-123456");
    expect(row?.inputSummary).toContain("[REDACTED:internal-id");
  });
});

describe("spooled records reach the store", () => {
  it("report replays the spool left by an outage before reading", async () => {
    const home = temporaryDirectory("toolgate-home-");
    const spooled = makeRecord({ seq: 1, sessionId: "from-spool", at: Date.now() });
    // the spool of this store (TOOLGATE_DB names a file other than the default: a directory of its own)
    const directory = spoolDirectoryFor({ engine: "sqlite", filename: database }, { home });
    createSpool<SpoolBatch>({ directory, prefix: "denials" }).append({ kind: "denials", records: [spooled] });
    const result = spawnSync(process.execPath, [main, "report", "--session", "from-spool", "--json"], {
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", HOME: home, TOOLGATE_DB: database },
      cwd: home,
    });
    expect(result.stderr).toContain("replayed 1 spooled batch into the store");
    expect(JSON.parse(result.stdout).total).toBe(1);
    expect(readdirSync(directory)).toEqual([]);
  });
});

describe("records the store cannot take", () => {
  it("report and tail say how many spooled batches wait, and why, instead of a quiet partial total", async () => {
    const home = temporaryDirectory("toolgate-home-");
    const full = join(temporaryDirectory("toolgate-full-"), "toolgate.db");
    const store = await createSqliteStore({ filename: full });
    await store.denials.append([makeRecord({ seq: 1, sessionId: "stored", at: Date.now() })]);
    await store.close();
    // a store that refuses every new record, as a full disk does (SQLite's own words for it)
    const raw = new Database(full);
    raw.exec(
      "CREATE TRIGGER disk_full BEFORE INSERT ON denials BEGIN SELECT RAISE(FAIL, 'database or disk is full'); END",
    );
    raw.close();
    const directory = spoolDirectoryFor({ engine: "sqlite", filename: full }, { home });
    const spool = createSpool<SpoolBatch>({ directory, prefix: "denials" });
    for (const seq of [1, 2]) {
      spool.append({ kind: "denials", records: [makeRecord({ seq, sessionId: "spooled", at: Date.now() })] });
    }
    const env = { PATH: process.env.PATH ?? "", HOME: home, TOOLGATE_DB: full };
    const report = spawnSync(process.execPath, [main, "report", "--json"], { encoding: "utf8", env, cwd: home });
    expect(report.status).toBe(EXIT.ok);
    expect(JSON.parse(report.stdout).total).toBe(1);
    expect(report.stderr).toContain("2 spooled batches could not be shipped into the store and are not counted here");
    expect(report.stderr).toContain("database or disk is full");
    expect(report.stderr).toContain(directory);
    const text = spawnSync(process.execPath, [main, "report"], { encoding: "utf8", env, cwd: home });
    expect(text.stdout).toContain("1 denial in 1 session");
    expect(text.stderr).toContain("2 spooled batches could not be shipped");
    const tail = spawnSync(process.execPath, [main, "tail", "--no-follow"], { encoding: "utf8", env, cwd: home });
    expect(tail.stderr).toContain("2 spooled batches could not be shipped");
    // nothing was lost: both batches still wait
    expect(spool.pending()).toHaveLength(2);
  });
});

describe("toolgate tail follows new denials", () => {
  it("prints a denial recorded after it started", async () => {
    const { spawn } = await import("node:child_process");
    const home = temporaryDirectory("toolgate-home-");
    const child = spawn(process.execPath, [main, "tail", "--lines", "0", "--interval", "100", "--json"], {
      env: { PATH: process.env.PATH ?? "", HOME: home, TOOLGATE_DB: database },
      cwd: home,
    });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += String(chunk);
    });
    let status = "";
    const following = new Promise<void>((resolve) => {
      child.stderr.on("data", (chunk) => {
        status += String(chunk);
        if (status.includes("following new denials")) resolve();
      });
    });
    try {
      // the record goes in once tail has its starting point (a fixed sleep here lost the race on a loaded machine)
      await following;
      const store = await createSqliteStore({ filename: database });
      await store.denials.append([makeRecord({ seq: 1, sessionId: "followed", at: Date.now() })]);
      await store.close();
      while (!output.includes("followed")) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(JSON.parse(output.trim().split("\n").at(-1)!)).toMatchObject({ sessionId: "followed", seq: 1 });
    } finally {
      child.kill("SIGINT");
    }
  });
});

describePostgres("toolgate report on Postgres", (database) => {
  it("reads the store named by TOOLGATE_DATABASE_URL and the config's schema", async () => {
    const schema = database.newSchema();
    const store = await database.createStore({ schema });
    const { records, events } = reportFixture();
    await store.denials.append(records);
    await store.denials.appendEvents(events);
    await store.close();
    const home = temporaryDirectory("toolgate-home-");
    writeFileSync(join(home, "toolgate.config.json"), JSON.stringify({ store: { schema } }));
    const result = spawnSync(process.execPath, [main, "report", "--since", "2026-01-01", "--json"], {
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", HOME: home, TOOLGATE_DATABASE_URL: database.url() },
      cwd: home,
      timeout: 20_000,
    });
    expect(result.stderr).toBe("");
    const report = JSON.parse(result.stdout);
    expect(report.store).toContain("postgres://");
    expect(report).toMatchObject(computeReport({ records, events, query: { since: Date.parse("2026-01-01") } }));
  });
});
