// A session's first event that must ask which of its calls are recorded already (issue 30 item 1): Codex's
// PreToolUse when the rollout shows refusals and the session has no state yet, so the hook reads the denial store.
// Timed with a spool backlog of other sessions' batches (0, 20 and 100 files: what waits between two drains of a busy
// machine), because that read used to drain the whole spool into SQLite first, and wait for any delivery another
// process had under way, on a gating event. It now reads the spool as it stands (only this session's files) and then
// the store (`sessionRecords`, src/store/spooled-denial-store.ts).
// Usage: npm run build && node bench/hook-first-read.bench.mjs
//   BENCH_RUNS=15 (rounds), BENCH_BACKLOGS=0,20,100 (spool files before each timed event)
//   TOOLGATE_HOOK_BUNDLE=<dist>/hook/toolgate-hook.cjs: another build's hook entry, measured in the same rounds
//   BENCH_SHORT=1: the short mode the test suite runs (backlogs 0 and 2, one round)
// Each build has its own HOME, database and spool; its backlog is written by the build itself (another session's
// record batches, named as that build names them) and copied back into its spool before each timed event.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { hookBuilds, median, runJobs } from "./support/cold-spawn.mjs";
import { short, sizeFrom } from "./support/short.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repository = join(here, "..");
const runs = sizeFrom("BENCH_RUNS", 15, 1);
const backlogs = (process.env.BENCH_BACKLOGS ?? (short ? "0,2" : "0,20,100")).split(",").map(Number);
if (backlogs.some((count) => !Number.isInteger(count) || count < 0))
  throw new Error("BENCH_BACKLOGS: counts, e.g. 0,20");
const entry = join(repository, "dist", "hook", "toolgate-hook.cjs");
if (!existsSync(entry)) throw new Error("dist/hook/toolgate-hook.cjs is missing: run npm run build first");
const node = process.execPath;
const builds = hookBuilds(entry);
const root = mkdtempSync(join(tmpdir(), "toolgate-first-read-bench-"));
const rollout = join(root, "rollout.jsonl");
const quietRollout = join(root, "quiet.rollout.jsonl");
const project = join(root, "project");

const environment = (dir) => ({
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: join(dir, "home"),
  CODEX_HOME: join(dir, "home", ".codex"),
  TOOLGATE_DB: join(dir, "toolgate.db"),
});
const firstEvent = (session, callId = "call_bench_rm", transcript = rollout) =>
  JSON.stringify({
    session_id: session,
    turn_id: "turn-1",
    transcript_path: transcript,
    cwd: project,
    model: "fake-model",
    permission_mode: "bypassPermissions",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: "rm -rf build" },
    tool_use_id: callId,
  });
const { spoolDirectoryFor } = await import(
  pathToFileURL(join(repository, "dist", "store", "spool-directory-for.js")).href
);
const { resolveStoreLocation } = await import(
  pathToFileURL(join(repository, "dist", "store", "resolve-store-location.js")).href
);
/** the spool a build's hook writes to in `dir` (the store the environment selects) */
const spoolOf = (dir) => {
  const env = environment(dir);
  return spoolDirectoryFor(resolveStoreLocation({ env, home: env.HOME }), { home: env.HOME });
};
const batchFiles = (spool) => readdirSync(spool).filter((name) => name.startsWith("denials-"));

