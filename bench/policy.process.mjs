// One process's measurement for bench/policy.bench.mjs, which runs it in several processes and reports the median
// (run alone: node --expose-gc bench/policy.process.mjs; the same variables as bench/policy.bench.mjs).
// Decisions/s and p50/p99 per decision for 200 mixed rules and a realistic call mix, and the same rules and calls
// through Gemini CLI's own PolicyEngine (@google/gemini-cli-core, devDependency) in the same process (the rules and
// calls: bench/policy.mix.mjs; instruction counts of the same: bench/policy.callgrind.mjs).
// BENCH_POLICY_BEFORE=<a dist directory of another build> also times that build's engine on the same distinct calls,
// alternating with this one (before, after, before, after, ...), for a before/after measured side by side in one run.
// Each goal this process measured is written as one line `POLICY_GOAL {json}` (with the figure it is judged on,
// `value`) for the parent to gather.
import { compilePolicy } from "../dist/policy/compile-policy.js";
import { cwd, homeDir, makeCalls, rules } from "./policy.mix.mjs";
import { size } from "./support/short.mjs";

/** one goal's result, for bench/policy.bench.mjs (which records the median process's with bench/support/goals.mjs) */
const goal = (result) => console.log(`POLICY_GOAL ${JSON.stringify(result)}`);

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
const formatNs = (ns) => (ns >= 1000 ? `${(ns / 1000).toFixed(2)} µs` : `${Math.round(ns)} ns`);

/**
 * Times each decision; subtracts the measured cost of an empty timed call. Before the timed rounds, `warmRounds` rounds
 * over `warmUp` (other calls of the same mix, so none is in the decision cache when it is first timed) run untimed:
 * with as many rounds as the timed part, the warm-up also takes the paths a call seen again takes (the decision
 * cache's doorkeeper noting it, then storing it), so the optimising compiler has seen every path before the clock
 * starts and no deoptimisation lands inside the timed rounds (with 2,000 warm-up calls, the first of them did).
 */
async function measure(label, decide, calls, options = {}) {
  const { rounds = 1, warmUp = calls, warmRounds = rounds } = options;
  let overhead = [];
  for (let index = 0; index < size(20_000, 1_000); index++) {
    const start = process.hrtime.bigint();
    overhead.push(Number(process.hrtime.bigint() - start));
  }
  overhead.sort((a, b) => a - b);
  const timerCost = percentile(overhead, 50);
  overhead = undefined;
  // start from a collected heap (node --expose-gc, as `npm run bench` runs it): neither engine pays for the garbage
  // of the run before it (a major collection that Gemini CLI's garbage started must not finish in toolgate's run,
  // nor toolgate's in Gemini's); the collections each engine's own allocations cause during its run still count
  for (let round = 0; round < warmRounds; round++) for (const call of warmUp) decide(call);
  globalThis.gc?.();
  const samples = new Float64Array(calls.length * rounds);
  let sampleIndex = 0;
  const wallStart = process.hrtime.bigint();
  for (let round = 0; round < rounds; round++) {
    for (const call of calls) {
      const start = process.hrtime.bigint();
      decide(call);
      samples[sampleIndex++] = Number(process.hrtime.bigint() - start) - timerCost;
    }
  }
  const wallNs = Number(process.hrtime.bigint() - wallStart);
  const sorted = Array.from(samples).sort((a, b) => a - b);
  const result = {
    label,
    decisions: samples.length,
    perSecond: Math.round(samples.length / (wallNs / 1e9)),
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
  };
  console.log(
    `${label.padEnd(46)} ${String(result.perSecond.toLocaleString("en-US")).padStart(12)} decisions/s   p50 ${formatNs(result.p50).padStart(9)}   p99 ${formatNs(result.p99).padStart(9)}`,
  );
  return result;
}

