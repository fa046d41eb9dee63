// The peers benchmark (issue 13, item 3): toolgate's Claude Code hook against the single-purpose hooks people
// already run on every tool call (cc-safety-net, block-no-verify, pinned in bench/package.json), on the same events,
// for each hook event type toolgate installs. Cold spawns, cases interleaved round by round (the order rotates each
// round), one temporary HOME for the whole run. Reported: median CPU time (user + sys of the child, from wait4's
// rusage) and median wall time, and both as ratios to a bare `node -e 0` measured in the same rounds.
// Goal (issue 13): every event <= 1.2x CPU of `node -e 0`, and below every peer.
//
// Usage: npm run build && npm run bench:deps && node bench/hook-peers.bench.mjs
//   BENCH_RUNS=30 (rounds; each round spawns every hook on every event once)
//   TOOLGATE_HOOK_BUNDLE=dist/… (a bundled hook entry: measured as one more case, `node <bundle> claude-code`)
//   TOOLGATE_BENCH_PEERS=<dir> (a node_modules folder holding the peers, default bench/node_modules)
//   BENCH_STORAGE=off (leave out the two storage-only reference rows)
//   BENCH_ENV=inherit (children get this process's environment; default: PATH only, plus the temporary HOME)
// Needs python3 (os.wait4 gives a child's own CPU time with microsecond resolution; Node has no per-child rusage).
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const runs = Number(process.env.BENCH_RUNS ?? 30);
const main = join(here, "..", "dist", "cli", "main.js");
const peers = resolve(process.env.TOOLGATE_BENCH_PEERS ?? join(here, "node_modules"));
const transcriptFixture = join(here, "..", "test", "fixtures", "transcripts", "claude-code", "stubborn.session.jsonl");

const node = process.execPath;
const version = (name) => JSON.parse(readFileSync(join(peers, name, "package.json"), "utf8")).version;
const hooks = [
  { name: "node -e 0", argv: [node, "-e", "0"] },
  { name: "toolgate hook (dist/cli/main.js)", argv: [node, main, "hook", "claude-code"], toolgate: true },
];
if (process.env.TOOLGATE_HOOK_BUNDLE) {
  const bundle = resolve(process.env.TOOLGATE_HOOK_BUNDLE);
  hooks.push({
    name: `toolgate hook (${bundle.split("/").slice(-2).join("/")})`,
    argv: [node, bundle, "claude-code"],
    toolgate: true,
  });
}
// Reference rows, not hooks: what the hot path's storage alone costs in a cold process (read the event from stdin,
// one session-state update, one record appended, exit), with the state file store + spool toolgate's hook moves to
// (issue 13, item 2), and with the SQLite store it uses today.
const dist = (path) => pathToFileURL(join(here, "..", "dist", path)).href;
const storageScript = (open) => `
import { readFileSync } from "node:fs";
const event = JSON.parse(readFileSync(0, "utf8"));
${open}
await store.sessions.update(event.session_id, (state) => ({ total: (state?.total ?? 0) + 1 }));
await store.denials.append([{ seq: 1, sessionId: event.session_id, turn: 0, tool: "Bash", toolUseId: event.tool_use_id ?? "t", source: "rule", reason: "r", signature: "s", pattern: "p", inputSummary: "i", input: {}, at: Date.now(), timestamp: new Date().toISOString() }]);
await store.close();`;
if (process.env.BENCH_STORAGE !== "off") {
  hooks.push({
    name: "storage only: state file + spool (dist/store/file)",
    argv: [
      node,
      "--input-type=module",
      "-e",
      storageScript(`const { createLocalFirstStore } = await import(${JSON.stringify(dist("store/file/local-first-store.js"))});
const home = process.env.HOME;
const store = createLocalFirstStore({ stateDirectory: home + "/.toolgate/state", spoolDirectory: home + "/.toolgate/spool", open: async () => { throw new Error("not on the hot path"); } });`),
    ],
  });
  hooks.push({
    name: "storage only: SQLite store (dist/store/sqlite)",
    argv: [
      node,
      "--input-type=module",
      "-e",
      storageScript(`const { createSqliteStore } = await import(${JSON.stringify(dist("store/sqlite/sqlite-store.js"))});
const store = await createSqliteStore({ filename: process.env.HOME + "/.toolgate/bench-storage.db" });`),
    ],
  });
}
const ccsn = join(peers, "cc-safety-net", "dist", "bin", "cc-safety-net.js");
const bnv = join(peers, "block-no-verify", "dist", "cli.js");
if (existsSync(ccsn))
  hooks.push({ name: `cc-safety-net ${version("cc-safety-net")}`, argv: [node, ccsn, "hook", "--claude-code"] });
else console.log(`cc-safety-net not found under ${peers}: run npm run bench:deps (bench/package.json pins it)`);
if (existsSync(bnv)) hooks.push({ name: `block-no-verify ${version("block-no-verify")}`, argv: [node, bnv] });
else console.log(`block-no-verify not found under ${peers}: run npm run bench:deps (bench/package.json pins it)`);
if (!existsSync(main)) throw new Error(`${main} is missing: run npm run build first`);

