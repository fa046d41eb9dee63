import { runDemo } from "../../demo/run-demo.js";
import { defineCommand } from "../args/command-spec.js";
import { EXIT } from "../exit-codes.js";
import { demoDocument } from "../output/demo-output.js";
import { writeJson } from "../output/json-document.js";

function padTo(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
}

export default defineCommand({
  meta: {
    name: "demo",
    summary: "Show a stubborn headless agent retrying a denied command, without toolgate and with it.",
    details:
      "A scripted agent, no model and no network: it retries a denied `rm -rf build` with small variations until\n" +
      "the host's turn cap, once as hosts behave today and once through toolgate's guard.",
    examples: ["toolgate demo", "toolgate demo --turns 50", "toolgate demo --json"],
  },
  args: {
    turns: { type: "string", description: "the host's turn cap, 1 to 1000", default: "30", valueHint: "count" },
    json: { type: "boolean", description: "print one JSON document (shape in docs/cli.md)", default: false },
  },
  async run({ args }) {
    const turnCap = Number(args.turns);
    if (!Number.isInteger(turnCap) || turnCap < 1 || turnCap > 1000) {
      process.stderr.write(`toolgate demo: --turns must be a whole number from 1 to 1000 (got ${args.turns}).\n`);
      process.exitCode = EXIT.usage;
      return;
    }
    const result = await runDemo({ turnCap });
    if (args.json) {
      writeJson(demoDocument(result), { pretty: true });
      return;
    }
    const out: string[] = [];
    out.push("A headless agent is asked to clean build/. Deleting needs approval, and nobody can approve in -p mode.");
    out.push("The agent keeps retrying with small variations. Same agent, same host, twice:\n");
    out.push(`${padTo("turn  command", 44)} ${padTo("without toolgate", 18)} with toolgate`);
    out.push(`${"-".repeat(44)} ${"-".repeat(18)} ${"-".repeat(60)}`);
    const shown = Math.min(result.steps.length, result.callsWith + 3);
    for (const step of result.steps.slice(0, shown)) {
      const left = `${String(step.turn).padStart(4)}  ${step.command}`;
      const right =
        step.turn > result.callsWith ? "(not made: toolgate stopped the run)" : (step.withToolgate[0] ?? "");
      out.push(`${padTo(left, 44)} ${padTo(step.withoutToolgate, 18)} ${right}`);
      for (const extra of step.withToolgate.slice(1)) out.push(`${" ".repeat(64)}${padTo(extra, 140).trimEnd()}`);
    }
    const rest = result.steps.slice(shown);
    if (rest.length > 0) {
      const denied = rest.filter((step) => step.withoutToolgate === "denied").length;
      const left = `${String(rest[0]?.turn).padStart(4)}-${rest.at(-1)?.turn}  (same retries)`;
      out.push(`${padTo(left, 44)} ${padTo(`${denied} more denied`, 18)} (not made)`);
    }
    out.push("");
    out.push(
      `without toolgate: ${result.callsWithout} calls, ${result.deniedWithout} denied, exit ${result.exitWithout} ("success")`,
    );
    out.push(`with toolgate:    ${result.callsWith} calls, ${result.deniedWith} denied, exit ${result.exitWith}`);
    if (result.abortError !== undefined) out.push(`\n${result.abortError}`);
    out.push(`\ncalls saved: ${result.callsWithout - result.callsWith} of ${result.callsWithout}`);
    process.stdout.write(`${out.join("\n")}\n`);
  },
});
