// Adversarial inputs (issue 12, class 5): the worst time on each hostile input, before and after, in one run.
// Usage: npm run build && node bench/adversarial.bench.mjs   (ADVERSARIAL_BEFORE=0 skips the slow "before" side;
// BENCH_SHORT=1: the short mode the test suite runs, the smallest sizes of each case and one hook event)
//
// "before" runs the algorithm the code used until issue 12 (copied below verbatim: the RegExp compilers, the
// strings-only truncation, the split-the-whole-pending-text line reader) on the largest input that finishes in
// seconds; "after" runs the built code (dist/) on that input and on much larger ones. The decision time of a real
// hook event with a hostile deny rule and command is measured too (`toolgate hook claude-code`, SQLite store in a
// temp dir, one process per event).

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { size } from "./support/short.mjs";

const root = fileURLToPath(new URL("../", import.meta.url));
const dist = (path) => import(join(root, "dist", path));
const before = process.env.ADVERSARIAL_BEFORE !== "0";

const { compileBashSpecifier } = await dist("policy/match/bash-specifier.js");
const { compileToolGlob } = await dist("core/tool-glob.js");
const { truncateStrings } = await dist("core/truncate-strings.js");
const { LineSplitter } = await dist("cli/run/line-splitter.js");
const { compilePathSpecifier } = await dist("policy/match/path-specifier.js");
const picomatch = (await import("picomatch/posix.js")).default;

function time(fn) {
  const start = performance.now();
  const result = fn();
  return { ms: performance.now() - start, result };
}
const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);
const rows = [];
const row = (input, side, ms, note = "") => {
  rows.push({ input, side, time: fmt(ms), note });
  console.log(`${input.padEnd(58)} ${side.padEnd(7)} ${fmt(ms).padStart(10)}  ${note}`);
};

// --- the code before issue 12 -------------------------------------------------------------------------------
function oldBashSpecifier(specifier) {
  let pattern = specifier.trim().replace(/\s+/g, " ");
  let tail = "";
  if (pattern.endsWith(" *")) {
    pattern = pattern.slice(0, -2);
    tail = "(?: .*)?";
  }
  const body = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  const regex = new RegExp(`^${body}${tail}$`, "s");
  return (command) => regex.test(command);
}
function oldToolGlob(glob) {
  let source = "^";
  for (const char of glob) {
    if (char === "*") source += ".*";
    else if (char === "?") source += ".";
    else source += char.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  const pattern = new RegExp(`${source}$`);
  return (tool) => pattern.test(tool);
}
function oldTruncateStrings(value, maxLength) {
  if (typeof value === "string") return value.length <= maxLength ? value : `${value.slice(0, maxLength)}…`;
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => oldTruncateStrings(item, maxLength));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, oldTruncateStrings(v, maxLength)]));
}
function oldSplitLines(chunks) {
  let pending = "";
  let count = 0;
  for (const chunk of chunks) {
    pending += chunk.toString("utf8");
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    count += lines.length;
  }
  return count;
}

// --- a. a Bash deny rule with several `*` ---------------------------------------------------------------------
const bashRule = "curl * -d * --data * http*x *";
const bashCommand = (bytes) => `curl ${"-d --data http ".repeat(Math.ceil(bytes / 15))}`.slice(0, bytes);
for (const kb of size([1, 2, 4], [1])) {
  if (!before) break;
  const { ms } = time(() => oldBashSpecifier(bashRule)(bashCommand(kb * 1024)));
  row(`a. Bash(${bashRule}) on a ${kb} KB command`, "before", ms);
}
for (const kb of size([8.5, 17, 34, 1024, 10 * 1024], [8.5, 34])) {
  const { ms } = time(() => compileBashSpecifier(bashRule)(bashCommand(kb * 1024)));
  row(`a. Bash(${bashRule}) on a ${kb} KB command`, "after", ms);
}

// --- b. a threshold tool glob with many `*` ------------------------------------------------------------------
const toolGlob = "mcp__*a*a*a*a*a*a*a*a*b";
for (const length of size([25, 30, 33], [25])) {
  if (!before) break;
  const { ms } = time(() => oldToolGlob(toolGlob)(`mcp__${"a".repeat(length - 5)}`));
  row(`b. ${toolGlob} on a ${length}-character name`, "before", ms);
}
for (const length of size([40, 55, 100_000], [40, 1000])) {
  const { ms } = time(() => compileToolGlob(toolGlob)(`mcp__${"a".repeat(length - 5)}`));
  row(`b. ${toolGlob} on a ${length}-character name`, "after", ms);
}

