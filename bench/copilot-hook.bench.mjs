import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { measureHookEvents, residentHook, stopResidentServers } from "./support/cold-spawn.mjs";
import { sizeFrom } from "./support/short.mjs";

// GitHub Copilot CLI 1.0.102's events, cold, against `node -e 0`. The payloads are the recorded ones in
// test/fixtures/copilot/; each job gets its own session id, with the recorded stubborn session's events.jsonl (cut
// where the event happened) under $HOME/.copilot/session-state/<id>/, which preToolUse and agentStop read. The
// event is named in the payload (`hookName`, as Copilot's permissionRequest does) instead of on the command line, so
// one command serves every event; the work is the same.
const here = dirname(fileURLToPath(import.meta.url));
const repository = join(here, "..");
// BENCH_RUNS=20 (rounds); BENCH_SHORT=1: the short mode the test suite runs (one round after the warm-up round)
// BENCH_TRANSCRIPT_REPEAT=n: each event's session has the recorded 40 KB session n - 1 times before its own events
// (52 is about 2 MB); TOOLGATE_HOOK_BUNDLE=<dist>/hook/toolgate-hook.cjs: another build's hook entry, in the same rounds
const runs = sizeFrom("BENCH_RUNS", 20, 1);
if (!existsSync(join(repository, "dist", "cli", "main.js"))) throw new Error("dist/ is missing: run npm run build");
const root = mkdtempSync(join(tmpdir(), "toolgate-copilot-bench-"));
cpSync(join(repository, "dist"), join(root, "snapshot", "dist"), { recursive: true });
cpSync(join(repository, "package.json"), join(root, "snapshot", "package.json"));
symlinkSync(join(repository, "node_modules"), join(root, "snapshot", "node_modules"), "dir");
const node = process.execPath;
const entry = join(root, "snapshot", "dist", "hook", "toolgate-hook.cjs");
const main = join(root, "snapshot", "dist", "cli", "main.js");
const hooks = [{ name: "node -e 0", argv: [node, "-e", "0"] }];
if (existsSync(entry))
  hooks.push({ name: "toolgate hook entry (dist/hook, bundled)", argv: [node, entry, "hook", "copilot"] });
hooks.push({ name: "toolgate hook copilot (dist/cli/main.js)", argv: [node, main, "hook", "copilot"] });
if (process.env.TOOLGATE_HOOK_BUNDLE) {
  const other = resolve(process.env.TOOLGATE_HOOK_BUNDLE);
  hooks.push({
    name: `toolgate hook (${other.split("/").slice(-4).join("/")})`,
    argv: [node, other, "hook", "copilot"],
  });
}

try {
  const home = join(root, "home");
  // the resident hook (docs/resident-hook.md): its client's CPU and its server's for each event
  const resident = residentHook({ entry, host: "copilot", home });
  if (resident !== undefined) hooks.push(resident);
  const project = join(root, "project");
  mkdirSync(join(home, ".copilot", "session-state"), { recursive: true });
  mkdirSync(project);
  const fixture = (name) => JSON.parse(readFileSync(join(repository, "test", "fixtures", "copilot", name), "utf8"));
  const lines = readFileSync(
    join(repository, "test", "fixtures", "transcripts", "copilot", "stubborn.events.jsonl"),
    "utf8",
  ).split("\n");
  const preToolUseAt = lines
    .map((line, at) => ({ line, at }))
    .filter(({ line }) => line.includes('"type":"hook.start"') && line.includes('"hookType":"preToolUse"'));
  // BENCH_TRANSCRIPT_REPEAT=n: a long session's events, the whole recorded session n - 1 times over before the events
  // below (call ids made unique, times a year earlier), default 1: the recorded events alone
  const repeat = sizeFrom("BENCH_TRANSCRIPT_REPEAT", 1, 1);
  const whole = lines.join("\n").trimEnd();
  const earlier = Array.from(
    { length: repeat - 1 },
    (_, copy) =>
      `${whole.replaceAll('"call_', `"call_${copy}x`).replaceAll('"timestamp":"2026-', '"timestamp":"2025-')}\n`,
  ).join("");
  // the events as Copilot had written them when the n-th preToolUse ran (its own hook.start the last line)
  const cutAt = (n) => `${earlier}${lines.slice(0, preToolUseAt[n].at + 1).join("\n")}\n`;
  const second = JSON.parse(preToolUseAt[1].line);
  const secondCall = second.data.input.toolCalls[0];
  const events = [
    ["preToolUse, first call (reads events.jsonl)", "preToolUse", () => fixture("pre-tool-use.json"), cutAt(0)],
    [
      "preToolUse, counting Copilot's refusal of the first call",
      "preToolUse",
      () => ({ ...fixture("pre-tool-use.json"), timestamp: Date.parse(second.timestamp), toolArgs: secondCall.args }),
      cutAt(1),
    ],
    ["permissionRequest", "permissionRequest", () => fixture("permission-request.json"), cutAt(1)],
    ["postToolUse success", "postToolUse", () => fixture("post-tool-use.json"), cutAt(1)],
    ["postToolUseFailure", "postToolUseFailure", () => fixture("post-tool-use-failure.json"), cutAt(1)],
    [
      "agentStop (reads events.jsonl: two refusals)",
      "agentStop",
      () => fixture("agent-stop.json"),
      `${earlier}${lines.join("\n")}`,
    ],
  ];
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, TOOLGATE_DB: join(root, "toolgate.db") };
  const input = ({ round, hook, event }) => {
    const [, hookName, payload, eventsText] = events[event];
    const sessionId = `bench-${round + 1}-${hook}-${event}`;
    mkdirSync(join(home, ".copilot", "session-state", sessionId), { recursive: true });
    writeFileSync(join(home, ".copilot", "session-state", sessionId, "events.jsonl"), eventsText);
    return JSON.stringify({ ...payload(), hookName, sessionId, cwd: project });
  };
  measureHookEvents({
    hooks,
    events: events.map(([name]) => [name]),
    input,
    runs,
    env,
    cwd: project,
    scratch: root,
    // the hooks (not node -e 0) must answer: a pass is an empty stdout, so check the exit status only (done above)
    check: () => undefined,
  });
} finally {
  stopResidentServers(join(root, "home"));
  rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }); // a detached drain may still be writing
}
