// A long session's Stop (issue 30 item 1, every hook event): Claude Code's Stop hook in a session whose record buffer
// (escalation.recordBufferSize, 100) has evicted records, when the transcript shows one refusal no hook saw (a person's
// "no"). The Stop checks that refusal against the session's records; before the state kept the ids of evicted records
// (core/evicted-ids.ts), only the denial store could tell, so this Stop opened SQLite and drained the spool.
// Usage: npm run build && node bench/hook-long-session.bench.mjs
//   BENCH_RUNS=15 (rounds), BENCH_DENIALS=120 (the session's rule-denied calls before the Stop)
//   TOOLGATE_HOOK_BUNDLE=<dist>/hook/toolgate-hook.cjs: another build's hook entry, measured in the same rounds
//   BENCH_SHORT=1: the short mode the test suite runs (a buffer of 3, 5 denials, one round)
// Each build prepares its own session (its own HOME, state, spool and database, so a state is always the format its
// build writes); each round times `node -e 0` and each build's Stop, every Stop in a fresh copy of its prepared session,
// and checks the refusal was recorded exactly once. This build's resident hook (docs/resident-hook.md) answers the same
// Stop in each round too: its client's CPU plus its server's for the event. Its session is copied afresh into one
// HOME each round (where the server's file stays), its server started before the first round.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { hookBuilds, median, residentHook, runJobs, stopResidentServers } from "./support/cold-spawn.mjs";
import { goal } from "./support/goals.mjs";
import { short, sizeFrom } from "./support/short.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repository = join(here, "..");
const runs = sizeFrom("BENCH_RUNS", 15, 1);
const denials = sizeFrom("BENCH_DENIALS", 120, 5);
const entry = join(repository, "dist", "hook", "toolgate-hook.cjs");
if (!existsSync(entry)) throw new Error("dist/hook/toolgate-hook.cjs is missing: run npm run build first");
const node = process.execPath;
const builds = hookBuilds(entry);
const session = "bench-long-session";
const root = mkdtempSync(join(tmpdir(), "toolgate-long-session-bench-"));

/** A prepared session's paths: its HOME, project, transcript and database under `dir`. */
const paths = (dir) => ({
  home: join(dir, "home"),
  project: join(dir, "project"),
  transcript: join(dir, "transcript.jsonl"),
  database: join(dir, "toolgate.db"),
});
const environment = (dir) => ({
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: paths(dir).home,
  XDG_CACHE_HOME: join(paths(dir).home, ".cache"),
  TOOLGATE_DB: paths(dir).database,
  CLAUDE_CODE_SESSION_ATTENDED: "0",
});
const hookInput = (dir, event) =>
  JSON.stringify({
    session_id: session,
    transcript_path: paths(dir).transcript,
    cwd: paths(dir).project,
    permission_mode: "default",
    ...event,
  });
const stop = { hook_event_name: "Stop", stop_hook_active: false };

