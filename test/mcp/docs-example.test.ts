/**
 * The docs' example (examples/mcp-proxy-client.ts, quoted in docs/mcp.md) run for real: a looping SDK client is
 * stopped by `toolgate mcp-proxy` in front of the real filesystem server. The example is bundled with esbuild (the
 * SDK left as an import) and run with the two commands replaced by the built CLI and the installed server.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, removeSnapshot, toolgateCommand } from "../e2e/claude/toolgate-cli.js";
import { FILESYSTEM_SERVER } from "./proxy-session.js";

const REPOSITORY = join(import.meta.dirname, "..", "..");
const EXAMPLE = join(REPOSITORY, "examples", "mcp-proxy-client.ts");
let root: string;

beforeAll(() => {
  assertBuilt();
  root = mkdtempSync(join(tmpdir(), "toolgate-mcp-example-"));
  symlinkSync(join(REPOSITORY, "node_modules"), join(root, "node_modules"), "dir");
});
afterAll(() => {
  removeSnapshot();
  rmSync(root, { recursive: true, force: true });
});

describe("docs/mcp.md example", () => {
  it("is quoted verbatim in docs/mcp.md", () => {
    const docs = readFileSync(join(REPOSITORY, "docs", "mcp.md"), "utf8");
    expect(docs).toContain(`\`\`\`ts\n${readFileSync(EXAMPLE, "utf8")}\`\`\``);
  });

  it("stops the looping client at the third refused write", { timeout: 180_000 }, async () => {
    const bundle = join(root, "example.mjs");
    await build({
      entryPoints: [EXAMPLE],
      bundle: true,
      platform: "node",
      format: "esm",
      packages: "external",
      outfile: bundle,
      logLevel: "silent",
    });
    const home = join(root, "home");
    const run = spawnSync(process.execPath, [bundle], {
      cwd: root,
      encoding: "utf8",
      timeout: 120_000,
      env: {
        PATH: process.env["PATH"] ?? "",
        HOME: home,
        // the example's own temporary directory goes under this test's, removed with it
        TMPDIR: root,
        TOOLGATE_DB: join(root, "toolgate.db"),
        TOOLGATE_COMMAND: toolgateCommand().join(" "),
        MCP_SERVER_COMMAND: FILESYSTEM_SERVER,
      },
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("attempt 1: refused\nAccess denied - path outside allowed directories");
    expect(run.stdout).toMatch(/attempt 3: refused[\s\S]*The run is being stopped/);
    expect(run.stdout).not.toContain("attempt 4");
    expect(run.stderr).toMatch(/toolgate: toolgate aborted the run: mcp__fs__write_file was denied 3 times/);
  });
});
