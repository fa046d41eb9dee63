// ACP proxy overhead (issue 29): one ACP exchange through `toolgate acp-proxy` vs the same exchange straight to the
// same agent, in the same run. The editor is the official SDK's client side (`@agentclientprotocol/sdk`), the agent
// the scripted SDK agent of the contract suite (test/acp/scripted-agent.mjs), the proxy the built CLI
// (dist/cli/main.js) with its default config and a SQLite store in a temp directory. Two exchanges:
// - `prompt`: one session/prompt and its answer (a request each way through the proxy, nothing for toolgate to do);
// - `permission`: a session/prompt during which the agent sends a session/update and a session/request_permission
//   for `ls -la <n>` that the editor allows (toolgate decides it first: one policy step and one state transaction).
// Rounds alternate which side goes first. Run: npm run build && node bench/acp-proxy.bench.mjs
// (ACP_BENCH_CALLS, ACP_BENCH_ROUNDS: sizes; defaults 200 and 6)
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import * as acp from "@agentclientprotocol/sdk";
import { sizeFrom } from "./support/short.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const AGENT = join(ROOT, "test", "acp", "scripted-agent.mjs");
const CALLS = sizeFrom("ACP_BENCH_CALLS", 200, 5);
const ROUNDS = sizeFrom("ACP_BENCH_ROUNDS", 6, 1);

const dir = mkdtempSync(join(tmpdir(), "toolgate-acp-bench-"));
const env = {
  PATH: process.env.PATH ?? "",
  HOME: dir,
  TOOLGATE_DB: join(dir, "toolgate.db"),
  TOOLGATE_INTERACTIVE: "1",
};

async function open(proxied) {
  const argv = proxied
    ? [process.execPath, join(ROOT, "dist", "cli", "main.js"), "acp-proxy", "--", process.execPath, AGENT]
    : [process.execPath, AGENT];
  const child = spawn(argv[0], argv.slice(1), { cwd: dir, env, stdio: ["pipe", "pipe", "ignore"] });
  const connection = acp
    .client({ name: "bench" })
    .onRequest("session/request_permission", () => ({ outcome: { outcome: "selected", optionId: "allow" } }))
    .onNotification("session/update", () => undefined)
    .connect(acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)));
  await connection.agent.request("initialize", { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
  const { sessionId } = await connection.agent.request("session/new", { cwd: dir, mcpServers: [] });
  return {
    prompt: (text) => connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] }),
    close: async () => {
      connection.close();
      child.stdin.end();
      await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
const ms = (ns) => `${(ns / 1e6).toFixed(3)} ms`;

async function time(side, kind, offset) {
  const samples = [];
  for (let index = 0; index < CALLS; index++) {
    // distinct commands: identical calls would, rightly, trip toolgate's loop detector
    const text =
      kind === "prompt"
        ? "{}"
        : JSON.stringify({ command: `ls -la dir${offset + index}`, callId: `c${offset + index}` });
    const start = process.hrtime.bigint();
    const answer = await side.prompt(text);
    samples.push(Number(process.hrtime.bigint() - start));
    const outcome = answer._meta?.scripted?.outcome;
    if (kind === "permission" && outcome?.optionId !== "allow")
      throw new Error(`not allowed: ${JSON.stringify(answer)}`);
  }
  return samples;
}

const load = loadavg()[0].toFixed(1);
const sides = { direct: await open(false), proxy: await open(true) };
for (const name of ["direct", "proxy"]) {
  await time(sides[name], "prompt", 0);
  await time(sides[name], "permission", 1_000_000);
}
const times = { prompt: { direct: [], proxy: [] }, permission: { direct: [], proxy: [] } };
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? ["direct", "proxy"] : ["proxy", "direct"];
  for (const kind of ["prompt", "permission"]) {
    for (const name of order) times[kind][name].push(...(await time(sides[name], kind, round * CALLS)));
  }
}
await sides.direct.close();
await sides.proxy.close();
rmSync(dir, { recursive: true, force: true });

console.log(
  `acp-proxy: ${ROUNDS} rounds x ${CALLS} exchanges of each kind, Node ${process.version}, load average ${load} at start, ${loadavg()[0].toFixed(1)} at end`,
);
console.log("| exchange | path | median | p95 | p99 |");
console.log("| --- | --- | --- | --- | --- |");
for (const kind of ["prompt", "permission"]) {
  const summary = {};
  for (const name of ["direct", "proxy"]) {
    const sorted = times[kind][name].sort((a, b) => a - b);
    summary[name] = { median: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99) };
    console.log(
      `| ${kind} | ${name} | ${ms(summary[name].median)} | ${ms(summary[name].p95)} | ${ms(summary[name].p99)} |`,
    );
  }
  console.log(
    `| ${kind} | proxy overhead | +${ms(summary.proxy.median - summary.direct.median)} | +${ms(summary.proxy.p95 - summary.direct.p95)} | |`,
  );
}