// --- c. a 5M-element array in tool_input ---------------------------------------------------------------------
{
  const elements = size(5_000_000, 50_000);
  const label = elements >= 1_000_000 ? `${elements / 1_000_000}M-element array` : `${elements / 1000}k-element array`;
  const input = { items: new Array(elements).fill(7) };
  const sides = before
    ? [
        ["before", oldTruncateStrings],
        ["after", truncateStrings],
      ]
    : [["after", truncateStrings]];
  for (const [side, truncate] of sides) {
    const { ms, result } = time(() => truncate(input, 2000));
    // what every later call pays: the state is read and written once per call (JSON round trip)
    const roundTrip = time(() => JSON.parse(JSON.stringify({ recent: [result, result, result, result, result] })));
    row(`c. ${label}: bound what enters state`, side, ms, `state ${JSON.stringify(result).length} chars`);
    row(`c. ${label}: each later call's state round trip`, side, roundTrip.ms);
  }
}

// --- d. toolgate run reading one 48 MB line ------------------------------------------------------------------
{
  const chunk = Buffer.alloc(64 * 1024, "x");
  const count = size(768, 16);
  const chunks = Array.from({ length: count }, () => chunk);
  chunks.push(Buffer.from("\n"));
  const label = `d. run: one ${count / 16} MB line in 64 KB chunks`;
  if (before) row(label, "before", time(() => oldSplitLines(chunks)).ms);
  const after = time(() => {
    let count = 0;
    const splitter = new LineSplitter(() => count++, 64 * 1024 * 1024);
    for (const piece of chunks) splitter.push(piece);
    splitter.end();
    return count;
  });
  row(label, "after", after.ms);
}

// --- e. a Read/Edit path rule with several `*` in one segment --------------------------------------------------
{
  const specifier = "**/a*a*a*a*a*a*b";
  const context = { cwd: "/repo", homeDir: "/home/me", projectRoot: "/repo" };
  const path = (length) => `/repo/src/${"a".repeat(length)}`;
  for (const length of size([30, 50, 100], [30])) {
    if (!before) break;
    // the code before: picomatch's RegExp for the anchored glob and for everything below it
    const exact = picomatch.makeRe(`/repo/**/a*a*a*a*a*a*b`, { dot: true });
    const below = picomatch.makeRe(`/repo/**/a*a*a*a*a*a*b/**`, { dot: true });
    const { ms } = time(() => exact.test(path(length)) || below.test(path(length)));
    row(`e. Read(${specifier}) on a ${length}-character segment`, "before", ms);
  }
  for (const length of size([100, 255, 100_000], [100, 1000])) {
    const test = compilePathSpecifier(specifier, context);
    const { ms } = time(() => test(path(length)));
    row(`e. Read(${specifier}) on a ${length}-character segment`, "after", ms);
  }
}

// --- the hook's decision time with the hostile rule and command ----------------------------------------------
{
  const dir = mkdtempSync(join(tmpdir(), "toolgate-adversarial-"));
  try {
    writeFileSync(join(dir, "toolgate.config.json"), JSON.stringify({ permissions: { deny: [`Bash(${bashRule})`] } }));
    for (const kb of size([34, 1024], [34])) {
      const event = {
        session_id: `s${kb}`,
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: { command: bashCommand(kb * 1024) },
        tool_use_id: "t1",
        cwd: dir,
      };
      const start = performance.now();
      const result = spawnSync(process.execPath, [join(root, "dist/cli/main.js"), "hook", "claude-code"], {
        cwd: dir,
        input: JSON.stringify(event),
        env: { PATH: process.env.PATH, HOME: dir, TOOLGATE_DB: join(dir, "db.sqlite") },
        encoding: "utf8",
        timeout: 120_000,
      });
      const decision =
        result.stdout === ""
          ? `no objection (the rule does not match), exit ${result.status}`
          : (JSON.parse(result.stdout).hookSpecificOutput?.permissionDecision ?? "allow (no output)");
      row(`hook: PreToolUse, Bash(${bashRule}) deny, ${kb} KB command`, "after", performance.now() - start, decision);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
