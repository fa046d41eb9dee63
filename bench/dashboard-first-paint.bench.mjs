// First paint of the dashboard's overview on a store of 1,000,000 denials, measured in Chromium.
// Usage: npm run bench -- dashboard   (needs `npm run build`, Debian chromium, and test/e2e's playwright-core:
//        `npm run e2e:deps`). DASHBOARD_BENCH_ROWS sets the table size; CHROMIUM_PATH the browser.
//        BENCH_SHORT=1: the short mode the test suite runs (2,000 denials, 2 loads).
// What is timed, per page load (fresh tab): from navigation start to
//   - first-contentful-paint (the browser's `paint` entry: the page shell),
//   - `toolgate:overview-rendered` (the page's own mark: the overview's figures, chart and tables are on screen:
//     the store's report, the per-day series by source and the incident counts, each in SQL).
// The server is the real `toolgate dashboard` CLI on a SQLite store filled through the store's own append.

import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createSqliteStore } from "../dist/store/sqlite/index.js";
import { size, sizeFrom } from "./support/short.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");
const ROWS = sizeFrom("DASHBOARD_BENCH_ROWS", 1_000_000, 2_000);
const LOADS = size(7, 2);
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const playwrightPath = join(root, "test", "e2e", "node_modules", "playwright-core", "index.mjs");

const day = 86_400_000;
const now = Date.now();
const tools = ["Bash", "Read", "Write", "Edit", "WebFetch", "Grep", "Glob", "Task", "mcp__github__create_issue"];
const sources = ["rule", "headless", "user", "headless", "sandbox", "rule", "loop", "hook", "aborted", "headless"];
const hosts = ["claude-code", "codex", "opencode", "gemini"];
const PER_SESSION = 200;

// Sessions of 200 denials, 10 s apart, spread evenly over 28 of the last 30 days (all inside the default window: the
// worst case); each session repeats ~10 of 2,000 calls, as agents retry the same few.
function makeRecords(count, seed) {
  const sessionsTotal = Math.ceil(ROWS / PER_SESSION);
  const records = new Array(count);
  for (let index = 0; index < count; index++) {
    const n = index + seed;
    const session = Math.floor(n / PER_SESSION);
    const signatureIndex = (session * 37 + (n % 10) * 101) % 2000;
    const tool = tools[signatureIndex % tools.length];
    const source = sources[(n * 7 + session) % sources.length];
    const command = `rm -rf build/${signatureIndex} && echo done`;
    const at = now - 29 * day + Math.floor((session * 28 * day) / sessionsTotal) + (n % PER_SESSION) * 10_000;
    records[index] = {
      seq: (n % PER_SESSION) + 1,
      sessionId: `session-${session}`,
      turn: 1 + Math.floor((n % PER_SESSION) / 20),
      tool,
      toolUseId: `toolu_${n}`,
      source,
      reason: source === "rule" ? "Denied by rule Bash(rm *)" : "requires approval",
      ...(source === "rule" ? { rule: "Bash(rm *)" } : {}),
      signature: `sig-${tool}-${signatureIndex}`,
      pattern: `p${signatureIndex % 40}`,
      inputSummary: command,
      input: { command, description: "clean the build directory" },
      at,
      timestamp: new Date(at).toISOString(),
      host: hosts[session % hosts.length],
      labels: { workflow: session % 3 === 0 ? "ci" : "local", repository: `acme/app-${session % 5}` },
    };
  }
  return records;
}

async function fill(store) {
  for (let offset = 0; offset < ROWS; offset += 5_000)
    await store.denials.append(makeRecords(Math.min(5_000, ROWS - offset), offset));
  const events = [];
  for (let index = 0; index < 2_000; index++) {
    events.push({
      kind: index % 4 === 0 ? "run.aborted" : "loop.detected",
      sessionId: `session-${(index * 13) % Math.ceil(ROWS / PER_SESSION)}`,
      turn: 1,
      at: now - ((index * 7_777_777) % (29 * day)),
      tool: "Bash",
      detail: {},
    });
  }
  await store.denials.appendEvents(events);
}

