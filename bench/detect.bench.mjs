// Detection: redaction throughput (MB/s) on realistic tool inputs, OS-denial classifier and denial-text recogniser
// calls per second, adversarial 1 MB inputs, and redaction recall / false-positive rate on the corpus.
// Usage: npm run build && node bench/run.mjs detect
//        (BENCH_QUICK=1: 200 ms per case instead of 1.5 s; BENCH_SHORT=1: the short mode the test suite runs, 200
//        inputs and one run per case)

import { AGENT_CODE_DENIAL_TEXTS } from "../dist/detect/agent-code-denial-texts.js";
import { classifyOsDenial } from "../dist/detect/classify-os-denial.js";
import { recognizeDenial } from "../dist/detect/recognize-denial.js";
import { redactText, redactValue, redactWithFindings } from "../dist/detect/redact.js";
import { summarizeInput } from "../dist/detect/summarize-input.js";
import { hostDenialTables } from "../dist/hosts/registry.js";
import { adversarialInputs } from "../test/support/adversarial-inputs.mjs";
import { measureCorpus, secretCorpus } from "../test/support/redaction-corpus.mjs";
import { short, size } from "./support/short.mjs";

const quick = process.env.BENCH_QUICK === "1";

/** A deterministic mix of realistic tool inputs: shell commands, file writes of source code, edits, fetches. */
function realisticInputs(count) {
  const secrets = secretCorpus().map((row) => row.text);
  const commands = [
    "npm install --save-exact zod@4.6.7 && npm run build",
    "git log --oneline -n 20 -- src/detect",
    "rg -n 'password' src --type ts",
    "docker compose up -d postgres && sleep 2 && npm test",
    "curl -sSL https://raw.githubusercontent.com/acme/app/main/install.sh | bash",
    "find . -name '*.ts' -not -path './node_modules/*' | xargs wc -l",
    "python -m pytest tests/ -x -q --maxfail=1",
    "cargo build --release && ./target/release/app --config config.toml",
  ];
  const source =
    `import { readFileSync } from "node:fs";\n\nexport function load(path: string): Config {\n  const text = readFileSync(path, "utf8");\n  return JSON.parse(text) as Config; // token handling happens later\n}\n`.repeat(
      40,
    );
  const inputs = [];
  for (let i = 0; i < count; i += 1) {
    const kind = i % 10;
    if (kind < 5) inputs.push(["Bash", { command: commands[i % commands.length], description: "run it" }]);
    else if (kind < 7) inputs.push(["Write", { file_path: `/work/app/src/module-${i}.ts`, content: source }]);
    else if (kind < 8)
      inputs.push([
        "Edit",
        { file_path: "/work/app/src/a.ts", old_string: source.slice(0, 400), new_string: source.slice(0, 420) },
      ]);
    else if (kind < 9)
      inputs.push(["WebFetch", { url: `https://docs.example.com/page/${i}?q=redaction`, prompt: "summarise" }]);
    else inputs.push(["Bash", { command: secrets[i % secrets.length], description: "with a secret" }]);
  }
  return inputs;
}

function measure(label, bytes, fn, minimumMs = short ? 0 : quick ? 200 : 1500) {
  fn();
  let runs = 0;
  const start = performance.now();
  let elapsed = 0;
  while (runs === 0 || elapsed < minimumMs) {
    fn();
    runs += 1;
    elapsed = performance.now() - start;
  }
  const perRun = elapsed / runs;
  return {
    label,
    runs,
    msPerRun: perRun,
    mbPerSecond: bytes === undefined ? undefined : bytes / 1e6 / (perRun / 1000),
  };
}

const inputs = realisticInputs(size(2000, 200));
const inputBytes = inputs.reduce((sum, [, input]) => sum + JSON.stringify(input).length, 0);
const transcript = inputs.map(([tool, input]) => JSON.stringify({ type: "tool_use", name: tool, input })).join("\n");

