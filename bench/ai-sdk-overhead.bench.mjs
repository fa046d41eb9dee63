// AI SDK wrapper overhead (issue 14): what `guardTools` adds to one tool call, against the bare tool, in the same
// run. Two levels: (1) the SDK's own per-call calls, `needsApproval` + `execute`, timed directly; (2) whole
// `generateText` loops with the AI SDK's mock model (`ai/test`), one tool call per step, wrapped vs bare.
// The guard is the real one: `openToolgateForAiSdk` with a toolgate.config.json (20 rules) and a SQLite store in a
// temp directory. Run: npm run build && node bench/ai-sdk-overhead.bench.mjs
// (BENCH_SHORT=1: the short mode the test suite runs, 200 calls, 5 steps, 2 loops)
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { generateText, jsonSchema, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { openToolgateForAiSdk } from "../dist/hosts/ai-sdk/ai-sdk-entry.js";
import { sizeFrom } from "./support/short.mjs";

const CALLS = sizeFrom("AI_SDK_BENCH_CALLS", 20_000, 200);
const STEPS = sizeFrom("AI_SDK_BENCH_STEPS", 100, 5);
const ROUNDS = sizeFrom("AI_SDK_BENCH_ROUNDS", 11, 2);
const dir = mkdtempSync(join(tmpdir(), "toolgate-ai-sdk-bench-"));
const rules = [];
for (let index = 0; index < 10; index++) rules.push(`Bash(deploy${index} *)`);
for (let index = 0; index < 10; index++) rules.push(`Read(/secrets${index}/**)`);
writeFileSync(
  join(dir, "toolgate.config.json"),
  JSON.stringify({ permissions: { deny: rules }, audit: { logs: { destination: "off" } } }),
);
const env = { HOME: dir, TOOLGATE_DB: join(dir, "toolgate.db") };

const inputSchema = jsonSchema({ type: "object", properties: { command: { type: "string" } } });
const bare = { runCommand: tool({ inputSchema, execute: async ({ command }) => `ran ${command}` }) };

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
const us = (ns) => `${(ns / 1000).toFixed(1)} µs`;

/** Per-call times (ns) of `run(index)`, after a warm-up. */
async function timeCalls(run, count) {
  for (let index = 0; index < Math.min(2000, count); index++) await run(-1 - index);
  const samples = new Float64Array(count);
  for (let index = 0; index < count; index++) {
    const start = process.hrtime.bigint();
    await run(index);
    samples[index] = Number(process.hrtime.bigint() - start);
  }
  return Array.from(samples).sort((a, b) => a - b);
}

async function level1(label, command) {
  const toolgate = await openToolgateForAiSdk({ cwd: dir, homeDir: dir, env, sessionId: `bench-${label}` });
  const guarded = toolgate.guardTools(bare, { toolNames: { runCommand: "Bash" } });
  const wrapped = guarded.tools.runCommand;
  const options = (index) => ({ toolCallId: `${label}-${index}`, messages: [] });
  // a different command each call, as a real agent's: identical calls would (rightly) trip the loop detector
  const bareTimes = await timeCalls(
    (index) => bare.runCommand.execute({ command: `${command} ${index}` }, options(index)),
    CALLS,
  );
  const wrappedTimes = await timeCalls(async (index) => {
    const opts = options(index);
    const input = { command: `${command} ${index}` };
    if (await wrapped.needsApproval(input, opts)) throw new Error("the bench's calls never ask");
    await wrapped.execute(input, opts);
  }, CALLS);
  await toolgate.close();
  return { label, bareTimes, wrappedTimes };
}

/**
 * Refused calls: `rm -rf build<n>` against `Bash(rm *)`-style deny rules (the config's `deploy<n>` rules here), headless
 * fallback so the run goes on past the threshold. Each refusal is recorded: the record and the mirrored state are
 * written to SQLite in the background, so the wall time up to `close()` (which waits for them) is reported too.
 */
async function refusals(count) {
  const toolgate = await openToolgateForAiSdk({
    cwd: dir,
    homeDir: dir,
    env,
    sessionId: "bench-denied",
    core: { headlessStrategy: "fallback" },
  });
  const wrapped = toolgate.guardTools(bare, { toolNames: { runCommand: "Bash" } }).tools.runCommand;
  const start = process.hrtime.bigint();
  const times = await timeCalls(async (index) => {
    const opts = { toolCallId: `denied-${index}`, messages: [] };
    const input = { command: `deploy${Math.abs(index) % 10} --target build${index}` };
    if (await wrapped.needsApproval(input, opts)) throw new Error("the bench's calls never ask");
    try {
      await wrapped.execute(input, opts);
    } catch {
      return; // refused, as expected: the SDK turns this into the call's tool-error
    }
    throw new Error("a refused call ran");
  }, count);
  await toolgate.close();
  const wallPerCall = Number(process.hrtime.bigint() - start) / (count + Math.min(2000, count));
  return { times, wallPerCall };
}

function mockModel(command) {
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      step += 1;
      const done = step > STEPS;
      return {
        content: done
          ? [{ type: "text", text: "done" }]
          : [
              {
                type: "tool-call",
                toolCallId: `c${step}`,
                toolName: "runCommand",
                input: JSON.stringify({ command: `${command} ${step}` }),
              },
            ],
        finishReason: { unified: done ? "stop" : "tool-calls", raw: undefined },
        usage: {
          inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 1, text: 1, reasoning: undefined },
        },
        warnings: [],
      };
    },
  });
}

