import { renderDemo } from "../../demo/render-demo.js";
import { runDemo } from "../../demo/run-demo.js";
import { defineCommand } from "../args/command-spec.js";
import { EXIT } from "../exit-codes.js";
import { demoDocument } from "../output/demo-output.js";
import { writeJson } from "../output/json-document.js";

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
    process.stdout.write(renderDemo(result, process.stdout.isTTY ? (process.stdout.columns ?? 120) : 120));
  },
});
