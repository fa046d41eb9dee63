// What one hook event costs in work, not time: modules loaded, whether the native SQLite driver (better-sqlite3) was
// loaded, and SQLite write transactions, per Claude Code hook event type, on the default (no toolgate config) path.
// By default the bundled hook entry `toolgate install` writes (dist/hook/toolgate-hook.cjs: its files are the
// launcher and the bundle, so "modules" counts what it loads beside them); TOOLGATE_HOOK_ENTRY=dist/cli/main.js
// measures the CLI's `toolgate hook claude-code` instead.
// Usage: npm run build && node bench/hook-footprint.bench.mjs   (short already: one process per event, so its
// BENCH_SHORT=1 mode, which the test suite runs, is the same run)
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const main = resolve(process.env.TOOLGATE_HOOK_ENTRY ?? join(here, "..", "dist", "hook", "toolgate-hook.cjs"));
console.log(`entry: ${main}`);
const preload = join(here, "support", "footprint-preload.mjs");
const root = mkdtempSync(join(tmpdir(), "toolgate-footprint-"));
try {
  const project = join(root, "project");
  mkdirSync(join(project, ".claude"), { recursive: true });
  writeFileSync(join(project, ".claude", "settings.json"), JSON.stringify({ permissions: { deny: ["Bash(rm:*)"] } }));
  const transcript = join(root, "transcript.jsonl");
  writeFileSync(transcript, "");
  const env = {
    ...process.env,
    HOME: join(root, "home"),
    TOOLGATE_DB: join(root, "toolgate.db"),
    CLAUDE_CODE_SESSION_ATTENDED: "0",
  };
  const base = { session_id: "footprint", transcript_path: transcript, cwd: project, permission_mode: "default" };
  const bash = (command, id) => ({ tool_name: "Bash", tool_input: { command }, tool_use_id: id });
  const events = [
    ["PreToolUse allowed (ls)", { hook_event_name: "PreToolUse", ...bash("ls", "t1") }],
    ["PreToolUse rule-denied (rm -rf)", { hook_event_name: "PreToolUse", ...bash("rm -rf build", "t2") }],
    ["PreToolUse denied, escalates", { hook_event_name: "PreToolUse", ...bash("rm -rf build", "t3") }],
    ["PostToolUse success", { hook_event_name: "PostToolUse", ...bash("ls", "t1"), tool_response: { stdout: "a" } }],
    [
      "PostToolUseFailure",
      { hook_event_name: "PostToolUseFailure", ...bash("cat /root/x", "t4"), error: "Exit code 1\nPermission denied" },
    ],
    ["UserPromptSubmit", { hook_event_name: "UserPromptSubmit", prompt: "go on" }],
    ["Stop", { hook_event_name: "Stop", stop_hook_active: false }],
  ];
  // create the database (migrations) before measuring
  spawnSync(process.execPath, [main, "hook", "claude-code"], {
    input: JSON.stringify({ ...base, hook_event_name: "SessionStart", source: "startup" }),
    env,
    cwd: project,
  });
  console.log("| hook event | modules loaded | better-sqlite3 loaded | SQLite write transactions |\n|---|---|---|---|");
  for (const [name, event] of events) {
    const file = join(root, "footprint.txt");
    writeFileSync(file, "");
    const result = spawnSync(process.execPath, ["--import", preload, main, "hook", "claude-code"], {
      input: JSON.stringify({ ...base, ...event }),
      env: { ...env, FOOTPRINT_FILE: file },
      cwd: project,
      encoding: "utf8",
    });
    if (result.status !== 0) throw new Error(`${name}: exit ${result.status}: ${result.stderr}`);
    const lines = readFileSync(file, "utf8").split("\n").filter(Boolean);
    const modules = new Set(lines.filter((line) => line !== "transaction" && !line.includes("bench/support")));
    const transactions = lines.filter((line) => line === "transaction").length;
    const native = [...modules].some((line) => /better-sqlite3[\\/]lib[\\/]index\.js$/.test(line));
    console.log(`| ${name} | ${modules.size} | ${native ? "yes" : "no"} | ${transactions} |`);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
