import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { cliPath, ensureBuilt, makeFixture } from "./cli-fixture.js";

/**
 * What a read command imports when it starts. The config's schema (zod, about a quarter of `toolgate report`'s
 * instructions: BENCHMARKS.md) is imported only when a config file applies; without one there is nothing to validate.
 * A module-resolution hook registered with `--import` writes every module the process resolves to a file.
 */
beforeAll(ensureBuilt);

function resolvedModules(args: string[], files: Record<string, unknown>): { status: number | null; modules: string[] } {
  const fixture = makeFixture(files);
  const log = join(fixture.root, "modules.log");
  const hooks = join(fixture.root, "hooks.mjs");
  writeFileSync(
    hooks,
    `import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, resolved.url + "\\n");
  return resolved;
}
`,
  );
  const register = join(fixture.root, "register.mjs");
  writeFileSync(
    register,
    `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  writeFileSync(log, "");
  const result = spawnSync(process.execPath, ["--import", pathToFileURL(register).href, cliPath, ...args], {
    cwd: fixture.project,
    env: { PATH: process.env.PATH ?? "", HOME: fixture.home, TOOLGATE_DB: join(fixture.root, "toolgate.db") },
    encoding: "utf8",
    timeout: 20_000,
  });
  expect(result.stderr).not.toMatch(/Error/);
  return { status: result.status, modules: readFileSync(log, "utf8").split("\n").filter(Boolean) };
}

const zod = (modules: string[]) => modules.filter((url) => url.includes("/node_modules/zod/"));

describe("what toolgate report imports at start-up", () => {
  it("imports no schema library when no config file applies", () => {
    const run = resolvedModules(["report", "--json"], {});
    expect(run.status).toBe(0);
    // the hook did run: the CLI's own modules were resolved through it
    expect(run.modules.some((url) => url.endsWith("/dist/cli/commands/report.js"))).toBe(true);
    expect(zod(run.modules)).toEqual([]);
  });

  it("validates a config file that applies, and refuses a bad one", () => {
    const good = resolvedModules(["report", "--json"], { "project/toolgate.config.json": { escalation: {} } });
    expect(good.status).toBe(0);
    expect(zod(good.modules).length).toBeGreaterThan(0);
    const bad = resolvedModules(["report", "--json"], { "project/toolgate.config.json": { escalation: "yes" } });
    expect(bad.status).toBe(2);
  });
});
