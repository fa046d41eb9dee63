// Shared by the hook benchmarks (hook-peers, codex-hook, gemini-hook, qwen-hook): cold child processes timed by
// their own CPU (python3 fork/exec + os.wait4, so nothing of the parent's start-up is counted), and the median.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { goal } from "./goals.mjs";
import { short } from "./short.mjs";

/** Runs each job as a cold child (python3 fork/exec + wait4): its own CPU time and wall time, stdout, stderr. */
export function runJobs({ jobs, env, cwd, scratch }) {
  const driver = `
import json, os, sys, time
spec = json.load(sys.stdin)
out = []
for job in spec["jobs"]:
    base = os.path.join(spec["scratch"], "job")
    with open(base + ".in", "w") as handle:
        handle.write(job["input"])
    stdin = os.open(base + ".in", os.O_RDONLY)
    stdout = os.open(base + ".out", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    stderr = os.open(base + ".err", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        os.dup2(stdin, 0); os.dup2(stdout, 1); os.dup2(stderr, 2)
        os.chdir(spec["cwd"])
        try:
            os.execve(job["argv"][0], job["argv"], spec["env"])
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    for descriptor in (stdin, stdout, stderr):
        os.close(descriptor)
    with open(base + ".out") as handle:
        text = handle.read()
    with open(base + ".err") as handle:
        err = handle.read()
    out.append({"cpu": (usage.ru_utime + usage.ru_stime) * 1000, "wall": wall * 1000,
                "status": os.waitstatus_to_exitcode(status), "stdout": text[:2000], "stderr": err[:2000]})
json.dump(out, sys.stdout)
`;
  const result = spawnSync("python3", ["-c", driver], {
    input: JSON.stringify({ jobs: jobs.map(({ argv, input }) => ({ argv, input })), env, cwd, scratch }),
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`python3 driver failed (${result.status}): ${result.stderr}`);
  return JSON.parse(result.stdout);
}

/** The median of a list of numbers (the mean of the middle two for an even count). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

/**
 * One interleaved run of every hook on every event (hook 0 is the `node -e 0` baseline), `runs` rounds after a
 * warm-up round, each round rotated so no case always goes first; prints the median CPU and wall time of each
 * hook per event and its ratio to the baseline as a Markdown table. `check` names what is wrong with an answer.
 */
export function measureHookEvents({ hooks, events, input, runs, env, cwd, scratch, check }) {
  console.log(`${new Date().toISOString()}, node ${process.version}, load average ${loadAverage()}`);
  const { jobs, results } = runRounds({ hooks, events, input, runs, env, cwd, scratch });
  for (const [index, result] of results.entries()) {
    const job = jobs[index];
    if (result.status !== 0)
      throw new Error(`${hooks[job.hook].name} on ${events[job.event][0]} exited ${result.status}: ${result.stderr}`);
    const problem = check({ hook: job.hook, event: job.event, stdout: result.stdout });
    if (problem !== undefined) throw new Error(`${hooks[job.hook].name} ${problem}: ${result.stdout} ${result.stderr}`);
  }
  const rows = printRatios({ hooks, events, jobs, results, title: `${runs} rounds` });
  console.log(`\ndone ${new Date().toISOString()}, load average ${loadAverage()}`);
  recordEntryGoal({ hooks, rows, runs });
}

/**
 * Issue 30 item 1 for one hook host, judged on the bundled entry installers write (the hook named "toolgate hook
 * entry …", its host the last word of its command): every event <= 1.2x `node -e 0` in CPU. These benches give the
 * children PATH and a temporary HOME only: the clean environment.
 */
function recordEntryGoal({ hooks, rows, runs }) {
  const entry = hooks.findIndex((hook) => hook.name.startsWith("toolgate hook entry"));
  if (entry < 0) return;
  const host = hooks[entry].argv.at(-1);
  const ours = rows.filter((row) => row.hook === entry);
  const worst = ours.reduce((a, b) => (b.cpuRatio > a.cpuRatio ? b : a));
  goal({
    goal: `every ${host} hook event <= 1.2x \`node -e 0\` CPU, clean environment`,
    measured: `${ours.filter((row) => row.cpuRatio <= 1.2).length} of ${ours.length} events; ${Math.min(...ours.map((row) => row.cpuRatio)).toFixed(2)}x-${worst.cpuRatio.toFixed(2)}x (worst: ${worst.eventName})`,
    met: ours.every((row) => row.cpuRatio <= 1.2),
    command: `bench/${host}-hook.bench.mjs (BENCH_RUNS=${runs})`,
  });
}

/**
 * Every hook on every event once per round, `runs` rounds after a warm-up round (-1, not counted; none in the short
 * mode, BENCH_SHORT=1, whose figures mean nothing anyway); `input({ round, hook, event, index })` is each job's stdin
 * (`index`: its place in the round). A round runs the events in their order, each one on every hook before the next
 * (so each hook's events of a round come in order, as one session's), and the hooks in an order rotated each round:
 * no hook always runs after the same one (a hook run after heavy work, the CLI's 150 ms, measured 1-3 ms less CPU
 * than the same build run after `node -e 0`, when a round ran each hook's events together). Returns the jobs and
 * their results, in the same order.
 */
export function runRounds({ hooks, events, input, runs, env, cwd, scratch }) {
  const jobs = [];
  for (let round = short ? 0 : -1; round < runs; round++) {
    let index = 0;
    for (const [event] of events.entries()) {
      const offset = (((round + event) % hooks.length) + hooks.length) % hooks.length;
      const order = [...hooks.keys()].slice(offset).concat([...hooks.keys()].slice(0, offset));
      for (const hook of order) {
        jobs.push({ round, hook, event, argv: hooks[hook].argv, input: input({ round, hook, event, index }) });
        index += 1;
      }
    }
  }
  return { jobs, results: runJobs({ jobs, env, cwd, scratch }) };
}

/**
 * The median CPU and wall time of each hook (hook 0, the `node -e 0` baseline, excepted) per event over the counted
 * rounds, and their ratios to the baseline's median over all events, as a Markdown table under `title`.
 */
/**
 * Prints the table of CPU and wall medians per event and hook, each against `node -e 0` (hook 0), and returns its
 * rows: `{ event, eventName, hook, cpu, cpuRatio, wallRatio }` (hook: an index into `hooks`).
 */
export function printRatios({ hooks, events, jobs, results, title }) {
  const rows = [];
  const samples = (hook, event, key) =>
    results
      .filter((_, i) => jobs[i].round >= 0 && jobs[i].hook === hook && (event === undefined || jobs[i].event === event))
      .map((result) => result[key]);
  const baseCpu = median(samples(0, undefined, "cpu"));
  const baseWall = median(samples(0, undefined, "wall"));
  console.log(`\n${title}; node -e 0: CPU ${baseCpu.toFixed(1)} ms, wall ${baseWall.toFixed(1)} ms (median)\n`);
  console.log("| event | hook | CPU ms | CPU ratio | wall ms | wall ratio |\n|---|---|---|---|---|---|");
  for (const [event, [eventName]] of events.entries()) {
    for (const [hook, { name }] of hooks.entries()) {
      if (hook === 0) continue;
      const cpu = median(samples(hook, event, "cpu"));
      const wall = median(samples(hook, event, "wall"));
      console.log(
        `| ${eventName} | ${name} | ${cpu.toFixed(1)} | ${(cpu / baseCpu).toFixed(2)}x | ${wall.toFixed(1)} | ${(wall / baseWall).toFixed(2)}x |`,
      );
      rows.push({ event, eventName, hook, cpu, cpuRatio: cpu / baseCpu, wallRatio: wall / baseWall });
    }
  }
  return rows;
}

/**
 * The hook builds a bench times: this build's entry, then another build's (TOOLGATE_HOOK_BUNDLE=<dist>/hook/
 * toolgate-hook.cjs, an older commit's `dist/` for a before/after in the same rounds) when set.
 */
export function hookBuilds(entry) {
  const builds = [{ name: "toolgate hook entry (this build)", entry }];
  if (process.env.TOOLGATE_HOOK_BUNDLE) {
    const other = resolve(process.env.TOOLGATE_HOOK_BUNDLE);
    builds.push({ name: `toolgate hook (${other.split("/").slice(-4).join("/")})`, entry: other });
  }
  return builds;
}