/** Fills a store, starts the dashboard and times LOADS page loads in Chromium; prints the figures. */
async function firstPaint() {
  const { chromium } = await import(pathToFileURL(playwrightPath).href);
  const directory = mkdtempSync(join(tmpdir(), "toolgate-dashboard-bench-"));
  // DASHBOARD_BENCH_DB=<file>: fill that file once and reuse it on later runs (it is not removed)
  const keep = process.env.DASHBOARD_BENCH_DB;
  const filename = keep ?? join(directory, "toolgate.db");
  let server;
  let browser;
  try {
    const fillStart = performance.now();
    const reuse = keep !== undefined && existsSync(keep);
    const store = await createSqliteStore({ filename });
    if (!reuse) await fill(store);
    await store.close();
    console.log(
      `${reuse ? "reused" : "filled"} ${ROWS.toLocaleString("en-US")} denials in ${((performance.now() - fillStart) / 1000).toFixed(0)} s`,
    );

    server = spawn(process.execPath, [join(root, "dist", "cli", "main.js"), "dashboard", "--since", "30d"], {
      env: { ...process.env, HOME: directory, TOOLGATE_DB: filename, TOOLGATE_DATABASE_URL: "" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const url = await new Promise((resolve, reject) => {
      let text = "";
      server.stdout.on("data", (chunk) => {
        text += chunk;
        const match = /toolgate dashboard: (http:\/\/\S+)/.exec(text);
        if (match) resolve(match[1]);
      });
      server.once("exit", (code) => reject(new Error(`toolgate dashboard exited ${code}`)));
    });

    const profile = join(directory, "chromium-profile");
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
      viewport: { width: 1200, height: 900 },
    });
    const loads = [];
    for (let run = 0; run < LOADS; run++) {
      const page = await browser.newPage();
      await page.goto(url);
      await page.waitForFunction(() => performance.getEntriesByName("toolgate:overview-rendered").length > 0, null, {
        timeout: 60_000,
      });
      const timing = await page.evaluate(() => ({
        firstContentfulPaint:
          performance.getEntriesByType("paint").find((entry) => entry.name === "first-contentful-paint")?.startTime ??
          null,
        overview: performance.getEntriesByName("toolgate:overview-rendered")[0].startTime,
        total: Number(document.querySelector("#kpi-total")?.textContent?.replaceAll(",", "")),
      }));
      if (timing.total !== ROWS) throw new Error(`the overview shows ${timing.total} denials, expected ${ROWS}`);
      loads.push(timing);
      await page.close();
    }
    const sorted = (key) => loads.map((load) => load[key]).sort((a, b) => a - b);
    const median = (values) => values[Math.floor(values.length / 2)];
    const ms = (value) => `${Math.round(value)} ms`;
    const overview = sorted("overview");
    const paints = loads
      .map((load) => load.firstContentfulPaint)
      .filter((value) => value !== null)
      .sort((a, b) => a - b);
    console.log(
      `dashboard first paint on ${ROWS.toLocaleString("en-US")} denials (${LOADS} loads, fresh tab each): overview rendered median ${ms(median(overview))}, first load ${ms(loads[0].overview)}, max ${ms(overview.at(-1))}; first-contentful-paint median ${paints.length > 0 ? ms(median(paints)) : "not reported by this Chromium"}; load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores`,
    );
  } finally {
    await browser?.close().catch(() => undefined);
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server.once("exit", resolve));
      server.kill("SIGINT");
      await exited;
    }
    rmSync(directory, { recursive: true, force: true });
  }
}

// not process.exit: bench/run.mjs imports every bench into one process, and the benches after this one must still run
if (!existsSync(playwrightPath) || !existsSync(CHROMIUM))
  console.log(`dashboard first paint: skipped (needs ${playwrightPath}: npm run e2e:deps, and ${CHROMIUM})`);
else await firstPaint();
