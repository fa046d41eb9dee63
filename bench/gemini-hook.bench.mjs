import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { median, runJobs } from "./support/cold-spawn.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repository = join(here, "..");
const runs = Number(process.env.BENCH_RUNS ?? 20);
if (!existsSync(join(repository, "dist", "cli", "main.js"))) throw new Error("dist/ is missing: run npm run build");
const root = mkdtempSync(join(tmpdir(), "toolgate-gemini-bench-"));
cpSync(join(repository, "dist"), join(root, "snapshot", "dist"), { recursive: true });
cpSync(join(repository, "package.json"), join(root, "snapshot", "package.json"));
symlinkSync(join(repository, "node_modules"), join(root, "snapshot", "node_modules"), "dir");
const node = process.execPath;
const entry = join(root, "snapshot", "dist", "hook", "toolgate-hook.cjs");
const main = join(root, "snapshot", "dist", "cli", "main.js");
const hooks = [{ name: "node -e 0", argv: [node, "-e", "0"] }];
if (existsSync(entry))
  hooks.push({ name: "toolgate hook entry (dist/hook, bundled)", argv: [node, entry, "hook", "gemini"] });
hooks.push({ name: "toolgate hook gemini (dist/cli/main.js)", argv: [node, main, "hook", "gemini"] });

try {
  const home = join(root, "home");
  const project = join(root, "project");
  mkdirSync(join(home, ".gemini", "policies"), { recursive: true });
  mkdirSync(project);
  writeFileSync(
    join(home, ".gemini", "policies", "deny-rm.toml"),
    '[[rule]]\ntoolName = "run_shell_command"\ndecision = "allow"\npriority = 100\n\n[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "rm"\ndecision = "deny"\npriority = 200\n',
  );
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, TOOLGATE_DB: join(root, "toolgate.db") };
  const shell = (command) => ({ tool_name: "run_shell_command", tool_input: { command } });
  const events = [
    ["BeforeTool allowed (ls)", () => ({ hook_event_name: "BeforeTool", ...shell("ls -la") })],
    ["BeforeTool policy-denied (rm -rf)", () => ({ hook_event_name: "BeforeTool", ...shell("rm -rf build") })],
    [
      "AfterTool success",
      () => ({
        hook_event_name: "AfterTool",
        ...shell("ls -la"),
        tool_response: { llmContent: "<untrusted_context>\nOutput: a\nb\n</untrusted_context>", returnDisplay: "a\nb" },
      }),
    ],
    [
      "AfterTool EACCES",
      () => ({
        hook_event_name: "AfterTool",
        ...shell("./not-executable.sh"),
        tool_response: {
          llmContent:
            "<untrusted_context>\nOutput: /usr/bin/bash: line 4: ./not-executable.sh: Permission denied\nExit Code: 126\n</untrusted_context>",
          returnDisplay: "/usr/bin/bash: line 4: ./not-executable.sh: Permission denied",
        },
      }),
    ],
    ["BeforeAgent", () => ({ hook_event_name: "BeforeAgent", prompt: "go on" })],
    ["AfterAgent", () => ({ hook_event_name: "AfterAgent", prompt: "go on", prompt_response: "done" })],
  ];
  const input = ({ round, hook, event }) =>
    JSON.stringify({
      session_id: `bench-${round}-${hook}`,
      transcript_path: join(root, "transcript.jsonl"),
      cwd: project,
      timestamp: new Date().toISOString(),
      ...events[event][1](),
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
    if (job.hook > 0 && job.event === 1 && !/"decision":"deny"/.test(result.stdout)) {
      throw new Error(`${hooks[job.hook].name} did not deny rm -rf: ${result.stdout} ${result.stderr}`);
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
