// Cold `toolgate hook qwen` (Qwen Code's hook events) against a bare `node -e 0`, CPU and wall time, cases interleaved
// round by round (bench/support/cold-spawn.mjs). Usage: npm run build && node bench/qwen-hook.bench.mjs
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
// BENCH_SESSIONS=one: each round's events are one session per hook (a run in progress: every event after the first finds
// the session's state), instead of a new session per event (each event its session's first, the default)
// TOOLGATE_HOOK_BUNDLE=<dist>/hook/toolgate-hook.cjs: another build's hook entry, measured in the same rounds
// BENCH_TRANSCRIPT_REPEAT=n: the chat file of a long session (the 12 KB fixture n - 1 times before the cut one the
// events continue; 170 is about 2 MB), default 1
const runs = sizeFrom("BENCH_RUNS", 20, 1);
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
if (process.env.TOOLGATE_HOOK_BUNDLE) {
  const other = resolve(process.env.TOOLGATE_HOOK_BUNDLE);
  hooks.push({ name: `toolgate hook (${other.split("/").slice(-4).join("/")})`, argv: [node, other, "hook", "qwen"] });
}

try {
  const home = join(root, "home");
  // the resident hook (docs/resident-hook.md): its client's CPU and its server's for each event
  const resident = residentHook({ entry, host: "qwen", home });
  if (resident !== undefined) hooks.push(resident);
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
  // BENCH_TRANSCRIPT_REPEAT=n: a long session's chat file, the whole fixture n - 1 times over (call ids made unique)
  // before the cut one the events continue (default 1: the cut fixture alone, 9 KB)
  const repeat = sizeFrom("BENCH_TRANSCRIPT_REPEAT", 1, 1);
  const whole = lines.join("\n").trimEnd();
  const earlier = Array.from({ length: repeat - 1 }, (_, copy) => `${whole.replaceAll("call_", `call_${copy}x`)}\n`);
  writeFileSync(transcript, `${earlier.join("")}${lines.slice(0, cut + 1).join("\n")}\n`);
  console.log(`the chat file: ${Math.round(statSync(transcript).size / 1024)} KB`);
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, TOOLGATE_DB: join(root, "toolgate.db") };
  const events = [
    ["PreToolUse (echo one)", () => fixture("pre-tool-use.json")],
    ["PostToolBatch, a call Qwen's rule denied", () => fixture("post-tool-batch-denied.json")],
    ["UserPromptSubmit continuation (reads the transcript)", () => fixture("user-prompt-submit-continuation.json")],
    ["PostToolUse success", () => fixture("post-tool-use.json")],
    ["PostToolUseFailure EACCES", () => fixture("post-tool-use-failure.json")],
    ["Stop (reads the transcript)", () => fixture("stop.json")],
  ];
  const oneSession = process.env.BENCH_SESSIONS === "one";
  const input = ({ round, hook, event }) =>
    JSON.stringify({
      ...events[event][1](),
      session_id: oneSession ? `bench-${round}-${hook}` : `bench-${round}-${hook}-${event}`,
      transcript_path: transcript,
      cwd: project,
      timestamp: new Date().toISOString(),
    });
  measureHookEvents({
    hooks,
    events,
    input,
    runs,
    env,
    cwd: project,
    scratch: root,
    // the hooks (not node -e 0) must really decide the rule-denied event (the second one); in one session an event
    // reading the transcript before it may have counted that refusal already (then it is rightly not counted again)
    check: ({ hook, event, stdout }) =>
      hook === 0 || event !== 1 || oneSession || stdout.includes("[toolgate] Denied by rule Bash(rm *)")
        ? undefined
        : "did not count the rule denial",
  });
} finally {
  stopResidentServers(join(root, "home"));
  rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }); // a detached drain may still be writing
}
