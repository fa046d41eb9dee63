// Cold `toolgate hook gemini` (Gemini CLI's hook events) against a bare `node -e 0`, CPU and wall time, cases interleaved
// round by round (bench/support/cold-spawn.mjs). Usage: npm run build && node bench/gemini-hook.bench.mjs
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { measureHookEvents, residentHook, stopResidentServers } from "./support/cold-spawn.mjs";
import { sizeFrom } from "./support/short.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repository = join(here, "..");
// BENCH_RUNS=20 (rounds); BENCH_SHORT=1: the short mode the test suite runs (one round after the warm-up round)
// each round's events are one session per hook (a run in progress: every event after the first finds its state)
// TOOLGATE_HOOK_BUNDLE=<dist>/hook/toolgate-hook.cjs: another build's hook entry, measured in the same rounds
// BENCH_TRANSCRIPT_REPEAT=n: the session file AfterAgent reads, a recorded session with three refusals (9 KB) after
// n - 1 copies of one without (270 is about 2 MB), default 1
const runs = sizeFrom("BENCH_RUNS", 20, 1);
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
if (process.env.TOOLGATE_HOOK_BUNDLE) {
  const other = resolve(process.env.TOOLGATE_HOOK_BUNDLE);
  hooks.push({
    name: `toolgate hook (${other.split("/").slice(-4).join("/")})`,
    argv: [node, other, "hook", "gemini"],
  });
}

try {
  const home = join(root, "home");
  // the resident hook (docs/resident-hook.md): its client's CPU and its server's for each event
  const resident = residentHook({ entry, host: "gemini", home });
  if (resident !== undefined) hooks.push(resident);
  const project = join(root, "project");
  mkdirSync(join(home, ".gemini", "policies"), { recursive: true });
  mkdirSync(project);
  writeFileSync(
    join(home, ".gemini", "policies", "deny-rm.toml"),
    '[[rule]]\ntoolName = "run_shell_command"\ndecision = "allow"\npriority = 100\n\n[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "rm"\ndecision = "deny"\npriority = 200\n',
  );
  // the session file: a recorded Gemini CLI 0.61.0 session with three refusals (9 KB), after n - 1 copies of a recorded
  // session without any (each copy's call ids its own): a long session's file, its refusals at the end
  const transcript = join(root, "session.jsonl");
  const recorded = (name) =>
    readFileSync(join(repository, "test", "fixtures", "transcripts", "gemini", `${name}.session.jsonl`), "utf8")
      .trimEnd()
      .split("\n");
  const stubborn = recorded("stubborn");
  const legitimate = recorded("legitimate").slice(1).join("\n");
  const repeat = sizeFrom("BENCH_TRANSCRIPT_REPEAT", 1, 1);
  const earlier = Array.from({ length: repeat - 1 }, (_, copy) =>
    legitimate.replaceAll("run_shell_command__run_shell_command_", `run_shell_command__${copy}x_`),
  );
  writeFileSync(transcript, `${[stubborn[0], ...earlier, ...stubborn.slice(1)].join("\n")}\n`);
  console.log(`the session file: ${Math.round(statSync(transcript).size / 1024)} KB`);
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
    [
      "AfterAgent (reads the session file)",
      () => ({ hook_event_name: "AfterAgent", prompt: "go on", prompt_response: "done" }),
    ],
    [
      "AfterAgent, the session's next (from its cursor)",
      () => ({ hook_event_name: "AfterAgent", prompt: "go on", prompt_response: "done" }),
    ],
  ];
  const input = ({ round, hook, event }) =>
    JSON.stringify({
      session_id: `bench-${round}-${hook}`,
      transcript_path: transcript,
      cwd: project,
      timestamp: new Date().toISOString(),
      ...events[event][1](),
    });
  measureHookEvents({
    hooks,
    events,
    input,
    runs,
    env,
    cwd: project,
    scratch: root,
    // the hooks (not node -e 0) must really decide the rule-denied event (the second one)
    check: ({ hook, event, stdout }) =>
      hook === 0 || event !== 1 || /"decision":"deny"/.test(stdout) ? undefined : "did not deny rm -rf",
  });
} finally {
  stopResidentServers(join(root, "home"));
  rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }); // a detached drain may still be writing
}