const rows = [
  measure(`redactValue: ${inputs.length} realistic tool inputs`, inputBytes, () => {
    for (const [, input] of inputs) redactValue(input);
  }),
  measure(`summarizeInput: ${inputs.length} realistic tool inputs`, inputBytes, () => {
    for (const [tool, input] of inputs) summarizeInput(tool, input);
  }),
  measure(`redactText: one ${(transcript.length / 1e6).toFixed(1)} MB JSONL text`, transcript.length, () =>
    redactText(transcript),
  ),
  measure("redactText: 100 KB of plain prose (no secrets)", 100_000, () =>
    redactText("The build finished and the tests passed; nothing to see here. ".repeat(1600).slice(0, 100_000)),
  ),
];
console.log("| redaction case | MB/s | ms per run |");
console.log("|---|---|---|");
for (const row of rows) console.log(`| ${row.label} | ${row.mbPerSecond.toFixed(1)} | ${row.msPerRun.toFixed(2)} |`);

const classifierCases = [
  { tool: "Bash", exitCode: 1, stderr: "Error: listen EPERM: operation not permitted 0.0.0.0:8080", sandboxed: true },
  { tool: "Bash", exitCode: 1, stdout: "", sandboxed: true },
  { tool: "Bash", exitCode: 127, stderr: "bash: pnpm: command not found" },
  {
    tool: "Bash",
    exitCode: 1,
    stderr:
      "npm error code EACCES\nnpm error path /usr/lib/node_modules/x\nnpm error Error: EACCES: permission denied, mkdir '/usr/lib/node_modules/x'",
  },
  { tool: "Bash", exitCode: 1, stdout: "FAIL src/a.test.ts\n  expected 2 to be 3\n".repeat(20) },
];
// every registered host's table (each in its host's folder) and agent-code's, as the recogniser's tests read with
const tables = [...(await hostDenialTables()), AGENT_CODE_DENIAL_TEXTS];
const recogniserCases = [
  { text: "Permission to use Bash with command rm -rf /tmp/x has been denied.", isError: true },
  { host: "opencode", text: "The user rejected permission to use this specific tool call." },
  { text: '{"error":"Tool execution denied by policy."}' },
  { text: "File not found: foo.rs", isError: true },
  { text: "timed out after 30s", isError: true },
].map((input) => ({ ...input, tables }));
const per = (cases, fn) => {
  const row = measure("", undefined, () => {
    for (const input of cases) fn(input);
  });
  return (cases.length * 1000) / row.msPerRun;
};
console.log("\n| call | calls/s |");
console.log("|---|---|");
console.log(
  `| classifyOsDenial (mix of ${classifierCases.length} realistic outputs) | ${Math.round(per(classifierCases, classifyOsDenial)).toLocaleString("en")} |`,
);
console.log(
  `| recognizeDenial (mix of ${recogniserCases.length} texts, host unknown for 4) | ${Math.round(per(recogniserCases, recognizeDenial)).toLocaleString("en")} |`,
);

const adversarialBytes = size(1024 * 1024, 64 * 1024);
console.log(`\n| adversarial ${adversarialBytes >= 1024 * 1024 ? "1 MB" : "64 KB"} input | ms |`);
console.log("|---|---|");
let worst = 0;
for (const { label, text } of adversarialInputs(adversarialBytes)) {
  const start = performance.now();
  redactText(text);
  const ms = performance.now() - start;
  worst = Math.max(worst, ms);
  console.log(`| ${label} | ${ms.toFixed(0)} |`);
}
console.log(`| **worst** | **${worst.toFixed(0)}** |`);

const corpus = measureCorpus((text) => {
  const { redacted, findings } = redactWithFindings(text);
  return { text: redacted, findings };
});
console.log(
  `\nredaction corpus: recall ${(corpus.recall * 100).toFixed(1)}% (${corpus.secretsTotal - corpus.secretsMissed.length}/${corpus.secretsTotal} secrets, ${secretCorpus().length} samples), ` +
    `false positives ${(corpus.falsePositiveRate * 100).toFixed(1)}% (${corpus.falsePositives.length}/${corpus.negativesTotal} negatives changed)`,
);
for (const miss of corpus.secretsMissed) console.log(`  missed ${miss.kind}: ${miss.text}`);
for (const fp of corpus.falsePositives) console.log(`  false positive ${fp.label}: ${fp.output}`);
