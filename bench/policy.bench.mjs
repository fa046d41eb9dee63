// Policy engine benchmark: decisions/s and p50/p99 per decision for 200 mixed rules and a realistic call mix, and
// the same rules and calls through Gemini CLI's own PolicyEngine in the same process (bench/policy.process.mjs, one
// process's measurement), run in several processes one after another. Why several: on this project's 2-vCPU machines
// the same build's figures vary between processes far more than within one. Measured 2026-11-28: toolgate's p50 on
// distinct calls 0.87-1.62 µs over five processes of one run, Gemini CLI's engine 17-30 µs on its repeated set, and a
// plain allocation-heavy JavaScript loop 1.22-1.53 s (with --single-threaded too), while a loop that allocates nothing
// varied under 3%. The goals are judged on the median process, and every process's figures are printed.
// Run: npm run bench -- policy
//   BENCH_POLICY_PROCESSES=5   how many processes (BENCH_SHORT=1: one, tiny sizes; the test suite's short mode)
//   BENCH_POLICY_BEFORE=<dist> also time another build, alternating with this one, in every process
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { goal } from "./support/goals.mjs";
import { sizeFrom } from "./support/short.mjs";

const MARK = "POLICY_GOAL ";
const processes = sizeFrom("BENCH_POLICY_PROCESSES", 5, 1);
const script = fileURLToPath(new URL("./policy.process.mjs", import.meta.url));
const formatNs = (ns) => (ns >= 1000 ? `${(ns / 1000).toFixed(2)} µs` : `${Math.round(ns)} ns`);

const runs = [];
console.log(
  `measured in ${processes} process${processes === 1 ? "" : "es"}, one after another (bench/policy.process.mjs)`,
);
for (let index = 0; index < processes; index++) {
  const run = spawnSync(process.execPath, ["--expose-gc", script], { encoding: "utf8", maxBuffer: 16 << 20 });
  if (run.status !== 0) {
    throw new Error(`policy bench process ${index + 1} exited with ${run.status ?? run.signal}: ${run.stderr}`);
  }
  const lines = run.stdout.split("\n");
  const goals = lines.filter((line) => line.startsWith(MARK)).map((line) => JSON.parse(line.slice(MARK.length)));
  if (goals.length !== 2) throw new Error(`policy bench process ${index + 1} reported ${goals.length} goals, not 2`);
  const text = lines.filter((line) => !line.startsWith(MARK)).join("\n");
  runs.push({ text, goals });
  const summary = lines.filter((line) =>
    /^(toolgate, distinct|toolgate on the same|Gemini CLI PolicyEngine, distinct)/.test(line),
  );
  console.log(`\nprocess ${index + 1}:\n${summary.join("\n")}`);
}

/** the run whose figure for goal `index` is the median (the lower middle of an even count) */
const medianRun = (index) => {
  const sorted = [...runs].sort((a, b) => a.goals[index].value - b.goals[index].value);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};
const middle = medianRun(0);
console.log(
  `\n### the median process by toolgate's p50 on distinct calls (process ${runs.indexOf(middle) + 1}), in full\n`,
);
console.log(middle.text.trimEnd());

const spread = (index, format) => {
  const values = runs.map((run) => run.goals[index].value).sort((a, b) => a - b);
  return runs.length === 1 ? "" : `; median of ${runs.length} processes, all ${values.map(format).join(", ")}`;
};
const first = middle.goals[0];
goal({ ...first, measured: `${first.measured}${spread(0, formatNs)}` });
const ratioRun = medianRun(1);
const second = ratioRun.goals[1];
goal({ ...second, measured: `${second.measured}${spread(1, (value) => `${value.toFixed(1)}x`)}` });
