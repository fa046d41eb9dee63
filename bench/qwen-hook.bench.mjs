import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { median, runJobs } from "./support/cold-spawn.mjs";

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
