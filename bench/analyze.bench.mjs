// `toolgate analyze` throughput on a large synthetic corpus vs a bare readline + JSON.parse loop over the same
// files, in the same run. Usage: npm run bench -- analyze   (ANALYZE_BENCH_MB sets the corpus size, default 512;
// ANALYZE_BENCH_FILE_MB the size of each file, default 16)
//
// The corpus is generated at run time in a temp dir from the transcripts recorded from the real hosts
// (test/fixtures/transcripts: Claude Code session + stream-json, Codex rollout, Gemini session + stream-json,
// Qwen chat + stream-json, opencode run --format json): each file repeats one recorded session with fresh session
// ids, plus a large tool output line every few lines (real transcripts carry file contents). Each side runs in its
// own child process (peak RSS is per process); the corpus is deleted afterwards (ANALYZE_BENCH_KEEP=1 keeps it).
// ANALYZE_BENCH_BASELINE_DIST=/path/to/dist also runs another build's analyze (an older commit's `dist/`) in the
// same rounds, for a before/after under the same machine load. BENCH_SHORT=1: the short mode the test suite runs
// (a 2 MB corpus of 256 KB files, one round). ANALYZE_BENCH_HOSTS=gemini,opencode runs the per-host part for those
// hosts only; ANALYZE_BENCH_MB=0 skips the many-files corpus (for profiling one host's format). With a baseline,
// ANALYZE_BENCH_REPLAY=1 also times the replay alone per host, both builds alternating in one process.
// Per host, each analyze child also analyses the same files a second time in its process ("a second pass ..."): the
// throughput once the code is optimised, beside the first pass the goal is judged on.

import { spawnSync } from "node:child_process";
import {
  createReadStream,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import { goal } from "./support/goals.mjs";
import { size, sizeFrom } from "./support/short.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = join(here, "..", "test", "fixtures", "transcripts");
const TEMPLATES = [
  ["claude-code", "stubborn.session.jsonl", 4],
  ["claude-code", "legitimate.session.jsonl", 4],
  ["claude-code", "stubborn.stream.jsonl", 1],
  ["codex", "stubborn.rollout.jsonl", 2],
  ["codex", "legitimate.rollout.jsonl", 2],
  ["gemini", "stubborn.session.jsonl", 1],
  ["gemini", "legitimate.stream.jsonl", 1],
  ["qwen", "stubborn.chat.jsonl", 1],
  ["qwen", "legitimate.stream.jsonl", 1],
  ["opencode", "stubborn.run.jsonl", 1],
];
/** Per host, in the same run (issue 30 item 3): each host's recorded formats alone, a corpus of the same size each. */
const HOST_TEMPLATES = [
  ...TEMPLATES.map(([host, name]) => [host, name, 1]),
  ["pi", "stubborn.session.jsonl", 1],
  ["copilot", "stubborn.events.jsonl", 1],
];
const HOST_MB = sizeFrom("ANALYZE_BENCH_HOST_MB", 48, 0.5);
const FILE_BYTES = sizeFrom("ANALYZE_BENCH_FILE_MB", 16, 0.25) * 1024 * 1024;
const ROUNDS = size(2, 1);

function sessionIdsOf(text) {
  return [
    ...new Set(text.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|ses_[A-Za-z0-9]{20,}/g) ?? []),
  ];
}

/** The quoted call ids a template holds (`"toolu_..."`, `"call_1"`, ...), as one pattern; undefined when none. */
function callIdPattern(text) {
  const ids = new Set();
  for (const match of text.matchAll(
    /"(?:id|tool_use_id|call_id|callId|callID|toolCallId|tool_id)":"([^"\\]{1,200})"/g,
  )) {
    ids.add(match[1]);
  }
  // a session id stays the same in every repeat: one long session per file
  for (const id of sessionIdsOf(text)) ids.delete(id);
  if (ids.size === 0) return undefined;
  const escaped = [...ids].sort((a, b) => b.length - a.length).map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`"(?:${escaped.join("|")})"`, "g");
}