// ---- toolgate ------------------------------------------------------------------------------------------------------
const policy = compilePolicy({ rules, cwd, homeDir });
if (policy.rules.length !== 200) throw new Error(`expected 200 compiled rules, got ${policy.rules.length}`);
// calls arrive as JSON from the host (hook payloads, SDK messages): parse them from JSON so strings are flat, as in
// production, for both engines
const COLD = size(20_000, 1_000);
const SAME = size(4000, 500); // the calls both engines are timed on
const cold = JSON.parse(JSON.stringify(makeCalls(COLD))); // distinct calls: every shell call is parsed
const warm = cold.slice(0, 300); // an agent's working set: repeated commands hit the parse cache
console.log(`200 rules (120 shell, 40 path, 20 domain, 20 MCP); call mix 60% shell / 25% file / 10% web / 5% MCP\n`);
// warm-up on other calls of the same mix, so no measured call is in the decision cache when it is first timed
// 3 rounds over 10,000 of them: 30,000 decisions, the warm-up of bench/policy.callgrind.mjs
const WARM_UP = size(10_000, 500);
const WARM_ROUNDS = 3;
const warmUpOther = JSON.parse(JSON.stringify(makeCalls(WARM_UP, 30 * COLD)));
const oursCold = await measure(
  "toolgate, distinct calls (parse every command)",
  (call) => policy.evaluate(call),
  cold,
  { rounds: size(3, 1), warmUp: warmUpOther, warmRounds: WARM_ROUNDS },
);
const oursWarm = await measure("toolgate, repeated working set (cache hit)", (call) => policy.evaluate(call), warm, {
  rounds: size(200, 5),
  warmRounds: size(20, 1),
});
if (process.env.BENCH_POLICY_BEFORE !== undefined) {
  const before = await import(`${process.env.BENCH_POLICY_BEFORE}/policy/compile-policy.js`);
  const beforePolicy = before.compilePolicy({ rules, cwd, homeDir });
  // calls neither engine has seen (so neither has them cached), the same mix, one JSON copy per engine
  // (warmed up on other calls)
  const fresh = (first) => JSON.parse(JSON.stringify(makeCalls(COLD, first)));
  const [theirCalls, ourCalls] = [fresh(10 * COLD), fresh(10 * COLD)];
  const warmUp = JSON.parse(JSON.stringify(makeCalls(WARM_UP, 20 * COLD)));
  const pairs = [];
  console.log(`\nbefore/after, alternating (before: ${process.env.BENCH_POLICY_BEFORE})`);
  for (let pair = 0; pair < size(3, 1); pair++) {
    const was = await measure("  before, distinct calls", (call) => beforePolicy.evaluate(call), theirCalls, {
      warmUp,
      warmRounds: WARM_ROUNDS,
    });
    const now = await measure("  after, distinct calls", (call) => policy.evaluate(call), ourCalls, {
      warmUp,
      warmRounds: WARM_ROUNDS,
    });
    pairs.push((now.p50 / was.p50).toFixed(2));
  }
  console.log(`after / before p50, each pair: ${pairs.join(", ")}`);
  const warmPairs = [];
  for (let pair = 0; pair < size(2, 1); pair++) {
    const was = await measure("  before, repeated working set", (call) => beforePolicy.evaluate(call), warm, {
      rounds: size(50, 5),
      warmRounds: size(20, 1),
    });
    const now = await measure("  after, repeated working set", (call) => policy.evaluate(call), warm, {
      rounds: size(50, 5),
      warmRounds: size(20, 1),
    });
    warmPairs.push((now.p50 / was.p50).toFixed(2));
  }
  console.log(`after / before p50 on the repeated working set, each pair: ${warmPairs.join(", ")}\n`);
}
const byBehavior = { allow: 0, ask: 0, deny: 0 };
for (const call of cold) byBehavior[policy.evaluate(call).behavior]++;
console.log(`decisions over the mix: ${JSON.stringify(byBehavior)}`);
goal({
  goal: "first-seen shell decision p50 <= 1 µs (200 rules, the mix)",
  measured: `p50 ${formatNs(oursCold.p50)}, p99 ${formatNs(oursCold.p99)}`,
  met: oursCold.p50 <= 1000,
  command: "bench/policy.bench.mjs",
  value: oursCold.p50,
});

