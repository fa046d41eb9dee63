// Instructions per first-seen policy decision (callgrind Ir), on bench/policy.bench.mjs's 200 rules and call mix: the
// policy decides 30,000 other calls of the mix (warm-up: optimised code, filled caches), `gc()`, then N distinct calls
// of the mix it has not seen (parsed from JSON, as calls arrive), in one process under
// `valgrind --tool=callgrind node --expose-gc --predictable --random-seed=1 --hash-seed=1`. Two figures per build:
// - difference: (Ir(N) - Ir(0)) / N, two whole runs that differ only in the N decisions (the method of BENCHMARKS.md's
//   policy passes; a whole run's count moves by up to ~130 M between runs, so read it as +-1,500 per decision);
// - window: the Ir of the N decisions alone in the run with N (the counters dumped, which zeroes them, right before the
//   first decision and right after the last: `--dump-before=uv_loadavg --dump-before=uv_getrusage`, reached through
//   `os.loadavg()` and `process.resourceUsage()`), divided by N; start-up and warm-up cannot move it.
// Both include the decisions' own garbage collection and any optimising compilation during them.
// Usage: npm run build && node bench/policy.callgrind.mjs
//   BENCH_POLICY_DIST=<dist>    the build measured (default: this tree's dist/)
//   BENCH_POLICY_BEFORE=<dist>  a second build, measured alternately with the first (before, after, before, ...)
//   BENCH_POLICY_CALLS=80000    N;   BENCH_POLICY_RUNS=1   rounds per build
//   BENCH_POLICY_WINDOW_ONLY=1  only the run with N (the window figure; half the time)
//   BENCH_POLICY_WARM_UP=30000  warm-up decisions (more: less of the optimising compiler's one-time work in the window)
// Needs valgrind (`valgrind --tool=callgrind`); takes about a minute per run under it.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const WARM_UP = Number(process.env.BENCH_POLICY_WARM_UP ?? 30_000);
/** where the warm-up calls begin in the mix's sequence (far from the measured calls: none is the same call) */
const WARM_UP_FIRST = 600_000;

if (process.argv[2] === "--inner") await inner(process.argv[3], Number(process.argv[4]));
else outer();

/** One measured process: warm up, collect, then decide `count` distinct calls between the two markers. */
async function inner(dist, count) {
  const { compilePolicy } = await import(pathToFileURL(join(dist, "policy", "compile-policy.js")).href);
  const { cwd, homeDir, makeCalls, rules } = await import(pathToFileURL(join(here, "policy.mix.mjs")).href);
  const policy = compilePolicy({ rules, cwd, homeDir });
  if (policy.rules.length !== 200) throw new Error(`expected 200 compiled rules, got ${policy.rules.length}`);
  // the measured calls are built (and parsed from JSON) whatever N is, so the runs with N and with 0 differ only in
  // the decisions
  const calls = JSON.parse(JSON.stringify(makeCalls(Number(process.env.BENCH_POLICY_CALLS ?? 80_000))));
  const warmUp = JSON.parse(JSON.stringify(makeCalls(WARM_UP, WARM_UP_FIRST)));
  let denied = 0;
  for (const call of warmUp) if (policy.evaluate(call).behavior === "deny") denied++;
  globalThis.gc();
  loadavg(); // marker: callgrind zeroes its counters here
  for (let index = 0; index < count; index++) if (policy.evaluate(calls[index]).behavior === "deny") denied++;
  process.resourceUsage(); // marker: callgrind dumps the counters since the first marker here
  console.log(JSON.stringify({ denied }));
}

function outer() {
  const dists = [process.env.BENCH_POLICY_BEFORE, process.env.BENCH_POLICY_DIST ?? join(here, "..", "dist")]
    .filter((dist) => dist !== undefined && dist !== "")
    .map((dist) => resolve(dist));
  const count = Number(process.env.BENCH_POLICY_CALLS ?? 80_000);
  const runs = Number(process.env.BENCH_POLICY_RUNS ?? 1);
  const root = mkdtempSync(join(tmpdir(), "toolgate-policy-callgrind-"));
  try {
    console.log(
      `load average ${loadavg()
        .map((load) => load.toFixed(2))
        .join(" ")}; N = ${count}`,
    );
    for (let round = 0; round < runs; round++) {
      for (const dist of dists) {
        const full = measure(root, dist, count);
        const window = Math.round(full.window / count).toLocaleString("en-US");
        if (process.env.BENCH_POLICY_WINDOW_ONLY === "1") {
          console.log(`${dist}: Ir(N) ${(full.total / 1e6).toFixed(1)} M; per decision: window ${window}`);
          continue;
        }
        const empty = measure(root, dist, 0);
        const difference = Math.round((full.total - empty.total) / count).toLocaleString("en-US");
        console.log(
          `${dist}: Ir(N) ${(full.total / 1e6).toFixed(1)} M, Ir(0) ${(empty.total / 1e6).toFixed(1)} M; ` +
            `per decision: difference ${difference}, window ${window}`,
        );
      }
    }
    console.log(
      `load average ${loadavg()
        .map((load) => load.toFixed(2))
        .join(" ")}`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** One run under callgrind: its whole count and the count between the markers. */
function measure(root, dist, count) {
  const out = join(root, `callgrind-${count}.out`);
  const argv = [
    "--tool=callgrind",
    "--dump-instr=no",
    "--dump-before=uv_loadavg",
    "--dump-before=uv_getrusage",
    `--callgrind-out-file=${out}`,
    process.execPath,
    "--expose-gc",
    "--predictable",
    "--random-seed=1",
    "--hash-seed=1",
    fileURLToPath(import.meta.url),
    "--inner",
    dist,
    String(count),
  ];
  const run = spawnSync("valgrind", argv, { encoding: "utf8", env: process.env });
  if (run.status !== 0) throw new Error(`valgrind exited ${run.status}: ${run.stderr.slice(-2000)}`);
  // three dumps, each of the instructions since the one before: start-up and warm-up (`.1`), the decisions (`.2`), the
  // rest (the file without a number); the whole run is their sum
  const counts = {};
  for (const name of readdirSync(root).filter((name) => name.startsWith(`callgrind-${count}.out`))) {
    const text = readFileSync(join(root, name), "utf8");
    counts[name.slice(out.length - root.length - 1)] = Number(/^(?:summary|totals): (\d+)/m.exec(text)?.[1]);
    rmSync(join(root, name));
  }
  const parts = [counts[".1"], counts[".2"], counts[""]];
  if (!parts.every((part) => Number.isFinite(part)))
    throw new Error(`unexpected dumps ${JSON.stringify(counts)}: ${run.stderr.slice(-2000)}`);
  const [before, window, after] = parts;
  return { total: before + window + after, window };
}