/** Writes files of ~16 MB until `megabytes` are written; returns the file paths. */
function generate(directory, megabytes, templates = TEMPLATES) {
  const weighted = templates.flatMap(([host, name, weight]) => Array(weight).fill([host, name]));
  const files = [];
  let written = 0;
  let index = 0;
  const filler = "x".repeat(6000);
  while (written < megabytes * 1024 * 1024) {
    const [host, name] = weighted[index % weighted.length];
    const template = readFileSync(join(fixtures, host, name), "utf8");
    const ids = sessionIdsOf(template);
    let text = template;
    // one session per file: the same ids for every repeat (a long session), fresh per file
    for (const id of ids) text = text.replaceAll(id, `${id.slice(0, -6)}${String(index).padStart(6, "0")}`);
    if (host === "claude-code" && name.endsWith("session.jsonl")) {
      // a large Read result, as real transcripts have
      const sessionId = `${ids[0].slice(0, -6)}${String(index).padStart(6, "0")}`;
      const content = [{ type: "tool_result", tool_use_id: "toolu_read", content: filler }];
      text += `${JSON.stringify({ type: "user", sessionId, timestamp: "2026-11-23T10:00:00.000Z", message: { role: "user", content } })}\n`;
    }
    const repeats = Math.ceil(FILE_BYTES / Buffer.byteLength(text));
    // each repeat's calls get ids of their own: analyze counts a call read twice (same id) once, so a session
    // repeated with the same ids would be one short session read many times, not a long one
    const idPattern = callIdPattern(text);
    const parts = [];
    for (let repeat = 0; repeat < repeats; repeat++) {
      parts.push(
        idPattern === undefined ? text : text.replace(idPattern, (quoted) => `${quoted.slice(0, -1)}~${repeat}"`),
      );
    }
    const content = parts.join("");
    const size = Buffer.byteLength(content);
    const dir = join(directory, host);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${String(index).padStart(4, "0")}-${name}`);
    writeFileSync(file, content);
    files.push(file);
    written += size;
    index += 1;
  }
  return files;
}

/** Every file below `directory` (the corpus: `<host>/<file>`; one host's folder: its files). */
function filesBelow(directory) {
  return readdirSync(directory, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? filesBelow(join(directory, entry.name)) : [join(directory, entry.name)]))
    .sort();
}

async function bareLoop(directory) {
  const readStarted = performance.now();
  let lines = 0;
  for (const file of filesBelow(directory)) {
    const input = createReadStream(file, { encoding: "utf8", highWaterMark: 1024 * 1024 });
    for await (const line of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
      if (line.length === 0) continue;
      try {
        JSON.parse(line);
      } catch {}
      lines += 1;
    }
  }
  return { lines, readSeconds: (performance.now() - readStarted) / 1000 };
}

async function analyzeAll(directory, dist = join(here, "../dist"), twice = false) {
  const { analyzeTranscripts } = await import(pathToFileURL(join(dist, "analyze/analyze-transcripts.js")).href);
  const { findTranscripts } = await import(pathToFileURL(join(dist, "analyze/find-transcripts.js")).href);
  const { loadAnalysisSetup } = await import(pathToFileURL(join(dist, "analyze/load-analysis-setup.js")).href);
  const empty = mkdtempSync(join(tmpdir(), "toolgate-bench-home-"));
  try {
    const setup = await loadAnalysisSetup({ cwd: empty, homeDir: empty, env: {} });
    // the hosts' formats, denial texts and rule languages are modules `analyze` loads on first use: loaded here, so
    // the reading time below is reading and replay only, as the bare loop's is (its `readline` is loaded at start)
    const formats = await import(pathToFileURL(join(dist, "analyze/formats.js")).href);
    await Promise.all([formats.transcriptFormats(), formats.denialTexts(), formats.ruleLanguages()]);
    // reading time: from here on (the modules are loaded and the config compiled, as they are in a long run)
    const readStarted = performance.now();
    const files = findTranscripts([directory], empty);
    const result = await analyzeTranscripts({ files, config: setup.config, canGrant: setup.canGrant });
    const readSeconds = (performance.now() - readStarted) / 1000;
    let calls = 0;
    let denials = 0;
    for (const { analysis } of result.sessions) {
      calls += analysis.toolCalls;
      denials += analysis.denialCount;
    }
    // `twice`: the same files analysed again in the same process, its code optimised and its caches warm: how much of
    // the first run was the JIT's warm-up (the goal is judged on the first run, as a user's one `analyze` runs)
    let warmSeconds;
    if (twice) {
      const warmStarted = performance.now();
      await analyzeTranscripts({ files, config: setup.config, canGrant: setup.canGrant });
      warmSeconds = (performance.now() - warmStarted) / 1000;
    }
    return { sessions: result.sessions.length, calls, denials, skipped: result.skippedLines, readSeconds, warmSeconds };
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
}

/**
 * The replay alone, this build against the baseline build in one process (ANALYZE_BENCH_REPLAY=1 with
 * ANALYZE_BENCH_BASELINE_DIST): a host's facts are read once, then replay passes of the two builds alternate and the
 * fastest pass of each is kept, so both see the same machine load; reading is left out.
 */
async function replayPasses(directory, baselineDist, passes) {
  const dist = join(here, "../dist");
  const load = (root, path) => import(pathToFileURL(join(root, path)).href);
  const { findTranscripts } = await load(dist, "analyze/find-transcripts.js");
  const { loadAnalysisSetup } = await load(dist, "analyze/load-analysis-setup.js");
  const { detectFormat, denialTexts, ruleLanguages } = await load(dist, "analyze/formats.js");
  const { readLines } = await load(dist, "hosts/common/read-lines.js");
  const empty = mkdtempSync(join(tmpdir(), "toolgate-bench-home-"));
  try {
    const setup = await loadAnalysisSetup({ cwd: empty, homeDir: empty, env: {} });
    const tables = await denialTexts();
    const languages = await ruleLanguages();
    const read = [];
    for (const file of findTranscripts([directory], empty)) {
      const format = await detectFormat(file);
      const facts = [];
      const source = {
        file,
        fallbackAt: 0,
        fallbackSessionId: basename(file),
        skip() {},
        lines: (keep, keepBytes) => readLines(file, { keep, keepBytes }),
      };
      for (const fact of format.read(source)) facts.push(fact);
      read.push({ file, format, facts });
    }
    const builds = [];
    for (const root of [dist, baselineDist]) {
      const { SessionReplay } = await load(root, "analyze/session-replay.js");
      const transcripts = await load(root, "analyze/analyze-transcripts.js");
      const { memoizePorts } = await load(root, "analyze/memoize-ports.js");
      // this build: the replay's own setup; an older build: its memoized config (it had no replaySetup)
      const prepare = () =>
        transcripts.replaySetup === undefined
          ? { config: memoizePorts(setup.config) }
          : transcripts.replaySetup(setup.config);
      builds.push({ SessionReplay, prepare, seconds: [] });
    }
    for (let pass = 0; pass < passes; pass++) {
      for (const build of builds) {
        const { config, describe } = build.prepare();
        const started = performance.now();
        for (const { file, format, facts } of read) {
          const replays = new Map();
          for (const fact of facts) {
            let replay = replays.get(fact.sessionId);
            if (replay === undefined) {
              replay = new build.SessionReplay({
                file,
                host: format.host,
                denialTexts: tables,
                format: format.id,
                sessionId: fact.sessionId,
                interactive: false,
                config,
                ...(describe === undefined ? {} : { describe }),
                canGrant: setup.canGrant,
                keepRecords: false,
                ...(languages.has(format.host) ? { ruleLanguage: languages.get(format.host) } : {}),
              });
              replays.set(fact.sessionId, replay);
            }
            replay.push(fact);
          }
          for (const replay of replays.values()) replay.finish();
        }
        build.seconds.push((performance.now() - started) / 1000);
      }
    }
    const calls = read.reduce((sum, { facts }) => sum + facts.filter((fact) => fact.type === "call").length, 0);
    return { calls, replay: Math.min(...builds[0].seconds), baseline: Math.min(...builds[1].seconds) };
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
}

if (process.argv[2] === "--child") {
  const [, , , mode, directory, dist] = process.argv;
  const started = performance.now();
  const outcome =
    mode === "bare"
      ? await bareLoop(directory)
      : mode === "replay"
        ? await replayPasses(directory, dist, size(10, 2))
        : await analyzeAll(directory, dist === "" ? undefined : dist, mode === "analyze-twice");
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(JSON.stringify({ seconds, maxRssMb: process.resourceUsage().maxRSS / 1024, ...outcome }));
} else {
  const megabytes = sizeFrom("ANALYZE_BENCH_MB", 512, 2);
  const directory = mkdtempSync(join(tmpdir(), "toolgate-analyze-bench-"));
  try {
    const generatedAt = performance.now();
    const files = generate(directory, megabytes);
    const bytes = files.reduce((sum, file) => sum + statSync(file).size, 0);
    const mb = bytes / 1024 / 1024;
    console.log(
      `corpus: ${files.length} files, ${mb.toFixed(0)} MB, generated in ${((performance.now() - generatedAt) / 1000).toFixed(1)} s`,
    );
    const baseline = process.env.ANALYZE_BENCH_BASELINE_DIST;
    const child = (mode, dist, folder = directory) => {
      const args = [fileURLToPath(import.meta.url), "--child", mode, folder, ...(dist === undefined ? [] : [dist])];
      const run = spawnSync(process.execPath, args, {
        encoding: "utf8",
        maxBuffer: 1 << 20,
      });
      if (run.status !== 0) throw new Error(`${mode} failed: ${run.stderr}`);
      return JSON.parse(run.stdout);
    };
    if (files.length > 0) {
      const results = { bare: [], analyze: [], baseline: [] };
      for (let round = 0; round < ROUNDS; round++) {
        results.bare.push(child("bare"));
        results.analyze.push(child("analyze"));
        if (baseline !== undefined) results.baseline.push(child("analyze", baseline));
      }
      const best = (list) => list.reduce((a, b) => (b.seconds < a.seconds ? b : a));
      const bare = best(results.bare);
      const analyze = best(results.analyze);
      console.log(
        `bare readline + JSON.parse: ${(mb / bare.seconds).toFixed(0)} MB/s (${bare.seconds.toFixed(2)} s, ${bare.lines} lines), peak RSS ${bare.maxRssMb.toFixed(0)} MB`,
      );
      console.log(
        `toolgate analyze:           ${(mb / analyze.seconds).toFixed(0)} MB/s (${analyze.seconds.toFixed(2)} s; ${analyze.sessions} sessions, ${analyze.calls} calls, ${analyze.denials} denials, ${analyze.skipped} skipped lines), peak RSS ${analyze.maxRssMb.toFixed(0)} MB`,
      );
      if (baseline !== undefined) {
        const old = best(results.baseline);
        console.log(
          `baseline analyze (${baseline}): ${(mb / old.seconds).toFixed(0)} MB/s (${old.seconds.toFixed(2)} s; ${old.calls} calls, ${old.denials} denials), peak RSS ${old.maxRssMb.toFixed(0)} MB`,
        );
      }
      console.log(
        `analyze / bare throughput: ${((bare.seconds / analyze.seconds) * 100).toFixed(0)}% (best of ${ROUNDS} round${ROUNDS === 1 ? "" : "s"} each)`,
      );
      goal({
        goal: `analyze >= 100 MB/s on many files (${mb.toFixed(0)} MB, ${files.length} files)`,
        measured: `${(mb / analyze.seconds).toFixed(0)} MB/s (bare loop ${(mb / bare.seconds).toFixed(0)} MB/s)`,
        met: mb / analyze.seconds >= 100,
        command: "bench/analyze.bench.mjs",
      });
    }
    // per host format, in the same run (issue 30 item 3): a corpus of the same size for each host, its recorded
    // formats only; the bare loop and analyze in turn, reading time only (after module loading and config), so a
    // host's figure is its reader and replay, not the process start
    console.log(
      `per host (${HOST_MB} MB of each host's recorded formats, reading time after start-up, best of ${ROUNDS}):`,
    );
    const only = (process.env.ANALYZE_BENCH_HOSTS ?? "").split(",").filter((host) => host !== "");
    const hosts = [...new Set(HOST_TEMPLATES.map(([host]) => host))].filter(
      (host) => only.length === 0 || only.includes(host),
    );
    for (const host of hosts) {
      const folder = join(directory, "..", `${basename(directory)}-${host}`);
      mkdirSync(folder);
      try {
        const hostFiles = generate(
          folder,
          HOST_MB,
          HOST_TEMPLATES.filter(([name]) => name === host),
        );
        const hostMb = hostFiles.reduce((sum, file) => sum + statSync(file).size, 0) / 1024 / 1024;
        const runs = { bare: [], analyze: [], baseline: [] };
        for (let round = 0; round < ROUNDS; round++) {
          runs.bare.push(child("bare", undefined, folder));
          runs.analyze.push(child("analyze-twice", undefined, folder));
          if (baseline !== undefined) runs.baseline.push(child("analyze", baseline, folder));
        }
        const fastest = (list) => list.reduce((a, b) => (b.readSeconds < a.readSeconds ? b : a));
        const hostBare = fastest(runs.bare);
        const hostAnalyze = fastest(runs.analyze);
        const warm = Math.min(...runs.analyze.map((run) => run.warmSeconds));
        console.log(
          `  ${host.padEnd(12)} ${hostMb.toFixed(0).padStart(4)} MB: bare ${(hostMb / hostBare.readSeconds).toFixed(0)} MB/s, analyze ${(hostMb / hostAnalyze.readSeconds).toFixed(0)} MB/s (${hostAnalyze.sessions} sessions, ${hostAnalyze.calls} calls, ${hostAnalyze.denials} denials), analyze / bare ${((hostBare.readSeconds / hostAnalyze.readSeconds) * 100).toFixed(0)}%`,
        );
        goal({
          goal: `analyze >= the bare readline + JSON.parse loop: ${host}`,
          measured: `${((hostBare.readSeconds / hostAnalyze.readSeconds) * 100).toFixed(0)}% (${(hostMb / hostAnalyze.readSeconds).toFixed(0)} vs ${(hostMb / hostBare.readSeconds).toFixed(0)} MB/s)`,
          met: hostAnalyze.readSeconds <= hostBare.readSeconds,
          command: "bench/analyze.bench.mjs",
        });
        console.log(
          `  ${"".padEnd(12)}      a second pass in the same process (code optimised): ${(hostMb / warm).toFixed(0)} MB/s, ${((hostBare.readSeconds / warm) * 100).toFixed(0)}% of the bare loop`,
        );
        if (baseline !== undefined && process.env.ANALYZE_BENCH_REPLAY === "1") {
          const passes = child("replay", baseline, folder);
          console.log(
            `  ${"".padEnd(12)}      replay alone (facts read once, ${size(10, 2)} alternating passes, fastest): ${(passes.replay * 1000).toFixed(0)} ms against the baseline's ${(passes.baseline * 1000).toFixed(0)} ms (${((passes.replay / passes.baseline) * 100).toFixed(0)}%), ${passes.calls} calls`,
          );
        }
        if (baseline !== undefined) {
          const old = fastest(runs.baseline);
          console.log(
            `  ${"".padEnd(12)}      baseline analyze ${(hostMb / old.readSeconds).toFixed(0)} MB/s (${old.calls} calls, ${old.denials} denials), baseline / bare ${((hostBare.readSeconds / old.readSeconds) * 100).toFixed(0)}%`,
          );
        }
      } finally {
        if (process.env.ANALYZE_BENCH_KEEP === "1") console.log(`  ${host} corpus kept in ${folder}`);
        else rmSync(folder, { recursive: true, force: true });
      }
    }
  } finally {
    if (process.env.ANALYZE_BENCH_KEEP === "1") console.log(`corpus kept in ${directory}`);
    else rmSync(directory, { recursive: true, force: true });
  }
}
