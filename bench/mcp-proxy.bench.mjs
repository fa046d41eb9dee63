// MCP proxy overhead (issue 14): one tools/call round trip through `toolgate mcp-proxy` vs the same call straight
// to the same server, in the same run. The real SDK client (`@modelcontextprotocol/sdk`), the real reference
// filesystem server (test/e2e/node_modules/.bin/mcp-server-filesystem; `npm run e2e:deps` installs it), the built
// CLI (dist/cli/main.js) with its default config and a SQLite store in a temp directory. Each call reads one of 100
// small files in turn (identical calls would, rightly, trip toolgate's loop detector). Rounds alternate which side
// goes first. Run: npm run build && node bench/mcp-proxy.bench.mjs
// (BENCH_SHORT=1: the short mode the test suite runs, 2 rounds of 20 calls)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { sizeFrom } from "./support/short.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const SERVER = join(ROOT, "test", "e2e", "node_modules", ".bin", "mcp-server-filesystem");
const CALLS = sizeFrom("MCP_BENCH_CALLS", 300, 20);
const ROUNDS = sizeFrom("MCP_BENCH_ROUNDS", 6, 2);
const FILES = 100;

const dir = mkdtempSync(join(tmpdir(), "toolgate-mcp-bench-"));
const work = join(dir, "work");
mkdirSync(work);
for (let index = 0; index < FILES; index++) writeFileSync(join(work, `file-${index}.txt`), `line ${index}\n`);
const env = { PATH: process.env.PATH ?? "", HOME: dir, TOOLGATE_DB: join(dir, "toolgate.db") };

async function open(proxied) {
  const argv = proxied
    ? [process.execPath, join(ROOT, "dist", "cli", "main.js"), "mcp-proxy", "--server", "fs", "--", SERVER, work]
    : [SERVER, work];
  const transport = new StdioClientTransport({
    command: argv[0],
    args: argv.slice(1),
    env,
    cwd: dir,
    stderr: "ignore",
  });
  const client = new Client({ name: "bench", version: "1" }, { capabilities: {} });
  await client.connect(transport);
  return client;
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
const ms = (ns) => `${(ns / 1e6).toFixed(3)} ms`;

async function timeCalls(client, offset) {
  const samples = [];
  for (let index = 0; index < CALLS; index++) {
    const path = join(work, `file-${(offset + index) % FILES}.txt`);
    const start = process.hrtime.bigint();
    const result = await client.callTool({ name: "read_text_file", arguments: { path } });
    samples.push(Number(process.hrtime.bigint() - start));
    if (result.isError) throw new Error(`the bench's calls must succeed: ${JSON.stringify(result)}`);
  }
  return samples;
}

const load = loadavg()[0].toFixed(1);
const direct = await open(false);
const proxy = await open(true);
// warm-up: both servers' code paths, toolgate's first session and store
await timeCalls(direct, 0);
await timeCalls(proxy, 0);
const times = { direct: [], proxy: [] };
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? ["direct", "proxy"] : ["proxy", "direct"];
  for (const side of order) times[side].push(...(await timeCalls(side === "direct" ? direct : proxy, round * 7)));
}
await direct.close();
await proxy.close();
rmSync(dir, { recursive: true, force: true });

const summary = {};
for (const side of ["direct", "proxy"]) {
  const sorted = times[side].sort((a, b) => a - b);
  summary[side] = { median: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99) };
}
console.log(
  `mcp-proxy: ${ROUNDS} rounds x ${CALLS} tools/call (read_text_file), Node ${process.version}, load average ${load} at start, ${loadavg()[0].toFixed(1)} at end`,
);
console.log("| path | median | p95 | p99 |");
console.log("| --- | --- | --- | --- |");
for (const side of ["direct", "proxy"]) {
  const row = summary[side];
  console.log(`| ${side} | ${ms(row.median)} | ${ms(row.p95)} | ${ms(row.p99)} |`);
}
const extra = summary.proxy.median - summary.direct.median;
console.log(
  `proxy overhead per call: +${ms(extra)} at the median (${(summary.proxy.median / summary.direct.median).toFixed(2)}x), +${ms(summary.proxy.p95 - summary.direct.p95)} at p95`,
);
