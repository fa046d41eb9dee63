/**
 * `require("toolgate")` from CommonJS, as tsx runs it (issue 25, item 16). tsx hands Node a .cts file's CommonJS
 * source from an async `load` hook; Node then evaluates it through the ESM loader, whose `require()` of an ES module
 * fails (ERR_VM_MODULE_LINK_FAILURE, "request for './core/canonical-json.js' is not in cache") where plain Node's
 * require(esm) works. The hook below does what tsx does, so this needs no tsx: every subpath export must resolve,
 * under the "require" condition, to a CommonJS entry (dist/cjs/, scripts/bundle/30-require.mjs) that needs no ESM.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, repoRoot } from "../cli/cli-fixture.js";
import { temporaryDirectory } from "../support/temporary-directory.js";

const manifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8"));
const subpaths = Object.keys(manifest.exports as Record<string, unknown>).filter(
  (subpath) => subpath !== "./package.json",
);
let project: string;

const TSX_LIKE_HOOKS = `import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
export async function load(url, context, nextLoad) {
  if (url.endsWith(".cts")) return { format: "commonjs", source: readFileSync(fileURLToPath(url), "utf8"), shortCircuit: true };
  return nextLoad(url, context);
}
`;

function run(file: string, source: string, loader: boolean) {
  writeFileSync(join(project, file), source);
  const result = spawnSync(process.execPath, [...(loader ? ["--import", "./register.mjs"] : []), file], {
    cwd: project,
    env: { PATH: process.env.PATH ?? "", HOME: project },
    encoding: "utf8",
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const requireEvery = subpaths
  .map((subpath) => {
    const specifier = `toolgate${subpath.slice(1)}`;
    return `results[${JSON.stringify(subpath)}] = [Object.keys(require(${JSON.stringify(specifier)})).length, require.resolve(${JSON.stringify(specifier)}).endsWith(".cjs")];`;
  })
  .join("\n");

beforeAll(() => {
  ensureBuilt();
  project = temporaryDirectory("toolgate-require-");
  mkdirSync(join(project, "node_modules"));
  symlinkSync(repoRoot, join(project, "node_modules", "toolgate"), "dir");
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "cjs-project", type: "commonjs" }));
  writeFileSync(join(project, "hooks.mjs"), TSX_LIKE_HOOKS);
  writeFileSync(
    join(project, "register.mjs"),
    'import { register } from "node:module";\nregister("./hooks.mjs", import.meta.url);\n',
  );
});

describe('require("toolgate") from CommonJS', () => {
  it("loads every subpath export through a tsx-like loader (a .cts file), each from a CommonJS entry", () => {
    const result = run(
      "require-all.cts",
      `const results = {};\n${requireEvery}\nconsole.log(JSON.stringify(results));\n`,
      true,
    );
    expect(result.stderr).toBe("");
    const results = JSON.parse(result.stdout) as Record<string, [number, boolean]>;
    expect(Object.keys(results)).toEqual(subpaths);
    for (const [subpath, [count, commonJs]] of Object.entries(results)) {
      expect(count, subpath).toBeGreaterThan(0);
      expect(commonJs, subpath).toBe(true);
    }
  });

  it("runs the README's guard example from a CommonJS file, and the ES module build answers the same", () => {
    const guard = (load: string) => `${load}
(async () => {
  const guard = createGuard({ core: { headlessStrategy: "abort" } });
  const session = guard.session("run-42", { interactive: false, host: "my-agent" });
  await session.turnStarted();
  const effects = await session.denied({ toolUseId: "call_1", tool: "Bash", input: { command: "rm -rf build" } }, { source: "headless", reason: "requires approval" });
  console.log(textForModel(effects));
  await session.end();
})();
`;
    const commonJs = run("guard.cts", guard('const { createGuard, textForModel } = require("toolgate");'), true);
    const esm = run("guard.mjs", guard('import { createGuard, textForModel } from "toolgate";'), false);
    expect(commonJs.stderr).toBe("");
    expect(commonJs.stdout).toContain("[toolgate]");
    expect(commonJs.stdout).toBe(esm.stdout);
  });

  it("opens a SQLite store from CommonJS (paths built from import.meta.url point into dist/)", () => {
    const result = run(
      "sqlite.cts",
      `const { createSqliteStore } = require("toolgate/store/sqlite");
createSqliteStore({ filename: __dirname + "/t.db" }).then(async (store) => {
  await store.denials.append([]);
  console.log(store.location);
  await store.close();
});
`,
      true,
    );
    expect(result.stderr).toBe("");
    expect(result.stdout.trim()).toBe(`sqlite:${join(project, "t.db")}`);
  });
});
