import { describe, expect, it } from "vitest";
import { describePostgres } from "../../test/store/postgres-test-database.js";
import type { DenialRecord } from "../core/records.js";
import { computeReport } from "./compute-report.js";
import type { Store } from "./ports.js";
import { createSqliteStore } from "./sqlite/sqlite-store.js";

const DAY = 86_400_000;
const START = Date.UTC(2026, 10, 16, 9, 0, 0);

/** [pattern, command, source, rule, day offset]: `rm` has three variants (two denied by a deny rule), `npm run` two */
const PLAN: [string, string, DenialRecord["source"], string | undefined, number][] = [
  ["rm", "rm -rf build", "rule", "Bash(rm:*)", 0],
  ["rm", "rm -rf build", "rule", "Bash(rm:*)", 0],
  ["rm", "rm -rf dist", "rule", "Bash(rm -rf:*)", 1],
  ["npm run", "npm run build", "headless", undefined, 1],
  ["rm", "rm -rf build", "rule", "Bash(rm:*)", 2],
  ["rm", "rm -f x.log", "headless", "Bash(rm -f:*)", 2],
  ["npm run", "npm run lint", "user", undefined, 3],
  ["npm run", "npm run build", "headless", undefined, 3],
  ["git push", "git push --force", "rule", undefined, 4],
  ["rm", "rm -rf dist", "rule", "Bash(rm -rf:*)", 4],
];

function records(): DenialRecord[] {
  return PLAN.map(([pattern, command, source, rule, day], index) => ({
    seq: index + 1,
    sessionId: "s1",
    turn: 1,
    tool: "Bash",
    toolUseId: `toolu_${index}`,
    source,
    reason: "denied",
    ...(rule === undefined ? {} : { rule }),
    signature: `Bash:${command}`,
    pattern,
    inputSummary: command,
    input: { command },
    at: START + day * DAY + index * 60_000,
    timestamp: new Date(START + day * DAY + index * 60_000).toISOString(),
  }));
}

const QUERIES = [{}, { top: 1 }, { since: START + DAY }, { since: START + DAY / 2, until: START + 3 * DAY + DAY / 2 }];

function agreesWithReference(name: string, open: () => Promise<Store<unknown>>): void {
  it(`${name}: patterns, variants and deny rules agree with the reference computation`, async () => {
    const store = await open();
    try {
      await store.denials.append(records());
      for (const query of QUERIES) {
        const expected = computeReport({ records: records(), events: [], query });
        expect((await store.denials.report(query)).topPatterns, JSON.stringify(query)).toEqual(expected.topPatterns);
        expect((await store.denials.report(query)).topSignatures, JSON.stringify(query)).toEqual(
          expected.topSignatures,
        );
      }
    } finally {
      await store.close();
    }
  });
}

describe("report patterns", () => {
  it("folds variants under their pattern, sums the counts and names the deny rules that won", () => {
    const report = computeReport({ records: records(), events: [], query: {} });
    expect(report.topPatterns.map((row) => [row.pattern, row.count, row.variantCount])).toEqual([
      ["rm", 6, 3],
      ["npm run", 3, 2],
      ["git push", 1, 1],
    ]);
    const rm = report.topPatterns[0];
    expect(rm?.variants.map((variant) => [variant.sample.inputSummary, variant.count, variant.denyRule])).toEqual([
      ["rm -rf build", 3, "Bash(rm:*)"],
      ["rm -rf dist", 2, "Bash(rm -rf:*)"],
      ["rm -f x.log", 1, null],
    ]);
    // the headless denial matched an ask rule: not a deny rule, so an allow rule would help there
    expect(rm?.variants[2]?.deniedByRule).toBe(false);
    expect(rm?.denyRules).toEqual([
      { rule: "Bash(rm:*)", count: 3 },
      { rule: "Bash(rm -rf:*)", count: 2 },
    ]);
    expect(report.topPatterns[1]?.denyRules).toEqual([]);
    // a deny rule the host did not name
    expect(report.topPatterns[2]?.denyRules).toEqual([{ rule: null, count: 1 }]);
  });

  agreesWithReference("sqlite", () => createSqliteStore({ filename: ":memory:" }));
});

describePostgres("report patterns (postgres)", (database) => {
  agreesWithReference("postgres", () => database.createStore());
});
