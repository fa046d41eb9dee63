import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, repoRoot } from "../cli/cli-fixture.js";
import { temporaryDirectory } from "../support/temporary-directory.js";

/**
 * Every benchmark (bench/*.bench.mjs) runs here in its short mode (BENCH_SHORT=1: the same code paths and
 * comparisons on tiny sizes) as a child process against the built dist/, so a benchmark that breaks fails the suite
 * instead of rotting until someone runs `npm run bench`. Each must exit 0, print each of its figures (a number where
 * its full run prints one) and leave nothing in its temporary directory. The figures themselves mean nothing here:
 * timing goals live in BENCHMARKS.md, never in tests.
 *
 * Needs what the benches need: bench/node_modules (`npm run bench:deps`, which `npm test` runs) for the peer hooks
 * and Gemini CLI's policy engine, test/e2e/node_modules (`npm run e2e:deps`) for the MCP filesystem server and
 * playwright-core, Debian's chromium for the dashboard (.ci/run installs it), python3 for the hook benches' cold
 * spawns. The Postgres parts run when TOOLGATE_TEST_DATABASE_URL is set (CI sets it); under CI=true without it the
 * Postgres benches fail rather than skip, as the store suites do (test/store/postgres-test-database.ts).
 */

const number = String.raw`-?\d[\d,]*(?:\.\d+)?`;
/** a pattern with `#` standing for a number */
const figure = (source: string) => new RegExp(source.replaceAll("#", number), "m");
/** a Markdown table row: the cells given (regular expressions), then numbers (`#`) or other cells */
const row = (...cells: string[]) => figure(`^\\| ${cells.join(" \\| ")} \\|`);
const hookEntry = String.raw`toolgate hook entry \(dist/hook, bundled\)`;
/** the resident hook's row (docs/resident-hook.md) */
const residentHook = String.raw`toolgate resident hook \(bash client \+ server CPU\)`;
/** a row of the goals table a bench prints at exit (bench/support/goals.mjs); the short mode judges nothing */
const goalRow = (goal: string) => figure(`^\\| ${goal} \\| .*\\d.* \\| \\(short mode\\) \\| bench/`);

interface Bench {
  /** what the short run must print: each pattern must match a line of its stdout */
  figures: RegExp[];
  /** what it must print besides when TOOLGATE_TEST_DATABASE_URL is set (its Postgres part) */
  postgres?: RegExp[];
}