/** The session as a build leaves it: `denials` rule-denied calls recorded and drained, then a person's "no". */
function prepare(build, dir) {
  const { project, transcript } = paths(dir);
  mkdirSync(join(project, ".claude"), { recursive: true });
  mkdirSync(paths(dir).home, { recursive: true });
  writeFileSync(join(project, ".claude", "settings.json"), JSON.stringify({ permissions: { deny: ["Bash(rm:*)"] } }));
  // the short mode: a buffer of 3, so 5 denials evict two (the full mode keeps toolgate's default of 100)
  if (short) writeFileSync(join(project, ".toolgate.json"), JSON.stringify({ escalation: { recordBufferSize: 3 } }));
  writeFileSync(transcript, "");
  const hook = (event) => {
    const result = spawnSync(node, [build.entry, "hook", "claude-code"], {
      input: hookInput(dir, event),
      env: environment(dir),
      cwd: project,
      encoding: "utf8",
    });
    if (result.status !== 0 && result.status !== 2) throw new Error(`${build.name}: ${result.stderr}`);
    return result;
  };
  hook({ hook_event_name: "UserPromptSubmit", prompt: "clean up" });
  for (let index = 0; index < denials; index++) {
    const denied = hook({
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: `rm -rf build-${index}` },
      tool_use_id: `toolu_bench_rm_${index}`,
    });
    if (!/"permissionDecision":"deny"/.test(denied.stdout)) throw new Error(`${build.name} did not deny rm`);
  }
  hook(stop);
  // the session's records shipped to SQLite, as a long session's are (a drain at least every 30 s)
  hook({ hook_event_name: "SessionEnd", reason: "other" });
  waitForDrain(paths(dir).home);
  // and the drain's database closed (its WAL files go with its last connection), so copies of it are whole
  const closedBy = Date.now() + 10_000;
  while (["-wal", "-shm"].some((suffix) => existsSync(`${paths(dir).database}${suffix}`)) && Date.now() < closedBy) {
    spawnSync("sleep", ["0.05"]);
  }
  const at = new Date().toISOString();
  const call = { type: "tool_use", id: "toolu_bench_person_no", name: "Bash", input: { command: "git push" } };
  const no =
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the " +
    "new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";
  const lines = [
    {
      type: "assistant",
      sessionId: session,
      timestamp: at,
      message: { id: "msg_bench", role: "assistant", content: [call] },
    },
    {
      type: "user",
      sessionId: session,
      timestamp: at,
      message: { role: "user", content: [{ type: "tool_result", content: no, is_error: true, tool_use_id: call.id }] },
    },
  ];
  writeFileSync(transcript, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`, { flag: "a" });
}

/** Waits (at most 10 s) until the spool under `home` is empty: SessionEnd drains in a detached process. */
function waitForDrain(home) {
  const spool = join(home, ".toolgate", "spool");
  const pending = () =>
    existsSync(spool) &&
    readdirSync(spool, { recursive: true }).some(
      (name) => String(name).endsWith(".jsonl") || String(name).endsWith(".claimed"),
    );
  const until = Date.now() + 10_000;
  while (pending() && Date.now() < until) spawnSync("sleep", ["0.1"]);
  if (pending()) throw new Error(`the spool under ${home} was not drained`);
}

/** The session's state after a Stop: its total and how many of its records name the person's "no". */
function recordedOnce(dir) {
  const file = join(paths(dir).home, ".toolgate", "state", `s-${session}.json`);
  const { state } = JSON.parse(readFileSync(file, "utf8"));
  const named = state.records.filter((record) => record.toolUseId === "toolu_bench_person_no").length;
  return state.total === denials + 1 && named === 1;
}

/** `dir` as `prepared` is, but for the resident server's file under its HOME (the server keeps running there). */
function refresh(prepared, dir) {
  for (const path of [
    paths(dir).project,
    paths(dir).transcript,
    join(paths(dir).home, ".toolgate", "state"),
    join(paths(dir).home, ".toolgate", "spool"),
  ]) {
    rmSync(path, { recursive: true, force: true });
  }
  for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(`${paths(dir).database}${suffix}`, { force: true });
  cpSync(prepared, dir, { recursive: true, force: true, filter: settled });
}

/** A copy leaves out a file being written (`*.tmp`: a detached drain's code cache, renamed once whole). */
const settled = (source) => !source.endsWith(".tmp");

const residentDir = join(root, "round-resident");
const resident = residentHook({ entry, host: "claude-code", home: paths(residentDir).home });
try {
  const prepared = builds.map((build, index) => {
    const dir = join(root, `prepared-${index}`);
    prepare(build, dir);
    return dir;
  });
  const samples = builds.map(() => []);
  const residentSamples = [];
  const residentStop = (dir) =>
    runJobs({
      jobs: [{ argv: resident.argv, input: hookInput(dir, stop), server: resident.server }],
      env: environment(dir),
      cwd: paths(dir).project,
      scratch: root,
    })[0];
  if (resident !== undefined) {
    // the first event finds no server: the Node hook answers and starts one, for the rounds below (not counted)
    refresh(prepared[0], residentDir);
    residentStop(residentDir);
    const until = Date.now() + 10_000;
    const run = join(paths(residentDir).home, ".toolgate", "run");
    while (!(existsSync(run) && readdirSync(run).some((name) => name.endsWith(".server"))) && Date.now() < until) {
      spawnSync("sleep", ["0.05"]);
    }
  }
  const baseline = [];
  for (let round = 0; round < runs; round++) {
    // `node -e 0`, then each build's Stop and the resident hook's (-2), the order turned each round
    const order = [-1, ...builds.keys(), ...(resident === undefined ? [] : [-2])];
    const turned = [...order.slice(round % order.length), ...order.slice(0, round % order.length)];
    for (const which of turned) {
      if (which === -2) {
        refresh(prepared[0], residentDir);
        const result = residentStop(residentDir);
        if (result.status !== 0) throw new Error(`the resident hook exited ${result.status}: ${result.stderr}`);
        // the server's CPU for the event: none when the Node hook answered instead
        if (!(result.server > 0)) throw new Error("no resident server answered the Stop");
        if (!recordedOnce(residentDir)) throw new Error("the resident hook did not record the refusal exactly once");
        residentSamples.push(result.cpu);
        continue;
      }
      if (which < 0) {
        const [result] = runJobs({
          jobs: [{ argv: [node, "-e", "0"], input: "" }],
          env: environment(root),
          cwd: root,
          scratch: root,
        });
        baseline.push(result.cpu);
        continue;
      }
      const dir = join(root, `round-${which}`);
      rmSync(dir, { recursive: true, force: true });
      cpSync(prepared[which], dir, { recursive: true, filter: settled });
      const [result] = runJobs({
        jobs: [{ argv: [node, builds[which].entry, "hook", "claude-code"], input: hookInput(dir, stop) }],
        env: environment(dir),
        cwd: paths(dir).project,
        scratch: root,
      });
      if (result.status !== 0) throw new Error(`${builds[which].name} exited ${result.status}: ${result.stderr}`);
      if (!recordedOnce(dir)) throw new Error(`${builds[which].name} did not record the refusal exactly once`);
      samples[which].push(result.cpu);
    }
  }
  const base = median(baseline);
  console.log(
    `${denials} rule-denied calls, then a Stop finding one refusal no hook saw; ${runs} rounds; node ${process.version}`,
  );
  console.log(`\n| hook | Stop CPU ms (median) | ratio to node -e 0 (${base.toFixed(1)} ms) |\n|---|---|---|`);
  for (const [index, build] of builds.entries()) {
    const cpu = median(samples[index]);
    console.log(`| ${build.name} | ${cpu.toFixed(1)} | ${(cpu / base).toFixed(2)}x |`);
  }
  if (resident !== undefined) {
    const cpu = median(residentSamples);
    console.log(`| ${resident.name} | ${cpu.toFixed(1)} | ${(cpu / base).toFixed(2)}x |`);
  }
  const ours = median(samples[0]) / base;
  goal({
    goal: "a long session's Stop (past the record buffer, one new refusal) <= 1.2x `node -e 0` CPU, clean environment",
    measured: `${ours.toFixed(2)}x (${median(samples[0]).toFixed(1)} vs ${base.toFixed(1)} ms)`,
    met: ours <= 1.2,
    command: `bench/hook-long-session.bench.mjs (BENCH_RUNS=${runs}, BENCH_DENIALS=${denials})`,
  });
  if (resident !== undefined) {
    const theirs = median(residentSamples) / base;
    goal({
      goal: "a long session's Stop (past the record buffer, one new refusal) <= 1.2x `node -e 0` CPU, clean environment, resident hook (client + server)",
      measured: `${theirs.toFixed(2)}x (${median(residentSamples).toFixed(1)} vs ${base.toFixed(1)} ms)`,
      met: theirs <= 1.2,
      command: `bench/hook-long-session.bench.mjs (BENCH_RUNS=${runs}, BENCH_DENIALS=${denials})`,
    });
  }
} finally {
  stopResidentServers(paths(residentDir).home);
  // a SessionEnd's drain runs in a detached process that may still be writing: retried until it is done
  rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
}
