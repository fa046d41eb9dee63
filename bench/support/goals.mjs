// The goals a benchmark checks (issue 30: "npm run bench reports each goal met"), gathered from every bench that
// runs in this process and printed once, at exit, as one table: each goal, what this run measured against it, and
// whether it is met. `npm run bench` runs every bench in one process, so its table holds every goal side by side
// with the load average at the start and the end (a goal is judged on a quiet machine; the table says how quiet this
// one was). In the short mode (BENCH_SHORT=1, the test suite's) nothing is a measurement: the table says so and
// judges nothing.
import { readFileSync } from "node:fs";
import { short } from "./short.mjs";

const goals = [];
const loadAtStart = loadAverage();

/**
 * Records one goal's result.
 * @param {{ goal: string, measured: string, met: boolean, command?: string }} result what the goal is, what this
 *   run measured (with its unit), whether it is met, and which bench (with which variables) measured it
 */
export function goal(result) {
  if (goals.length === 0) process.once("exit", printGoals);
  goals.push(result);
}

/** The goals recorded so far (for a test). */
export function recordedGoals() {
  return [...goals];
}

function loadAverage() {
  try {
    return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  } catch {
    return "unknown";
  }
}

function printGoals() {
  const lines = [
    "",
    "## goals (issue 30), as measured in this run",
    "",
    `load average at the start ${loadAtStart}, at the end ${loadAverage()}${short ? "; SHORT MODE: tiny sizes, nothing below is a measurement" : ""}`,
    "",
    "| goal | measured | met? | bench |",
    "|---|---|---|---|",
  ];
  for (const { goal: name, measured, met, command } of goals) {
    lines.push(`| ${name} | ${measured} | ${short ? "(short mode)" : met ? "yes" : "no"} | ${command ?? ""} |`);
  }
  const judged = short ? 0 : goals.filter((each) => each.met).length;
  lines.push("", short ? `${goals.length} goals checked in the short mode` : `${judged} of ${goals.length} goals met`);
  process.stdout.write(`${lines.join("\n")}\n`);
}
