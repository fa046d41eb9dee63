// Core reducer benchmark: ns per step for a realistic event mix, the edge's per-call cost (signature, pattern,
// redacted summary), and memory per idle session for 10k sessions. Run: npm run bench -- core
// (BENCH_SHORT=1: the short mode the test suite runs, 2,000 events, 100 sessions, two rounds each)
import { compileCoreConfig } from "../dist/core/compile-config.js";
import { initialState } from "../dist/core/initial-state.js";
import { step } from "../dist/core/step.js";
import { defaultPorts } from "../dist/guard/default-ports.js";
import { size } from "./support/short.mjs";

const ports = defaultPorts();
const config = compileCoreConfig({ ports, options: { headlessStrategy: "fallback" } });
const commands = [
  "npm test",
  "git status",
  "cat src/index.ts",
  "rm -rf build",
  "ls -la",
  "git diff HEAD~1",
  "npx tsc --noEmit",
  "curl -s http://localhost:3000/health",
];
const tools = ["Bash", "Read", "Edit", "Grep"];

function makeCall(index) {
  const tool = tools[index % tools.length];
  const input =
    tool === "Bash"
      ? { command: commands[index % commands.length], description: "run it" }
      : tool === "Grep"
        ? { pattern: "TODO", path: "src" }
        : { file_path: `/repo/src/file${index % 13}.ts` };
  const call = { toolUseId: `toolu_${index}`, tool, input };
  return { ...call, ...ports.describeCall(tool, input) };
}

// A realistic mix per call: requested, then allowed+succeeded (most), or denied (1 in 6); a new turn every 25 calls.
function eventMix(count) {
  const events = [];
  let at = 1_763_790_000_000;
  for (let index = 0; events.length < count; index++) {
    const call = makeCall(index);
    at += 1500;
    if (index % 25 === 0) events.push({ type: "turn.started", at, sessionId: "s" });
    events.push({ type: "call.requested", at, sessionId: "s", call });
    if (index % 6 === 5) {
      events.push({
        type: "call.denied",
        at,
        sessionId: "s",
        call,
        source: "rule",
        reason: "denied by rule",
        rule: "Bash(rm *)",
      });
    } else {
      events.push({ type: "call.allowed", at, sessionId: "s", call });
      events.push({ type: "call.succeeded", at, sessionId: "s", call });
    }
  }
  return events.slice(0, count);
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

const events = eventMix(size(200_000, 2_000));
const ROUNDS = size(10, 2);
let state = initialState({ sessionId: "s", interactive: false });
// warm-up
for (let round = 0; round < size(3, 1); round++) {
  state = initialState({ sessionId: "s", interactive: false });
  for (const item of events) state = step(state, item, config).state;
}
// 1. each step timed on its own (includes ~20-40 ns of hrtime overhead per reading)
const single = new Float64Array(events.length);
const byType = {};
state = initialState({ sessionId: "s", interactive: false });
for (let index = 0; index < events.length; index++) {
  const t0 = process.hrtime.bigint();
  state = step(state, events[index], config).state;
  single[index] = Number(process.hrtime.bigint() - t0);
  const type = events[index].type;
  byType[type] ??= [];
  byType[type].push(single[index]);
}
const sortedSingle = Array.from(single).sort((a, b) => a - b);
// 2. throughput: the whole stream, no per-step timer
const rounds = [];
for (let round = 0; round < ROUNDS; round++) {
  state = initialState({ sessionId: "s", interactive: false });
  const t0 = process.hrtime.bigint();
  for (const item of events) state = step(state, item, config).state;
  rounds.push(Number(process.hrtime.bigint() - t0) / events.length);
}
rounds.sort((a, b) => a - b);
const kinds = {};
for (const item of events) kinds[item.type] = (kinds[item.type] ?? 0) + 1;
console.log(`step(): ${events.length} events, mix ${JSON.stringify(kinds)}`);
console.log(
  `  per step, timed one by one: p50 ${percentile(sortedSingle, 50).toFixed(0)} ns, p90 ${percentile(sortedSingle, 90).toFixed(0)} ns, p99 ${percentile(sortedSingle, 99).toFixed(0)} ns`,
);
console.log(
  `  mean over the whole stream (median of ${ROUNDS} runs): ${percentile(rounds, 50).toFixed(0)} ns per step`,
);
for (const [type, times] of Object.entries(byType)) {
  times.sort((a, b) => a - b);
  console.log(
    `  ${type.padEnd(15)} p50 ${percentile(times, 50).toFixed(0)} ns, p99 ${percentile(times, 99).toFixed(0)} ns`,
  );
}

// denial-only stream (the expensive path: counting, redaction of the record, guidance text)
const denials = events.filter((item) => item.type === "call.denied");
const denialTimes = [];
state = initialState({ sessionId: "s", interactive: false });
for (let round = 0; round < size(20, 2); round++) {
  const t0 = process.hrtime.bigint();
  for (const item of denials) state = step(state, item, config).state;
  denialTimes.push(Number(process.hrtime.bigint() - t0) / denials.length);
}
denialTimes.sort((a, b) => a - b);
console.log(`  ns per call.denied step: p50 ${percentile(denialTimes, 50).toFixed(0)} (includes redacting the record)`);

// the edge's once-per-call cost: signature of the redacted input + pattern + redacted summary
const raw = Array.from({ length: size(20_000, 500) }, (_, index) => {
  const call = makeCall(index);
  return [call.tool, call.input];
});
const describeTimes = [];
for (let round = 0; round < ROUNDS; round++) {
  const t0 = process.hrtime.bigint();
  for (const [tool, input] of raw) ports.describeCall(tool, input);
  describeTimes.push(Number(process.hrtime.bigint() - t0) / raw.length);
}
describeTimes.sort((a, b) => a - b);
console.log(`describeCall() at the edge, once per call: p50 ${percentile(describeTimes, 50).toFixed(0)} ns`);

// memory: 10k concurrent sessions, each after a short active spell (one turn, 4 calls, 1 denial), now idle
if (typeof globalThis.gc !== "function") {
  console.log("memory: run with node --expose-gc (npm run bench does) to measure bytes per session");
} else {
  const spell = eventMix(12).filter((item) => item.type !== "turn.started");
  globalThis.gc();
  const before = process.memoryUsage().heapUsed;
  const sessions = new Map();
  const count = size(10_000, 100);
  for (let index = 0; index < count; index++) {
    let session = initialState({ sessionId: `session-${index}`, interactive: false });
    for (const item of spell) session = step(session, { ...item, sessionId: `session-${index}` }, config).state;
    sessions.set(`session-${index}`, session);
  }
  globalThis.gc();
  const after = process.memoryUsage().heapUsed;
  const fresh = JSON.stringify(initialState({ sessionId: "session-0", interactive: false })).length;
  console.log(
    `memory: ${count.toLocaleString("en-US")} idle sessions (each after ${spell.length} events incl. ${spell.filter((e) => e.type === "call.denied").length} denial): ` +
      `${((after - before) / count).toFixed(0)} bytes of heap per session; JSON ${JSON.stringify(sessions.get("session-0")).length} bytes (fresh session: ${fresh})`,
  );
}
