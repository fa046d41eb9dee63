// toolgate's Qwen Code hook (`toolgate hook qwen`), cold spawns per event, against a bare `node -e 0` measured in
// the same interleaved rounds, as bench/gemini-hook.bench.mjs does for Gemini CLI. Events are the recorded Qwen Code
// 0.24.4 payloads (test/fixtures/qwen/); `transcript_path` is the recorded stubborn chat file
// (test/fixtures/transcripts/qwen/stubborn.chat.jsonl) cut after its second tool result, as Qwen has written it when
// it fires the continuation's UserPromptSubmit. Reported: median CPU time (user + sys of the child, wait4 rusage)
// and median wall time, and their ratios to `node -e 0`.
//
// Usage: npm run build && node bench/qwen-hook.bench.mjs      BENCH_RUNS=20 (rounds)
// Needs python3 (os.wait4 gives a child's own CPU time).
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const repository = join(here, "..");
const runs = Number(process.env.BENCH_RUNS ?? 20);
if (!existsSync(join(repository, "dist", "cli", "main.js"))) throw new Error("dist/ is missing: run npm run build");
const root = mkdtempSync(join(tmpdir(), "toolgate-qwen-bench-"));
cpSync(join(repository, "dist"), join(root, "snapshot", "dist"), { recursive: true });
cpSync(join(repository, "package.json"), join(root, "snapshot", "package.json"));
symlinkSync(join(repository, "node_modules"), join(root, "snapshot", "node_modules"), "dir");
const node = process.execPath;
const entry = join(root, "snapshot", "dist", "hook", "toolgate-hook.cjs");
const main = join(root, "snapshot", "dist", "cli", "main.js");
const hooks = [{ name: "node -e 0", argv: [node, "-e", "0"] }];
if (existsSync(entry))
  hooks.push({ name: "toolgate hook entry (dist/hook, bundled)", argv: [node, entry, "hook", "qwen"] });
hooks.push({ name: "toolgate hook qwen (dist/cli/main.js)", argv: [node, main, "hook", "qwen"] });

try {
  const home = join(root, "home");
  const project = join(root, "project");
  mkdirSync(join(home, ".qwen"), { recursive: true });
  mkdirSync(project);
  const fixture = (name) => JSON.parse(readFileSync(join(repository, "test", "fixtures", "qwen", name), "utf8"));
  const transcript = join(root, "chat.jsonl");
  const lines = readFileSync(
    join(repository, "test", "fixtures", "transcripts", "qwen", "stubborn.chat.jsonl"),
    "utf8",
  ).split("\n");
  let toolResults = 0;
  const cut = lines.findIndex((line) => line.includes('"type":"tool_result"') && ++toolResults === 2);
  writeFileSync(transcript, `${lines.slice(0, cut + 1).join("\n")}\n`);
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, TOOLGATE_DB: join(root, "toolgate.db") };
  const events = [
    ["PreToolUse (echo one)", () => fixture("pre-tool-use.json")],
    ["PostToolBatch, a call Qwen's rule denied", () => fixture("post-tool-batch-denied.json")],
    ["UserPromptSubmit continuation (reads the transcript)", () => fixture("user-prompt-submit-continuation.json")],
    ["PostToolUse success", () => fixture("post-tool-use.json")],
    ["PostToolUseFailure EACCES", () => fixture("post-tool-use-failure.json")],
    ["Stop (reads the transcript)", () => fixture("stop.json")],
  ];
  const input = ({ round, hook, event }) =>
    JSON.stringify({
      ...events[event][1](),
      session_id: `bench-${round}-${hook}-${event}`,
      transcript_path: transcript,
      cwd: project,
      timestamp: new Date().toISOString(),
    });
  console.log(
    `${new Date().toISOString()}, node ${process.version}, load average ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`,
  );
  const cases = hooks.flatMap((_, hook) => events.map((__, event) => ({ hook, event })));
  const jobs = [];
  for (let round = -1; round < runs; round++) {
    const offset = ((round % cases.length) + cases.length) % cases.length;
    for (const { hook, event } of [...cases.slice(offset), ...cases.slice(0, offset)]) {
      jobs.push({ round, hook, event, argv: hooks[hook].argv, input: input({ round, hook, event }) });
    }
  }
  const results = runJobs({ jobs, env, cwd: project, scratch: root });
  for (const [index, result] of results.entries()) {
    const job = jobs[index];
    if (result.status !== 0)
      throw new Error(`${hooks[job.hook].name} on ${events[job.event][0]} exited ${result.status}: ${result.stderr}`);
    if (job.hook > 0 && job.event === 1 && !result.stdout.includes("[toolgate] Denied by rule Bash(rm *)")) {
      throw new Error(`${hooks[job.hook].name} did not count the rule denial: ${result.stdout} ${result.stderr}`);
    }
  }
  const median = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  };
  const samples = (hook, event, key) =>
    results
      .filter((_, i) => jobs[i].round >= 0 && jobs[i].hook === hook && (event === undefined || jobs[i].event === event))
      .map((result) => result[key]);
  const baseCpu = median(samples(0, undefined, "cpu"));
  const baseWall = median(samples(0, undefined, "wall"));
  console.log(`\n${runs} rounds; node -e 0: CPU ${baseCpu.toFixed(1)} ms, wall ${baseWall.toFixed(1)} ms (median)\n`);
  console.log("| event | hook | CPU ms | CPU ratio | wall ms | wall ratio |\n|---|---|---|---|---|---|");
  for (const [event, [eventName]] of events.entries()) {
    for (const [hook, { name }] of hooks.entries()) {
      if (hook === 0) continue;
      const cpu = median(samples(hook, event, "cpu"));
      const wall = median(samples(hook, event, "wall"));
      console.log(
        `| ${eventName} | ${name} | ${cpu.toFixed(1)} | ${(cpu / baseCpu).toFixed(2)}x | ${wall.toFixed(1)} | ${(wall / baseWall).toFixed(2)}x |`,
      );
    }
  }
  console.log(
    `\ndone ${new Date().toISOString()}, load average ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`,
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}

/** Runs each job as a cold child (python3 fork/exec + wait4): its own CPU time and wall time, stdout, stderr. */
function runJobs({ jobs, env, cwd, scratch }) {
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
