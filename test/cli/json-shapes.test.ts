import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, makeFixture, runCli } from "./cli-fixture.js";
import { seedStore } from "./seed-store.js";

/**
 * One `--json` shape per command, every key always present (issue 11, finding 10). The key lists are the ones
 * docs/cli.md documents; a new key is a documented, deliberate change of both.
 */
beforeAll(ensureBuilt);

const fixture = makeFixture({});
afterAll(() => rmSync(fixture.root, { recursive: true, force: true }));
let env: Record<string, string> = {};
beforeAll(async () => {
  env = { TOOLGATE_DB: await seedStore({ home: fixture.home, count: 3 }) };
});
const json = (args: string[]) => {
  const result = runCli(args, { cwd: fixture.project, home: fixture.home, env });
  return { status: result.status, documents: result.stdout.trim().split("\n").filter(Boolean), stderr: result.stderr };
};
const keys = (value: unknown) => Object.keys(value as object).sort();
const sorted = (list: string[]) => [...list].sort();

describe("--json shapes", () => {
  it("check: the same keys for an allow without a rule and a deny with one", () => {
    const allow = JSON.parse(
      runCli(["check", "Read", '{"file_path":"a.ts"}', "--json"], { cwd: fixture.project, home: fixture.home }).stdout,
    );
    const deny = JSON.parse(
      runCli(["check", "Bash", '{"command":"rm -rf /"}', "--json", "--headless"], {
        cwd: fixture.project,
        home: fixture.home,
      }).stdout,
    );
    const expected = sorted([
      "behavior",
      "rule",
      "origin",
      "source",
      "denialSource",
      "reason",
      "mode",
      "headless",
      "warnings",
    ]);
    expect(keys(allow)).toEqual(expected);
    expect(keys(deny)).toEqual(expected);
    expect(allow).toMatchObject({ rule: null, origin: null, denialSource: null, warnings: [] });
  });

  it("demo", () => {
    const result = json(["demo", "--turns", "5", "--json"]);
    const document = JSON.parse(result.documents.join("\n"));
    expect(keys(document)).toEqual(
      sorted([
        "turnCap",
        "callsWithout",
        "deniedWithout",
        "exitWithout",
        "callsWith",
        "deniedWith",
        "exitWith",
        "abortError",
        "steps",
      ]),
    );
    expect(keys(document.steps[0])).toEqual(sorted(["turn", "command", "withoutToolgate", "withToolgate"]));
  });

  it("report, with and without denials in the window", () => {
    for (const args of [
      ["report", "--json"],
      ["report", "--json", "--tool", "NoSuchTool"],
    ]) {
      const result = json(args);
      expect(result.status).toBe(0);
      const document = JSON.parse(result.documents.join("\n"));
      expect(keys(document)).toEqual(
        sorted([
          "store",
          "window",
          "total",
          "sessions",
          "topTools",
          "topSignatures",
          "topPatterns",
          "perDay",
          "incidents",
          "figures",
          "suggestedRules",
          "warnings",
        ]),
      );
      expect(keys(document.window)).toEqual(sorted(["since", "sessionId", "tool"]));
    }
    const full = JSON.parse(json(["report", "--json"]).documents.join("\n"));
    expect(keys(full.topTools[0])).toEqual(["count", "hostTools", "tool"]);
    const signatureKeys = sorted([
      "tool",
      "canonicalTool",
      "signature",
      "count",
      "sample",
      "deniedByRule",
      "denyRule",
      "source",
    ]);
    expect(keys(full.topSignatures[0])).toEqual(signatureKeys);
    expect(keys(full.topPatterns[0])).toEqual(
      sorted(["tool", "pattern", "count", "variantCount", "denyRules", "variants"]),
    );
    expect(keys(full.topPatterns[0].variants[0])).toEqual(signatureKeys);
    expect(keys(full.topPatterns[0].denyRules[0])).toEqual(["count", "rule"]);
    expect(keys(full.topSignatures[0].sample)).toEqual(["input", "inputSummary"]);
    expect(keys(full.perDay[0])).toEqual(["count", "day"]);
    expect(keys(full.suggestedRules[0])).toEqual(
      sorted(["tool", "signature", "count", "rule", "language", "why", "example"]),
    );
  });

  it("tail: every denial line has every key, null where the record has no value", () => {
    const result = json(["tail", "--no-follow", "--json"]);
    expect(result.documents).toHaveLength(3);
    const expected = sorted([
      "id",
      "seq",
      "timestamp",
      "at",
      "sessionId",
      "parentSessionId",
      "agentId",
      "turn",
      "host",
      "tool",
      "canonicalTool",
      "toolFamily",
      "toolUseId",
      "source",
      "reason",
      "rule",
      "decisionReasonType",
      "signature",
      "pattern",
      "inputSummary",
      "input",
      "labels",
    ]);
    for (const line of result.documents) expect(keys(JSON.parse(line))).toEqual(expected);
    expect(JSON.parse(result.documents[0] as string)).toMatchObject({ agentId: null, parentSessionId: null });
  });

  it("doctor", () => {
    const document = JSON.parse(json(["doctor", "--json"]).documents.join("\n"));
    expect(keys(document)).toEqual(["checks", "ok"]);
    expect(document.checks.length).toBeGreaterThan(0);
    for (const check of document.checks) expect(keys(check)).toEqual(sorted(["name", "status", "message", "fix"]));
  });

  it("scrub and prune", () => {
    expect(keys(JSON.parse(json(["scrub", "--json"]).documents[0] as string))).toEqual(
      sorted(["store", "changed", "sessions", "warnings"]),
    );
    expect(keys(JSON.parse(json(["prune", "--older-than", "3650d", "--json"]).documents[0] as string))).toEqual(
      sorted(["store", "before", "denials", "events", "warnings"]),
    );
  });
});