const root = mkdtempSync(join(tmpdir(), "toolgate-peers-bench-"));
try {
  const project = join(root, "project");
  mkdirSync(join(project, ".claude"), { recursive: true });
  writeFileSync(join(project, ".claude", "settings.json"), JSON.stringify({ permissions: { deny: ["Bash(rm:*)"] } }));
  const transcript = join(root, "transcript.jsonl");
  copyFileSync(transcriptFixture, transcript);
  // A minimal environment by default: variables such as NODE_EXTRA_CA_CERTS (set on this machine kind) make every
  // node start load a CA bundle (~65 ms CPU), which inflates the baseline and flatters every ratio.
  // BENCH_ENV=inherit passes this process's environment instead (HOME still temporary).
  const env = {
    ...(process.env.BENCH_ENV === "inherit" ? process.env : { PATH: process.env.PATH ?? "/usr/bin:/bin" }),
    HOME: join(root, "home"),
    TOOLGATE_DB: join(root, "toolgate.db"),
    CLAUDE_CODE_SESSION_ATTENDED: "0",
  };
  mkdirSync(env.HOME);

  const bash = (command, id) => ({ tool_name: "Bash", tool_input: { command, description: command }, tool_use_id: id });
  const events = [
    ["PreToolUse allowed (ls)", (id) => ({ hook_event_name: "PreToolUse", ...bash("ls -la", id) })],
    ["PreToolUse rule-denied (rm -rf)", (id) => ({ hook_event_name: "PreToolUse", ...bash("rm -rf build", id) })],
    [
      "PostToolUse success",
      (id) => ({
        hook_event_name: "PostToolUse",
        ...bash("ls -la", id),
        tool_response: { stdout: "a\nb", stderr: "" },
      }),
    ],
    [
      "PostToolUseFailure",
      (id) => ({
        hook_event_name: "PostToolUseFailure",
        ...bash("cat /root/x", id),
        error: "Exit code 1\nPermission denied",
      }),
    ],
    ["UserPromptSubmit", () => ({ hook_event_name: "UserPromptSubmit", prompt: "go on" })],
    ["Stop (with a 150 KB transcript)", () => ({ hook_event_name: "Stop", stop_hook_active: false })],
  ];
  const input = (round, hook, event, index) =>
    JSON.stringify({
      // one session per round and hook: state grows within a round, as in a real session, not across the run
      session_id: `bench-${round}-${hook}`,
      transcript_path: transcript,
      cwd: project,
      permission_mode: "default",
      ...events[event][1](`toolu_bench_${round}_${hook}_${index}`),
    });

  // Rounds: every (hook, event) once per round, in an order that rotates each round. Round -1 warms the file cache,
  // cc-safety-net's compile cache and toolgate's database, and is not counted.
  const cases = hooks.flatMap((_, hook) => events.map((__, event) => ({ hook, event })));
  const jobs = [];
  for (let round = -1; round < runs; round++) {
    const offset = ((round % cases.length) + cases.length) % cases.length;
    const order = [...cases.slice(offset), ...cases.slice(0, offset)];
    for (const [index, { hook, event }] of order.entries()) {
      jobs.push({ round, hook, event, argv: hooks[hook].argv, input: input(round, hook, event, index) });
    }
  }
  const results = runJobs({ jobs, env, cwd: project, scratch: root });

  // correctness first: toolgate must deny the rule-denied call, and every hook must exit 0 or 2
  for (const [index, result] of results.entries()) {
    const job = jobs[index];
    if (result.status !== 0 && result.status !== 2) {
      throw new Error(`${hooks[job.hook].name} on ${events[job.event][0]} exited ${result.status}: ${result.stderr}`);
    }
    if (hooks[job.hook].toolgate && job.event === 1 && !/"permissionDecision":"deny"/.test(result.stdout)) {
      throw new Error(`${hooks[job.hook].name} did not deny rm -rf: ${result.stdout} ${result.stderr}`);
    }
  }
  const median = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  };
  const samples = (hook, event, key) =>
    results
      .filter(
        (_, index) =>
          jobs[index].round >= 0 && jobs[index].hook === hook && (event === undefined || jobs[index].event === event),
      )
      .map((result) => result[key]);
  const baseCpu = median(samples(0, undefined, "cpu"));
  const baseWall = median(samples(0, undefined, "wall"));
  console.log(
    `${runs} rounds; node -e 0 over all rounds: CPU ${baseCpu.toFixed(1)} ms, wall ${baseWall.toFixed(1)} ms (median)\n`,
  );
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
} finally {
  rmSync(root, { recursive: true, force: true });
}

/** Runs every job in one python3 process: fork/exec, stdin from a file, wait4 for the child's own rusage. */
function runJobs({ jobs, env, cwd, scratch }) {
  const driver = `
import json, os, sys, time
spec = json.load(sys.stdin)
out = []
for index, job in enumerate(spec["jobs"]):
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