async function level2(command) {
  const loop = async (tools) => {
    const start = process.hrtime.bigint();
    await generateText({ model: mockModel(command), tools, stopWhen: stepCountIs(STEPS + 1), prompt: "go" });
    return Number(process.hrtime.bigint() - start) / STEPS;
  };
  // paired rounds, alternating which side goes first: the machine's load drifts less within a pair than across
  const pairs = [];
  for (let round = 0; round < ROUNDS; round++) {
    const toolgate = await openToolgateForAiSdk({ cwd: dir, homeDir: dir, env, sessionId: `loop-${round}` });
    const wrapped = toolgate.guardTools(bare, { toolNames: { runCommand: "Bash" } }).tools;
    const first = round % 2 === 0 ? await loop(bare) : await loop(wrapped);
    const second = round % 2 === 0 ? await loop(wrapped) : await loop(bare);
    await toolgate.close();
    pairs.push(round % 2 === 0 ? { bare: first, wrapped: second } : { bare: second, wrapped: first });
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const bares = pairs.map((pair) => pair.bare);
  return {
    bare: median(bares),
    wrapped: median(pairs.map((pair) => pair.wrapped)),
    added: median(pairs.map((pair) => pair.wrapped - pair.bare)),
    spread: [Math.min(...bares), Math.max(...bares)],
  };
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");

try {
  console.log(`load average at start: ${load()}`);
  console.log(`(1) one tool call, needsApproval + execute, ${CALLS} calls each, p50 / p90 / p99:`);
  const { bareTimes, wrappedTimes } = await level1("allowed", "npm test");
  const line = (times) => [50, 90, 99].map((p) => us(percentile(times, p))).join(" / ");
  console.log(`  bare tool:    ${line(bareTimes)}`);
  console.log(`  guardTools:   ${line(wrappedTimes)}`);
  console.log(`  added at p50: ${us(percentile(wrappedTimes, 50) - percentile(bareTimes, 50))}`);
  const refused = await refusals(Math.min(CALLS, 5000));
  console.log(`  refused (deny rule, recorded): ${line(refused.times)}`);
  console.log(`  refused, wall time per call including the SQLite writes (close() waits): ${us(refused.wallPerCall)}`);
  console.log(`(2) generateText, ${STEPS} steps of one tool call each (mock model), ${ROUNDS} paired loops, per call:`);
  const loop = await level2("npm test");
  console.log(`  bare tool:  ${us(loop.bare)} (median; loops ranged ${us(loop.spread[0])} to ${us(loop.spread[1])})`);
  console.log(`  guardTools: ${us(loop.wrapped)} (median)`);
  console.log(`  added: ${us(loop.added)} (median of the paired differences)`);
  console.log(`load average at end: ${load()}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
