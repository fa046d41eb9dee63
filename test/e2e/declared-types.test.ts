/**
 * types/ holds hand-written declarations of the optional peers toolgate compiles against (tsconfig.json maps the
 * package names there). These tests keep them honest against the real packages installed in test/e2e/node_modules,
 * compile toolgate's adapters, examples and end-to-end tests against those packages as well, and check that the
 * declarations toolgate publishes import the peers by name, never types/.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, realpathSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const installed = join(root, "test", "e2e", "node_modules");

/** Each declared package: its hand-written file, and the installed file the checks must compile against. */
const declared = {
  "@anthropic-ai/claude-agent-sdk": { file: "types/claude-agent-sdk.d.ts", real: "sdk.d.ts" },
  "@opencode-ai/plugin": { file: "types/opencode-plugin.d.ts", real: "dist/index.d.ts" },
};

describe("types/ (hand-written declarations of the optional peers)", () => {
  for (const [name, { file }] of Object.entries(declared)) {
    it(`${file} declares the ${name} version test/e2e installs`, () => {
      const manifest = JSON.parse(readFileSync(join(root, "test", "e2e", "package.json"), "utf8"));
      const { version } = JSON.parse(readFileSync(join(installed, name, "package.json"), "utf8"));
      expect(version).toBe(manifest.dependencies[name]);
      expect(readFileSync(join(root, file), "utf8").split("\n", 1)[0]).toContain(`\`${name}\` (${version})`);
    });
  }

  it("agree with the installed packages member by member, and toolgate's users of them compile against those too", () => {
    const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
    const run = spawnSync(
      process.execPath,
      [tsc, "-p", join(root, "test", "e2e", "declared-types", "tsconfig.json"), "--listFiles"],
      { encoding: "utf8" },
    );
    const lines = run.stdout.split("\n");
    expect(lines.filter((line) => !line.startsWith("/")).join("\n") + run.stderr).toBe("");
    expect(run.status).toBe(0);
    // the checks compared the hand-written files with the real packages, not with themselves, and the adapters and
    // examples were compiled in the same program (against the real packages: types/ is only imported by the checks)
    for (const [name, { file, real }] of Object.entries(declared)) {
      expect(lines).toContain(realpathSync(join(installed, name, real)));
      expect(lines).toContain(realpathSync(join(root, file)));
    }
    for (const user of [
      "src/hosts/claude-agent-sdk/guard-hooks.ts",
      "src/hosts/opencode/create-toolgate-plugin.ts",
      "examples/claude-agent-sdk.ts",
      "examples/opencode-plugin.ts",
    ]) {
      expect(lines).toContain(realpathSync(join(root, user)));
    }
  }, 240_000);

  it("stay out of the published declarations: dist/*.d.ts import the peers by name", () => {
    const parsed = ts.getParsedCommandLineOfConfigFile(
      join(root, "tsconfig.build.json"),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
          throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
        },
      },
    );
    if (parsed === undefined) throw new Error("tsconfig.build.json did not parse");
    const outDir = String(parsed.options.outDir);
    const program = ts.createProgram({
      rootNames: parsed.fileNames,
      options: { ...parsed.options, emitDeclarationOnly: true, declarationMap: false },
    });
    const escaping: string[] = [];
    const peers = new Set<string>();
    const emitted = program.emit(
      undefined,
      (file, text) => {
        for (const [, specifier] of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)["']([^"']+)["']/g)) {
          if (specifier === undefined) continue;
          if (specifier in declared) peers.add(specifier);
          const target = resolve(dirname(file), specifier);
          if (specifier.startsWith(".") && relative(outDir, target).startsWith("..")) {
            escaping.push(`${relative(outDir, file)}: ${specifier}`);
          }
        }
      },
      undefined,
      true,
    );
    expect(
      emitted.diagnostics.map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")),
    ).toEqual([]);
    expect(escaping).toEqual([]);
    expect([...peers].sort()).toEqual(Object.keys(declared).sort());
  }, 240_000);
});