const benches: Record<string, Bench> = {
  "acp-proxy.bench.mjs": {
    figures: [
      figure(String.raw`^\| prompt \| proxy overhead \| \+# ms \|`),
      row("permission", "proxy", "# ms", "# ms", "# ms"),
    ],
  },
  "adversarial.bench.mjs": {
    figures: [
      figure(String.raw`^a\. Bash\(.*\) on a # KB command +before +# m?s`),
      figure(String.raw`^a\. Bash\(.*\) on a # KB command +after +# m?s`),
      figure(String.raw`^b\. .* on a #-character name +after +# m?s`),
      figure(String.raw`^c\. .*: bound what enters state +after +# m?s +state # chars`),
      figure(String.raw`^d\. run: one # MB line in 64 KB chunks +after +# m?s`),
      figure(String.raw`^e\. Read\(.*\) on a #-character segment +after +# m?s`),
      figure("^hook: PreToolUse, .* KB command +after +# m?s +(no objection|deny)"),
    ],
  },
  "ai-sdk-overhead.bench.mjs": {
    figures: [
      figure("^ {2}guardTools: +# µs / # µs / # µs"),
      figure("^ {2}refused \\(deny rule, recorded\\): # µs"),
      figure("^ {2}added: # µs \\(median of the paired differences\\)"),
    ],
  },
  "analyze.bench.mjs": {
    figures: [
      figure("^bare readline \\+ JSON\\.parse: # MB/s"),
      figure("^toolgate analyze: +# MB/s \\(# s; # sessions, # calls, # denials"),
      figure("^analyze / bare throughput: #%"),
      goalRow("analyze >= 100 MB/s on many files \\(# MB, # files\\)"),
      // one line per host format, measured in the same run (issue 30 item 3)
      ...["claude-code", "codex", "gemini", "qwen", "opencode", "pi", "copilot"].map((host) =>
        figure(
          `^ {2}${host} +# MB: bare # MB/s, analyze # MB/s \\(# sessions, # calls, # denials\\), analyze / bare #%`,
        ),
      ),
      ...["claude-code", "codex", "gemini", "qwen", "opencode", "pi", "copilot"].map((host) =>
        goalRow(`analyze >= the bare readline \\+ JSON\\.parse loop: ${host}`),
      ),
      figure("^ +a second pass in the same process \\(code optimised\\): # MB/s, #% of the bare loop"),
    ],
  },
  "claude-hook.bench.mjs": {
    figures: [
      row("node -e 0", "#", "1\\.00x"),
      row("hook entry: rule-denied call \\(rm -rf\\)", "#", "#x"),
      row("CLI: rule-denied call \\(rm -rf\\)", "#", "#x"),
    ],
  },
  "cline-plugin.bench.mjs": {
    figures: [
      figure("^allowed call, beforeTool \\+ afterTool, # calls: p50 # ms"),
      figure("^refused call, beforeTool up to its record in the store, # calls: p50 # ms"),
    ],
  },
  "codex-hook.bench.mjs": {
    figures: [
      row("PreToolUse rule-forbidden \\(rm -rf\\)", hookEntry, "#", "#x", "#", "#x"),
      row("Stop", "toolgate hook codex \\(dist/cli/main\\.js\\)", "#", "#x", "#", "#x"),
      goalRow("every codex hook event <= 1\\.2x `node -e 0` CPU, clean environment"),
      row("Stop", residentHook, "#", "#x", "#", "#x"),
      goalRow(
        "every codex hook event <= 1\\.2x `node -e 0` CPU, clean environment, resident hook \\(client \\+ server\\)",
      ),
    ],
  },
  "copilot-hook.bench.mjs": {
    figures: [
      row("permissionRequest", hookEntry, "#", "#x", "#", "#x"),
      row("agentStop \\(reads events\\.jsonl: two refusals\\)", hookEntry, "#", "#x", "#", "#x"),
      goalRow("every copilot hook event <= 1\\.2x `node -e 0` CPU, clean environment"),
      row("permissionRequest", residentHook, "#", "#x", "#", "#x"),
      goalRow(
        "every copilot hook event <= 1\\.2x `node -e 0` CPU, clean environment, resident hook \\(client \\+ server\\)",
      ),
    ],
  },
  "core.bench.mjs": {
    figures: [
      figure("^ {2}per step, timed one by one: p50 # ns, p90 # ns, p99 # ns"),
      figure("^ {2}ns per call\\.denied step: p50 #"),
      figure("^describeCall\\(\\) at the edge, once per call: p50 # ns"),
      // the test runs it with --expose-gc, as npm run bench does
      figure("^memory: # idle sessions .*: # bytes of heap per session"),
    ],
  },
  "dashboard-views.bench.mjs": {
    figures: [
      row("sqlite", "overview", "host\\+label\\+tool 90d", "#", "#"),
      figure("^sqlite dashboard views on # denials: # requests, slowest # ms \\(.*\\), # over 1000 ms"),
    ],
    postgres: [
      row("postgres", "sessions", "sort=loops", "#", "#"),
      figure("^postgres dashboard views on # denials: # requests, slowest # ms \\(.*\\), # over 1000 ms"),
    ],
  },
  "dashboard-first-paint.bench.mjs": {
    figures: [figure("^dashboard first paint on # denials .*: overview rendered median # ms")],
  },
  "detect.bench.mjs": {
    figures: [
      row("redactValue: # realistic tool inputs", "#", "#"),
      row("redactText: one # MB JSONL text", "#", "#"),
      row("recognizeDenial \\(.*\\)", "#"),
      row("\\*\\*worst\\*\\*", "\\*\\*#\\*\\*"),
      figure("^redaction corpus: recall #% \\(#/# secrets"),
    ],
  },
  "gemini-hook.bench.mjs": {
    figures: [
      row("BeforeTool policy-denied \\(rm -rf\\)", hookEntry, "#", "#x", "#", "#x"),
      row(
        "AfterAgent \\(reads the session file\\)",
        "toolgate hook gemini \\(dist/cli/main\\.js\\)",
        "#",
        "#x",
        "#",
        "#x",
      ),
      row("AfterAgent, the session's next \\(from its cursor\\)", hookEntry, "#", "#x", "#", "#x"),
      goalRow("every gemini hook event <= 1\\.2x `node -e 0` CPU, clean environment"),
      row("BeforeAgent", residentHook, "#", "#x", "#", "#x"),
      goalRow(
        "every gemini hook event <= 1\\.2x `node -e 0` CPU, clean environment, resident hook \\(client \\+ server\\)",
      ),
    ],
  },
  "hook-faults.bench.mjs": {
    figures: [
      row("none \\(SQLite file, healthy\\)", "deny", "#", "#", "#", "#"),
      row("Postgres accepts and never answers", "deny", "#", "#", "#", "#"),
      row("state lock held by a live process", "deny", "#", "#", "#", "#"),
    ],
    postgres: [row("none \\(Postgres, healthy\\)", "deny", "#", "#", "#", "#")],
  },
  "hook-first-read.bench.mjs": {
    figures: [
      figure("^Codex PreToolUse, a session's first, reading which calls are recorded; # rounds"),
      row("0", "toolgate hook entry \\(this build\\)", "#", "#x"),
      row("2", "toolgate hook entry \\(this build\\)", "#", "#x"),
    ],
  },
  "hook-footprint.bench.mjs": {
    figures: [row("PreToolUse rule-denied \\(rm -rf\\)", "#", "(yes|no)", "#"), row("Stop", "#", "(yes|no)", "#")],
  },
  "hook-long-session.bench.mjs": {
    figures: [
      row("toolgate hook entry \\(this build\\)", "#", "#x"),
      row("toolgate resident hook \\(bash client \\+ server CPU\\)", "#", "#x"),
      goalRow(
        "a long session's Stop \\(past the record buffer, one new refusal\\) <= 1\\.2x `node -e 0` CPU, clean environment",
      ),
      goalRow(
        "a long session's Stop \\(past the record buffer, one new refusal\\) <= 1\\.2x `node -e 0` CPU, clean environment, resident hook \\(client \\+ server\\)",
      ),
    ],
  },
  "hook-peers.bench.mjs": {
    figures: [
      figure("^clean environment: .*; node -e 0: CPU # ms, wall # ms"),
      figure("^inherit environment: .*; node -e 0: CPU # ms, wall # ms"),
      row("PreToolUse rule-denied \\(rm -rf\\)", hookEntry, "#", "#x", "#", "#x"),
      row("PreToolUse rule-denied \\(rm -rf\\)", "cc-safety-net #\\.#\\.#", "#", "#x", "#", "#x"),
      row("PreToolUse rule-denied \\(rm -rf\\)", "block-no-verify #\\.#\\.#", "#", "#x", "#", "#x"),
      row("SessionEnd \\(drains the session's spool\\)", hookEntry, "#", "#x", "#", "#x"),
      goalRow("every hook event <= 1\\.2x `node -e 0` CPU, clean environment"),
      goalRow("every hook event <= 1\\.2x `node -e 0` CPU, inherit environment"),
      goalRow("below every peer hook on every event, clean environment"),
      goalRow("below every peer hook on every event, inherit environment"),
      row("SessionEnd \\(drains the session's spool\\)", residentHook, "#", "#x", "#", "#x"),
      goalRow("every hook event <= 1\\.2x `node -e 0` CPU, clean environment, resident hook \\(client \\+ server\\)"),
      goalRow("below every peer hook on every event, inherit environment, resident hook \\(client \\+ server\\)"),
    ],
  },
  "mcp-proxy.bench.mjs": {
    figures: [row("direct", "# ms", "# ms", "# ms"), figure("^proxy overhead per call: \\+# ms at the median")],
  },
  "policy.bench.mjs": {
    figures: [
      figure("^toolgate, distinct calls \\(parse every command\\) +# decisions/s +p50 +# (ns|µs)"),
      figure("^Gemini CLI PolicyEngine, distinct calls +# decisions/s +p50 +# (ns|µs)"),
      figure("^ratio \\(toolgate / Gemini decisions per second\\): distinct calls #x"),
      goalRow("first-seen shell decision p50 <= 1 µs \\(200 rules, the mix\\)"),
      goalRow(">= 10x Gemini CLI's engine on first-seen calls, same run"),
    ],
  },
  "qwen-hook.bench.mjs": {
    figures: [
      row("PostToolBatch, a call Qwen's rule denied", hookEntry, "#", "#x", "#", "#x"),
      row("Stop \\(reads the transcript\\)", "toolgate hook qwen \\(dist/cli/main\\.js\\)", "#", "#x", "#", "#x"),
      goalRow("every qwen hook event <= 1\\.2x `node -e 0` CPU, clean environment"),
      row("PostToolUse success", residentHook, "#", "#x", "#", "#x"),
      goalRow(
        "every qwen hook event <= 1\\.2x `node -e 0` CPU, clean environment, resident hook \\(client \\+ server\\)",
      ),
    ],
  },
  "store-faults.bench.mjs": {
    figures: [
      row("state: file truncated mid-JSON", "STORE_CORRUPT", "STORE_CORRUPT.*", "#"),
      row("drain: Postgres accepts and never answers", "records stay spooled", ".*", "#"),
    ],
    postgres: [row("Postgres state store: session row locked by another transaction", ".*", "55P03", "#")],
  },
  "store.bench.mjs": {
    figures: [
      figure("^sqlite writes \\(# rows, .*\\): toolgate # rows/s, raw better-sqlite3 # rows/s, ratio #"),
      figure("^sqlite report 7d on # rows: median # ms"),
      figure('^sqlite "toolgate report" .* on # rows: median # ms'),
      goalRow("SQLite ingest >= 0\\.8 of raw better-sqlite3"),
    ],
    postgres: [
      goalRow("Postgres ingest >= 0\\.8 of raw pg"),
      figure("^postgres writes \\(# rows, .*\\): toolgate # rows/s, raw pg multi-row INSERT # rows/s, ratio #"),
      figure("^postgres report 7d on # rows: median # ms"),
    ],
  },
};

