// Cold `toolgate hook codex` (Codex CLI's hook events) against a bare `node -e 0`, CPU and wall time, cases interleaved
// round by round (bench/support/cold-spawn.mjs). Usage: npm run build && node bench/codex-hook.bench.mjs
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { measureHookEvents, residentHook, stopResidentServers } from "./support/cold-spawn.mjs";
import { sizeFrom } from "./support/short.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repository = join(here, "..");
// BENCH_RUNS=20 (rounds); BENCH_SHORT=1: the short mode the test suite runs (one round after the warm-up round)
// TOOLGATE_HOOK_BUNDLE=<dist>/hook/toolgate-hook.cjs: another build's hook entry, measured in the same rounds
// BENCH_ROLLOUT_REPEAT=n: the rollout is the recorded one n times over, each copy's call ids made unique (a long
//   session's rollout: 500 is 22 MB); BENCH_SESSIONS=one: every round continues one session per hook (a long
//   session's steady state, where each event reads only what the rollout gained since its cursor)
const runs = sizeFrom("BENCH_RUNS", 20, 1);
if (!existsSync(join(repository, "dist", "cli", "main.js"))) throw new Error("dist/ is missing: run npm run build");
const root = mkdtempSync(join(tmpdir(), "toolgate-codex-bench-"));
cpSync(join(repository, "dist"), join(root, "snapshot", "dist"), { recursive: true });
cpSync(join(repository, "package.json"), join(root, "snapshot", "package.json"));
symlinkSync(join(repository, "node_modules"), join(root, "snapshot", "node_modules"), "dir");
const node = process.execPath;
const entry = join(root, "snapshot", "dist", "hook", "toolgate-hook.cjs");
const main = join(root, "snapshot", "dist", "cli", "main.js");
const hooks = [{ name: "node -e 0", argv: [node, "-e", "0"] }];
if (existsSync(entry))
  hooks.push({ name: "toolgate hook entry (dist/hook, bundled)", argv: [node, entry, "hook", "codex"] });
hooks.push({ name: "toolgate hook codex (dist/cli/main.js)", argv: [node, main, "hook", "codex"] });
if (process.env.TOOLGATE_HOOK_BUNDLE) {
  const other = resolve(process.env.TOOLGATE_HOOK_BUNDLE);
  hooks.push({ name: `toolgate hook (${other.split("/").slice(-4).join("/")})`, argv: [node, other, "hook", "codex"] });
}

try {
  const home = join(root, "home");
  // the resident hook (docs/resident-hook.md): its client's CPU and its server's for each event
  const resident = residentHook({ entry, host: "codex", home });
  if (resident !== undefined) hooks.push(resident);
  const codexHome = join(home, ".codex");
  const project = join(root, "project");
  mkdirSync(join(codexHome, "rules"), { recursive: true });
  mkdirSync(project);
  writeFileSync(
    join(codexHome, "rules", "deny-rm.rules"),
    'prefix_rule(pattern = ["rm"], decision = "forbidden", justification = "rm is forbidden here")\n',
  );
  const transcript = join(root, "rollout.jsonl");
  const recorded = join(repository, "test", "fixtures", "codex", "forbidden.rollout.jsonl");
  const repeat = sizeFrom("BENCH_ROLLOUT_REPEAT", 1, 1);
  if (repeat <= 1) cpSync(recorded, transcript);
  else {
    const text = readFileSync(recorded, "utf8").trimEnd();
    const copies = Array.from({ length: repeat }, (_, copy) =>
      text.replaceAll('"call_id":"call_', `"call_id":"call_${copy}x`),
    );
    writeFileSync(transcript, `${copies.join("\n")}\n`);
  }
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    CODEX_HOME: codexHome,
    TOOLGATE_DB: join(root, "toolgate.db"),
  };
  const shell = (command) => ({ tool_name: "Bash", tool_input: { command } });
  const events = [
    ["PreToolUse allowed (ls)", (id) => ({ hook_event_name: "PreToolUse", ...shell("ls -la"), tool_use_id: id })],
    [
      "PreToolUse rule-forbidden (rm -rf)",
      (id) => ({ hook_event_name: "PreToolUse", ...shell("rm -rf build"), tool_use_id: id }),
    ],
    [
      "PostToolUse success",
      (id) => ({ hook_event_name: "PostToolUse", ...shell("ls -la"), tool_response: "a\nb\n", tool_use_id: id }),
    ],
    [
      "PostToolUse read-only file system",
      (id) => ({
        hook_event_name: "PostToolUse",
        ...shell("touch victim/x"),
        tool_response: "touch: cannot touch 'victim/x': Read-only file system\n",
        tool_use_id: id,
      }),
    ],
    ["UserPromptSubmit", () => ({ hook_event_name: "UserPromptSubmit", prompt: "go on" })],
    ["Stop", () => ({ hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: "done" })],
  ];
  const input = ({ round, hook, event }) =>
    JSON.stringify({
      session_id: process.env.BENCH_SESSIONS === "one" ? `bench-${hook}` : `bench-${round}-${hook}`,
      turn_id: "turn-1",
      transcript_path: transcript,
      cwd: project,
      model: "fake-model",
      permission_mode: "bypassPermissions",
      ...events[event][1](`call_bench_${round}_${event}`),
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
      hook === 0 || event !== 1 || /"permissionDecision":"deny"/.test(stdout) ? undefined : "did not deny rm -rf",
  });
} finally {
  stopResidentServers(join(root, "home"));
  rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }); // a detached drain may still be writing
}