/** A build's HOME with its database created, and its backlogs: spool files its own hook wrote for other sessions. */
function prepare(build, dir) {
  mkdirSync(join(dir, "home", ".codex", "rules"), { recursive: true });
  writeFileSync(
    join(dir, "home", ".codex", "rules", "deny-rm.rules"),
    'prefix_rule(pattern = ["rm"], decision = "forbidden", justification = "rm is forbidden here")\n',
  );
  let calls = 0;
  const hook = (session, transcript = rollout) => {
    const result = spawnSync(node, [build.entry, "hook", "codex"], {
      input: firstEvent(session, `call_bench_${calls++}`, transcript),
      env: environment(dir),
      cwd: project,
      encoding: "utf8",
    });
    if (!/"permissionDecision":"deny"/.test(result.stdout)) throw new Error(`${build.name}: ${result.stderr}`);
  };
  hook("bench-prepare");
  // the database as after any earlier session: created by a drain
  const drained = spawnSync(node, [join(repository, "dist", "cli", "main.js"), "report", "--json"], {
    env: environment(dir),
    cwd: project,
    encoding: "utf8",
  });
  if (drained.status !== 0 || !existsSync(join(dir, "toolgate.db"))) throw new Error(`report: ${drained.stderr}`);
  // the backlog: record batches of another session, written by this build; its rollout shows no refusal, so no event
  // that writes them reads the store (which drained the spool in builds before `sessionRecords`)
  const spool = spoolOf(dir);
  for (const name of batchFiles(spool)) rmSync(join(spool, name));
  const most = Math.max(...backlogs);
  while (batchFiles(spool).length < most) {
    const before = batchFiles(spool).length;
    hook("bench-backlog", quietRollout);
    if (batchFiles(spool).length <= before) throw new Error(`${build.name}: a denied call wrote no spool file`);
    for (const name of batchFiles(spool)) {
      if (readFileSync(join(spool, name), "utf8").startsWith('{"kind":"events"')) rmSync(join(spool, name));
    }
  }
  const written = batchFiles(spool).sort();
  const templates = new Map();
  for (const count of new Set(backlogs)) {
    const template = join(dir, `backlog-${count}`);
    mkdirSync(template);
    for (const name of written.slice(0, count)) cpSync(join(spool, name), join(template, name));
    templates.set(count, template);
  }
  return { spool, templates };
}

try {
  mkdirSync(project);
  cpSync(join(repository, "test", "fixtures", "codex", "forbidden.rollout.jsonl"), rollout);
  writeFileSync(quietRollout, "");
  const prepared = builds.map((build, index) => {
    const dir = join(root, `build-${index}`);
    return { dir, ...prepare(build, dir) };
  });
  const samples = new Map();
  const baseline = [];
  const cases = [-1, ...backlogs.flatMap((count) => builds.map((_, index) => ({ count, index })))];
  for (let round = 0; round < runs; round++) {
    const turned = [...cases.slice(round % cases.length), ...cases.slice(0, round % cases.length)];
    for (const which of turned) {
      if (which === -1) {
        const [result] = runJobs({ jobs: [{ argv: [node, "-e", "0"], input: "" }], env: {}, cwd: root, scratch: root });
        baseline.push(result.cpu);
        continue;
      }
      const { dir, spool, templates } = prepared[which.index];
      for (const name of batchFiles(spool)) rmSync(join(spool, name));
      const template = templates.get(which.count);
      for (const name of readdirSync(template)) cpSync(join(template, name), join(spool, name));
      const [result] = runJobs({
        jobs: [
          {
            argv: [node, builds[which.index].entry, "hook", "codex"],
            input: firstEvent(`bench-first-${round}-${which.count}`),
          },
        ],
        env: environment(dir),
        cwd: project,
        scratch: root,
      });
      if (result.status !== 0 || !/"permissionDecision":"deny"/.test(result.stdout))
        throw new Error(`${builds[which.index].name} did not deny rm (${result.status}): ${result.stderr}`);
      const key = `${which.count}/${which.index}`;
      samples.set(key, [...(samples.get(key) ?? []), result.cpu]);
    }
  }
  const base = median(baseline);
  console.log(
    `Codex PreToolUse, a session's first, reading which calls are recorded; ${runs} rounds; node ${process.version}`,
  );
  console.log(`\n| spool backlog (files) | hook | CPU ms (median) | ratio to node -e 0 (${base.toFixed(1)} ms) |`);
  console.log("|---|---|---|---|");
  for (const count of backlogs) {
    for (const [index, build] of builds.entries()) {
      const cpu = median(samples.get(`${count}/${index}`));
      console.log(`| ${count} | ${build.name} | ${cpu.toFixed(1)} | ${(cpu / base).toFixed(2)}x |`);
    }
  }
} finally {
  rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
}
