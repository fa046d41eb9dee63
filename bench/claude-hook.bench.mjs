// Cold round trip of toolgate's Claude Code hook (one PreToolUse event on stdin, answer on stdout) against a bare
// `node -e 0` start, all spawned the same way: the bundled entry `toolgate install` writes
// (dist/hook/toolgate-hook.cjs) and the CLI's `toolgate hook claude-code`. Goal (issue 6, P2): at most 1.3x.
// Usage: npm run bench -- claude-hook   (wall time; bench/hook-peers.bench.mjs measures CPU time per event type)
//        BENCH_RUNS=30 (runs per case); BENCH_SHORT=1: the short mode the test suite runs (one run per case)
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { sizeFrom } from "./support/short.mjs";

const main = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "cli", "main.js");
const entry = join(dirname(main), "..", "hook", "toolgate-hook.cjs");
const root = mkdtempSync(join(tmpdir(), "toolgate-hook-bench-"));
const project = join(root, "project");
mkdirSync(join(project, ".claude"), { recursive: true });
writeFileSync(join(project, ".claude", "settings.json"), JSON.stringify({ permissions: { deny: ["Bash(rm:*)"] } }));
const env = {
  ...process.env,
  HOME: join(root, "home"),
  TOOLGATE_DB: join(root, "toolgate.db"),
  CLAUDE_CODE_SESSION_ATTENDED: "0",
};
const event = (command, index) =>
  JSON.stringify({
    session_id: "bench-session",
    transcript_path: join(root, "transcript.jsonl"),
    cwd: project,
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command, description: command },
    tool_use_id: `toolu_bench_${index}`,
  });

function time(args, input) {
  const start = performance.now();
  const result = spawnSync(process.execPath, args, { input, env, cwd: project, encoding: "utf8" });
  const elapsed = performance.now() - start;
  if (result.status !== 0) throw new Error(`exit ${result.status}: ${result.stderr}`);
  return elapsed;
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const runs = sizeFrom("BENCH_RUNS", 30, 1);
const cases = [
  ["node -e 0", (index) => time(["-e", "0"], event("ls", index))],
  ["hook entry: allowed call (ls)", (index) => time([entry, "hook", "claude-code"], event("ls", index))],
  [
    "hook entry: rule-denied call (rm -rf)",
    (index) => time([entry, "hook", "claude-code"], event(`rm -rf build-${index}`, index)),
  ],
  ["CLI: allowed call (ls)", (index) => time([main, "hook", "claude-code"], event("ls", index))],
  [
    "CLI: rule-denied call (rm -rf)",
    (index) => time([main, "hook", "claude-code"], event(`rm -rf build-${index}`, index)),
  ],
];
for (const [, run] of cases) run(-1); // warm the file cache and create the database
const results = cases.map(([name, run]) => {
  const samples = Array.from({ length: runs }, (_, index) => run(index));
  return { name, median: median(samples) };
});
const base = results[0].median;
console.log("| case | median ms | ratio to node -e 0 |\n|---|---|---|");
for (const result of results)
  console.log(`| ${result.name} | ${result.median.toFixed(1)} | ${(result.median / base).toFixed(2)}x |`);
rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }); // a detached drain may still be writing
