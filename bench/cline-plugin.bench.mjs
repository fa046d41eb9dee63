// Cline plugin (issue 28): what toolgate's `beforeTool` (+ `afterTool`) costs one call inside Cline's plugin
// sandbox. The plugin is the real entry (`dist/hosts/cline/cline-plugin.js`'s createClinePlugin: the composition
// root, a toolgate.config.json of 20 deny rules, a SQLite store in a temp directory, state mirrored for `toolgate
// run`), driven as Cline 3.0.65 drives it: `setup`, then per call `beforeTool` and, for a call it let through,
// `afterTool`. A refused call's `beforeTool` waits for its record to reach the store (Cline may end the sandbox as
// soon as a run ends). Run: npm run build && node bench/cline-plugin.bench.mjs
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createClinePlugin } from "../dist/hosts/cline/cline-plugin.js";
import { sizeFrom } from "./support/short.mjs";

const ALLOWED = sizeFrom("CLINE_BENCH_ALLOWED", 5000, 20);
const REFUSED = sizeFrom("CLINE_BENCH_REFUSED", 500, 5);
const dir = mkdtempSync(join(tmpdir(), "toolgate-cline-bench-"));
const rules = [];
for (let index = 0; index < 10; index++) rules.push(`Bash(deploy${index} *)`);
for (let index = 0; index < 10; index++) rules.push(`Read(/secrets${index}/**)`);
writeFileSync(
  join(dir, "toolgate.config.json"),
  JSON.stringify({ permissions: { deny: rules, allow: ["Bash(echo *)"] }, audit: { logs: { destination: "off" } } }),
);
// a threshold out of reach: every refusal is a plain refusal, never the abort
const environment = { HOME: dir, TOOLGATE_DB: join(dir, "toolgate.db"), TOOLGATE_DENY_THRESHOLD: "1000000" };

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
const ms = (ns) => `${(ns / 1e6).toFixed(2)} ms`;
const snapshot = { agentId: "agent_1", conversationId: "conv_1" };
const context = (id, command) => ({
  snapshot,
  toolCall: { toolCallId: id, toolName: "run_commands", input: { commands: [command] } },
  input: { commands: [command] },
});

async function timeCalls(count, run) {
  const samples = new Float64Array(count);
  for (let index = 0; index < count; index++) {
    const start = process.hrtime.bigint();
    await run(index);
    samples[index] = Number(process.hrtime.bigint() - start);
  }
  return Array.from(samples).sort((a, b) => a - b);
}

const plugin = createClinePlugin({ environment, tell: () => undefined });
const load = loadavg()[0].toFixed(1);
const opened = process.hrtime.bigint();
await plugin.setup({}, { session: { sessionId: "bench" }, workspaceInfo: { rootPath: dir } });
await plugin.hooks.beforeRun({ snapshot });
const firstCall = Number(process.hrtime.bigint() - opened);
const allowed = await timeCalls(ALLOWED, async (index) => {
  const call = context(`a${index}`, `echo step ${index}`);
  await plugin.hooks.beforeTool(call);
  await plugin.hooks.afterTool({ ...call, result: { output: [{ query: "", result: "ok\n", success: true }] } });
});
const refused = await timeCalls(REFUSED, async (index) => {
  const answer = await plugin.hooks.beforeTool(context(`r${index}`, `deploy${index % 10} prod-${index}`));
  if (answer?.skip !== true) throw new Error("a deny rule did not refuse the call");
});
await plugin.dispose();
rmSync(dir, { recursive: true, force: true });
const row = (label, sorted) =>
  `${label}: p50 ${ms(percentile(sorted, 50))}, p90 ${ms(percentile(sorted, 90))}, p99 ${ms(percentile(sorted, 99))}`;
console.log(`load average ${load} at the start, ${loadavg()[0].toFixed(1)} at the end`);
console.log(`setup to the first beforeRun answered (config, store, policy): ${ms(firstCall)}`);
console.log(row(`allowed call, beforeTool + afterTool, ${ALLOWED} calls`, allowed));
console.log(row(`refused call, beforeTool up to its record in the store, ${REFUSED} calls`, refused));
