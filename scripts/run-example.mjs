#!/usr/bin/env node
// Runs a TypeScript example from examples/ on Node 20 (which cannot run .ts itself): esbuild strips the types into a
// temporary .mjs beside the example, so `toolgate/...` imports resolve through package.json exports to dist/ (run
// `npm run build` first) and `ai`, `zod` from node_modules; the temporary file is removed afterwards.
// Usage: node scripts/run-example.mjs examples/ai-sdk.ts   (the working directory is the example's project)
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { transform } from "esbuild";

const source = process.argv[2];
if (source === undefined) {
  process.stderr.write("usage: node scripts/run-example.mjs <examples/file.ts>\n");
  process.exit(2);
}
const file = resolve(source);
const { code } = await transform(readFileSync(file, "utf8"), { loader: "ts", format: "esm", target: "node20" });
const out = resolve(dirname(file), `.run-${basename(file, ".ts")}-${process.pid}.mjs`);
writeFileSync(out, code);
try {
  const run = spawnSync(process.execPath, [out], { stdio: "inherit" });
  process.exitCode = run.status ?? 1;
} finally {
  rmSync(out, { force: true });
}
