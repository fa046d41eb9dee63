import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { installOpencode, uninstallOpencode } from "./install-opencode.js";

function project(config?: unknown): string {
  const directory = mkdtempSync(join(tmpdir(), "toolgate-install-opencode-"));
  if (config !== undefined) writeFileSync(join(directory, "opencode.json"), JSON.stringify(config));
  return directory;
}

const read = (directory: string) => JSON.parse(readFileSync(join(directory, "opencode.json"), "utf8"));

describe("install opencode", () => {
  test("adds the plugin entry once, keeps other settings, and is idempotent", () => {
    const cwd = project({ model: "x/y", plugin: ["other-plugin"] });
    const first = installOpencode({ scope: "project", dryRun: false, cwd });
    expect(first.changed).toBe(true);
    const config = read(cwd);
    expect(config.model).toBe("x/y");
    expect(config.plugin[0]).toBe("other-plugin");
    expect(config.plugin[1]).toMatch(/^file:\/\/.*node\/opencode-plugin\.(js|ts)$/);
    const second = installOpencode({ scope: "project", dryRun: false, cwd });
    expect(second.changed).toBe(false);
    expect(read(cwd).plugin).toHaveLength(2);
  });

  test("creates opencode.json when missing; --user writes ~/.config/opencode/opencode.json", () => {
    const home = project();
    const outcome = installOpencode({ scope: "user", dryRun: false, home });
    expect(outcome.path).toBe(join(home, ".config", "opencode", "opencode.json"));
    expect(JSON.parse(readFileSync(outcome.path, "utf8")).plugin).toHaveLength(1);
  });

  test("dry run writes nothing", () => {
    const cwd = project({ model: "x/y" });
    const outcome = installOpencode({ scope: "project", dryRun: true, cwd });
    expect(outcome).toMatchObject({ changed: true, written: false });
    expect(read(cwd)).toEqual({ model: "x/y" });
  });

  test("uninstall removes exactly toolgate's entry", () => {
    const cwd = project({ model: "x/y", plugin: ["other-plugin"] });
    installOpencode({ scope: "project", dryRun: false, cwd });
    expect(uninstallOpencode({ scope: "project", dryRun: false, cwd }).changed).toBe(true);
    expect(read(cwd)).toEqual({ model: "x/y", plugin: ["other-plugin"] });
    expect(uninstallOpencode({ scope: "project", dryRun: false, cwd }).changed).toBe(false);
  });

  test("a file that is not plain JSON is left alone with the line to add", () => {
    const cwd = project();
    writeFileSync(join(cwd, "opencode.json"), '{ // comment\n "model": "x/y" }');
    expect(() => installOpencode({ scope: "project", dryRun: false, cwd })).toThrow(
      /Add "file:.*" to its "plugin" list/,
    );
  });

  test("--local is not an opencode scope", () => {
    expect(() => installOpencode({ scope: "local", dryRun: false, cwd: project() })).toThrow(/--project/);
  });
});
