import { mkdirSync, mkdtempSync } from "node:fs";
import { join } from "node:path";
import { build } from "rolldown";

/**
 * Bundles a TypeScript test script into one .mjs file so a child process (`fork`) can run it on Node 20, which
 * cannot load .ts files. Native drivers stay external. Uses rolldown, the bundler vitest's vite already ships.
 */
export async function bundleScript(entry: string): Promise<string> {
  // Inside node_modules so the bundle resolves the external drivers from the project.
  const cache = join(import.meta.dirname, "../../node_modules/.cache/toolgate-test");
  mkdirSync(cache, { recursive: true });
  const file = join(mkdtempSync(join(cache, "worker-")), "worker.mjs");
  await build({
    input: entry,
    platform: "node",
    external: [/^node:/, "better-sqlite3", "pg", "pino"],
    output: { file, format: "esm", inlineDynamicImports: true },
    logLevel: "silent",
  });
  return file;
}
