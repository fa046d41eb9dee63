// Shared by the hook benchmarks (hook-peers, codex-hook, gemini-hook, qwen-hook): cold child processes timed by
// their own CPU (python3 fork/exec + os.wait4, so nothing of the parent's start-up is counted), and the median.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { goal } from "./goals.mjs";
import { short } from "./short.mjs";

/** Runs each job as a cold child (python3 fork/exec + wait4): its own CPU time and wall time, stdout, stderr. */
export function runJobs({ jobs, env, cwd, scratch }) {
  const driver = `
import glob, json, os, socket, sys, time
spec = json.load(sys.stdin)
out = []
def server_cpu(pattern):
    # the resident hook server's CPU so far (ms), from its own answer to the CPU query; None when none runs
    files = glob.glob(pattern)
    if not files:
        return None
    try:
        port, token, _ = open(files[0]).read().split()
        with socket.create_connection(("127.0.0.1", int(port)), timeout=2) as connection:
            connection.sendall(("toolgate-hook/1 %s cpu\\n" % token).encode())
            data = b""
            while True:
                chunk = connection.recv(64)
                if not chunk:
                    break
                data += chunk
        return int(data.split()[1]) / 1000.0
    except Exception:
        return None
def settled_cpu(pattern):
    # after the client exits the server may still be delivering (a drain): polled every 50 ms until its CPU moved less
    # than 0.6 ms (a query itself costs the server 0.15-0.25 ms), at most 2 s; the queries are charged to the event
    last = server_cpu(pattern)
    for _ in range(40):
        time.sleep(0.05)
        now = server_cpu(pattern)
        if now is None or last is None or now - last < 0.6:
            return now
        last = now
    return last
for job in spec["jobs"]:
    server = job.get("server")
    before = server_cpu(server) if server else None
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
    # a resident hook's event costs its client and the server's work for it (none when no server ran before it: the
    # Node hook answered, and started one in the background, whose start is not counted, as a detached drain is not)
    after = settled_cpu(server) if server and before is not None else None
    served = after - before if after is not None else 0.0
    out.append({"cpu": (usage.ru_utime + usage.ru_stime) * 1000 + served, "server": served, "wall": wall * 1000,
                "status": os.waitstatus_to_exitcode(status), "stdout": text[:2000], "stderr": err[:2000]})
json.dump(out, sys.stdout)
`;
  const result = spawnSync("python3", ["-c", driver], {
    input: JSON.stringify({
      jobs: jobs.map(({ argv, input, server }) => ({ argv, input, ...(server === undefined ? {} : { server }) })),
      env,
      cwd,
      scratch,
    }),
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
  for (const [index, hook] of hooks.entries()) {
    const resident = hook.server !== undefined;
    if (!resident && !hook.name.startsWith("toolgate hook entry")) continue;
    const host = hook.argv.at(-1);
    const ours = rows.filter((row) => row.hook === index);
    const worst = ours.reduce((a, b) => (b.cpuRatio > a.cpuRatio ? b : a));
    goal({
      goal: `every ${host} hook event <= 1.2x \`node -e 0\` CPU, clean environment${resident ? ", resident hook (client + server)" : ""}`,
      measured: `${ours.filter((row) => row.cpuRatio <= 1.2).length} of ${ours.length} events; ${Math.min(...ours.map((row) => row.cpuRatio)).toFixed(2)}x-${worst.cpuRatio.toFixed(2)}x (worst: ${worst.eventName})`,
      met: ours.every((row) => row.cpuRatio <= 1.2),
      command: `bench/${host}-hook.bench.mjs (BENCH_RUNS=${runs})`,
    });
  }
}

/**
 * The resident hook (docs/resident-hook.md) as one more hook of a bench: bash running the client beside `entry`, with
 * this node for its fallback. Its CPU per event is the client's plus the server's for that event (the server's own
 * answer to the CPU query before and after, `runJobs`); the server starts at the warm-up round's first event. `home`
 * is the children's HOME, where the server file goes.
 */
export function residentHook({ entry, host, home }) {
  const client = join(dirname(entry), "toolgate-hook.sh");
  if (!existsSync(client)) return undefined;
  return {
    name: "toolgate resident hook (bash client + server CPU)",
    argv: [existsSync("/bin/bash") ? "/bin/bash" : "/usr/bin/bash", client, process.execPath, "hook", host],
    server: join(home, ".toolgate", "run", "*.server"),
    toolgate: true,
  };
}

/**
 * Stops the resident hook servers a bench started under `home`, and waits until each has exited, before its
 * temporary directory goes: a server writes its code cache under `home` as it exits, which would land in a directory
 * being removed (rmSync then fails with ENOTEMPTY). Every server of that run directory: those its `.server` files
 * name, and (Linux /proc) one whose file another server took over.
 */
export function stopResidentServers(home) {
  const directory = join(home, ".toolgate", "run");
  if (!existsSync(directory)) return;
  const pids = new Set();
  for (const name of readdirSync(directory).filter((file) => file.endsWith(".server"))) {
    const pid = Number(readFileSync(join(directory, name), "utf8").trim().split(" ")[2]);
    if (Number.isInteger(pid) && pid > 1) pids.add(pid);
  }
  if (existsSync("/proc")) {
    for (const entry of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
      try {
        const argv = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
        if (argv.includes("--serve") && argv.some((arg) => arg.startsWith(`${directory}/`))) pids.add(Number(entry));
      } catch {
        // gone, or not ours to read
      }
    }
  }
  const alive = (pid) => {
    try {
      process.kill(pid, 0);
    } catch {
      return false;
    }
    try {
      return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8")); // exited, not reaped yet: gone
    } catch {
      return true;
    }
  };
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (const pid of pids) {
    try {
      process.kill(pid);
    } catch {
      continue; // gone already
    }
    const deadline = Date.now() + 10_000;
    while (alive(pid) && Date.now() < deadline) Atomics.wait(pause, 0, 0, 20);
    if (alive(pid)) process.kill(pid, "SIGKILL");
  }
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
        jobs.push({
          round,
          hook,
          event,
          argv: hooks[hook].argv,
          input: input({ round, hook, event, index }),
          ...(hooks[hook].server === undefined ? {} : { server: hooks[hook].server }),
        });
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