// ---- Gemini CLI's PolicyEngine on equivalent rules and calls ----------------------------------------------------------
let gemini;
try {
  gemini = await import("@google/gemini-cli-core/dist/src/policy/policy-engine.js");
} catch (error) {
  console.log(`\nGemini CLI PolicyEngine not available (${error.message}); ratio not measured.`);
  goal({
    goal: ">= 10x Gemini CLI's engine on first-seen calls, same run",
    measured: "not measured: Gemini CLI's engine is not installed (npm run bench:deps)",
    met: false,
    command: "bench/policy.bench.mjs",
    value: 0,
  });
}
if (gemini !== undefined) {
  const { buildArgsPatterns, escapeRegex } = await import("@google/gemini-cli-core/dist/src/policy/utils.js");
  const { initializeShellParsers } = await import("@google/gemini-cli-core/dist/src/utils/shell-utils.js");
  // Gemini CLI installs a console patcher that drops debug output outside debug mode; do the same here so the
  // engine's per-check console.debug calls do not dominate its time.
  console.debug = () => {};
  await initializeShellParsers();
  const DECISION = { allow: "allow", ask: "ask_user", deny: "deny" };
  const RANK = { deny: 3, ask: 2, allow: 1 }; // Claude order as priority inside Gemini's user tier
  const geminiRules = [];
  for (const { rule, behavior } of rules) {
    const priority = 4 + RANK[behavior] / 1000;
    const decision = DECISION[behavior];
    let match = /^Bash\((.*) \*\)$/.exec(rule);
    if (match) {
      const [pattern] = buildArgsPatterns(undefined, match[1]);
      geminiRules.push({ toolName: "run_shell_command", argsPattern: new RegExp(pattern), decision, priority });
      continue;
    }
    match = /^(Read|Edit)\(\/(.*)\/\*\*\)$/.exec(rule);
    if (match) {
      const toolNames = match[1] === "Read" ? ["read_file"] : ["replace", "write_file"];
      const argsPattern = new RegExp(`"file_path":"${escapeRegex(`${cwd}/${match[2]}/`)}`);
      for (const toolName of toolNames) geminiRules.push({ toolName, argsPattern, decision, priority });
      continue;
    }
    match = /^WebFetch\(domain:(.*)\)$/.exec(rule);
    if (match) {
      const argsPattern = new RegExp(`"url":"https?://${escapeRegex(match[1])}[/:"]`);
      geminiRules.push({ toolName: "web_fetch", argsPattern, decision, priority });
      continue;
    }
    match = /^mcp__(.*)__(.*)$/.exec(rule);
    if (match) geminiRules.push({ toolName: `mcp_${match[1]}_${match[2]}`, mcpName: match[1], decision, priority });
  }
  // Edit rules become two Gemini rules (replace and write_file): 220 in all
  if (geminiRules.length !== 220) throw new Error(`expected 220 Gemini rules, got ${geminiRules.length}`);
  const engine = new gemini.PolicyEngine({ rules: geminiRules, defaultDecision: "ask_user", approvalMode: "default" });
  const TOOL = { Bash: "run_shell_command", Read: "read_file", Edit: "replace", WebFetch: "web_fetch" };
  const toGemini = (call) => {
    if (call.tool.startsWith("mcp__")) {
      const [, server, tool] = /^mcp__(.*)__(.*)$/.exec(call.tool);
      return { call: { name: `mcp_${server}_${tool}`, args: call.input }, server };
    }
    return { call: { name: TOOL[call.tool], args: call.input }, server: undefined };
  };
  const geminiCold = cold.slice(0, SAME).map(toGemini);
  const geminiWarm = warm.map(toGemini);
  console.log("");
  const theirs = await measure(
    "Gemini CLI PolicyEngine, distinct calls",
    (c) => engine.check(c.call, c.server),
    geminiCold,
    { warmUp: warmUpOther.map(toGemini), warmRounds: WARM_ROUNDS },
  );
  const theirsWarm = await measure(
    "Gemini CLI PolicyEngine, repeated working set",
    (c) => engine.check(c.call, c.server),
    geminiWarm,
    { rounds: size(5, 1), warmRounds: 1 },
  );
  // toolgate on exactly the calls Gemini was timed on (a fresh copy of them: none in the decision cache)
  const sameCalls = JSON.parse(JSON.stringify(cold.slice(0, SAME)));
  const oursSame = await measure(
    "toolgate on the same calls",
    (call) => policy.evaluate(call),
    sameCalls,
    // one round, as Gemini's: a second round over 4,000 calls would find some in the decision cache
    { warmUp: warmUpOther, warmRounds: WARM_ROUNDS },
  );
  console.log(
    `\nratio (toolgate / Gemini decisions per second): distinct calls ${(oursSame.perSecond / theirs.perSecond).toFixed(0)}x, ` +
      `repeated working set ${(oursWarm.perSecond / theirsWarm.perSecond).toFixed(0)}x; ` +
      `p50 ratio distinct ${(theirs.p50 / oursSame.p50).toFixed(1)}x, repeated ${(theirsWarm.p50 / oursWarm.p50).toFixed(1)}x`,
  );
  goal({
    goal: ">= 10x Gemini CLI's engine on first-seen calls, same run",
    measured: `p50 ${(theirs.p50 / oursSame.p50).toFixed(1)}x, decisions/s ${(oursSame.perSecond / theirs.perSecond).toFixed(1)}x`,
    met: theirs.p50 / oursSame.p50 >= 10 && oursSame.perSecond / theirs.perSecond >= 10,
    command: "bench/policy.bench.mjs",
    // judged on the smaller of the two ratios
    value: Math.min(theirs.p50 / oursSame.p50, oursSame.perSecond / theirs.perSecond),
  });
}
