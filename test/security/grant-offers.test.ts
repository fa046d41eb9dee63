import { describe, expect, it } from "vitest";
import type { Effect } from "../../src/core/effects.js";
import { createGuard } from "../../src/guard/create-guard.js";
import { secretCorpus } from "../support/redaction-corpus.mjs";

/**
 * Issue 12, class 3, grant offers: an escalation in an interactive session offers a grant whose rule and description
 * are built from the raw call. An offer whose rule would carry a secret (seen in the rule itself, or in the inputs it
 * was built from) is never made, with or without a policy, so no secret reaches the offer, the session state or the
 * `grant.offered` audit event. (The hook's path is covered by planted-secrets.test.ts; this drives the guard alone,
 * as the Agent SDK wrappers do.)
 */

const FRAGMENT = 8;

function fragments(secret: string): string[] {
  const out = new Set([secret]);
  for (let start = 0; start + FRAGMENT <= secret.length; start++) out.add(secret.slice(start, start + FRAGMENT));
  return [...out];
}

const samples = (() => {
  const seen = new Map<string, { kind: string; text: string; secrets: string[] }>();
  for (const row of secretCorpus()) if (!seen.has(row.kind)) seen.set(row.kind, row);
  return [...seen.values()];
})();

async function offersFor(calls: { tool: string; input: unknown }[]): Promise<{ effects: Effect[]; state: unknown }> {
  const guard = createGuard({ core: { defaultThreshold: 2 } });
  const session = guard.session("grant-offers", { interactive: true, host: "test" });
  const effects: Effect[] = [];
  for (let round = 0; round < 3; round++) {
    for (const [index, call] of calls.entries()) {
      effects.push(
        ...(await session.denied(
          { toolUseId: `t-${round}-${index}`, ...call },
          { source: "user", reason: "The user doesn't want to proceed with this tool use." },
        )),
      );
    }
  }
  return { effects, state: await session.state() };
}

describe("grant offers never carry a planted secret", () => {
  it("offers a grant for an ordinary repeated call (the filter does not suppress every offer)", async () => {
    const { effects } = await offersFor([{ tool: "Bash", input: { command: "npm run deploy" } }]);
    expect(effects.some((effect) => effect.type === "offer-grant")).toBe(true);
  });

  it.each(samples.map((sample) => [sample.kind, sample] as const))("%s", async (_kind, sample) => {
    const secret = sample.secrets[0] as string;
    const { effects, state } = await offersFor([
      { tool: "Bash", input: { command: sample.text } },
      { tool: "Read", input: { file_path: `/srv/app/${sample.text}` } },
      { tool: "WebFetch", input: { url: `https://deploy:${encodeURIComponent(secret)}@ci.example.com/api/json` } },
    ]);
    const text = JSON.stringify({ effects, state });
    const leaks = sample.secrets.flatMap(fragments).filter((needle) => text.includes(needle));
    expect(leaks).toEqual([]);
  });
});
