// Shared by the hook benchmarks (hook-peers, codex-hook, gemini-hook, qwen-hook): cold child processes timed by
// their own CPU (python3 fork/exec + os.wait4, so nothing of the parent's start-up is counted), and the median.
import { spawnSync } from "node:child_process";

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