const benchDirectory = join(repoRoot, "bench");
const postgresUrl = process.env.TOOLGATE_TEST_DATABASE_URL;
const inCi = process.env.CI === "true";
/** what sizes a bench or points it elsewhere: dropped, so the short mode's own sizes and this tree's dist/ apply */
const sizing = /^(BENCH_|TOOLGATE_(?!TEST_DATABASE_URL$))|_BENCH_|^ADVERSARIAL_/;

function runBench(file: string, tmp: string) {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env))
    if (value !== undefined && !sizing.test(name)) env[name] = value;
  Object.assign(env, { BENCH_SHORT: "1", TMPDIR: tmp });
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (resolve, reject) => {
      // --expose-gc as npm run bench runs them (core's memory figure needs it); killed before vitest gives up
      const child = spawn(process.execPath, ["--expose-gc", join(benchDirectory, file)], {
        cwd: repoRoot,
        env,
        stdio: ["ignore", "pipe", "pipe"],
        timeout: 280_000,
        killSignal: "SIGKILL",
      });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        stdout += chunk;
      });
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
        stderr += chunk;
      });
      child.on("error", reject);
      child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
    },
  );
}

beforeAll(ensureBuilt);

describe("every benchmark in its short mode (BENCH_SHORT=1)", () => {
  it("lists every bench/*.bench.mjs here, with the figures it must print", () => {
    const files = readdirSync(benchDirectory)
      .filter((name) => name.endsWith(".bench.mjs"))
      .sort();
    expect(Object.keys(benches).sort()).toEqual(files);
  });

  for (const [file, bench] of Object.entries(benches)) {
    it(`${file} exits 0, prints its figures and leaves nothing in TMPDIR`, { timeout: 300_000 }, async () => {
      if (bench.postgres !== undefined && !postgresUrl) {
        if (inCi)
          throw new Error(`CI=true but TOOLGATE_TEST_DATABASE_URL is not set: CI must run ${file}'s Postgres part`);
        console.log(`${file}: Postgres part not run (TOOLGATE_TEST_DATABASE_URL is not set; CI sets it)`);
      }
      const tmp = temporaryDirectory("toolgate-bench-");
      const result = await runBench(file, tmp);
      const output = `${file} (exit ${result.code}${result.signal ? `, ${result.signal}` : ""})\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;
      expect(result.code, output).toBe(0);
      const wanted = [...bench.figures, ...(postgresUrl ? (bench.postgres ?? []) : [])];
      const missing = wanted.filter((pattern) => !pattern.test(result.stdout)).map(String);
      expect(missing, `figures not printed by ${output}`).toEqual([]);
      expect(readdirSync(tmp), `${file} left these in its temporary directory`).toEqual([]);
    });
  }
});
