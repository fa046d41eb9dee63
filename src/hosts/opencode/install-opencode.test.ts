import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { installOpencode, uninstallOpencode } from "./install-opencode.js";

const created: string[] = [];
afterEach(() => {
  for (const directory of created.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function project(config?: unknown): string {
  const directory = mkdtempSync(join(tmpdir(), "toolgate-install-opencode-"));
  created.push(directory);
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
    expect(config.plugin[1]).toMatch(/^file:\/\/.*hosts\/opencode\/opencode-plugin\.(js|ts)$/);
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

  test("a file that is not valid JSON or JSONC is left alone with the line to add", () => {
    const cwd = project();
    writeFileSync(join(cwd, "opencode.json"), '{ "model": "x/y",, }');
    expect(() => installOpencode({ scope: "project", dryRun: false, cwd })).toThrow(
      /add "file:.*" to its "plugin" list/,
    );
    expect(readFileSync(join(cwd, "opencode.json"), "utf8")).toBe('{ "model": "x/y",, }');
  });

  test("edits opencode.jsonc in place: comments, indentation and other keys stay; uninstall restores it", () => {
    const cwd = project();
    const original =
      '{\n    // my setup\n    "$schema": "https://opencode.ai/config.json",\n    "plugin": [\n        "other-plugin" // pinned\n    ],\n    "model": "x/y"\n}\n';
    const file = join(cwd, "opencode.jsonc");
    writeFileSync(file, original);
    const outcome = installOpencode({
      scope: "project",
      dryRun: false,
      cwd,
      command: "file:///opt/toolgate/dist/hosts/opencode/opencode-plugin.js",
    });
    expect(outcome.path).toBe(file);
    expect(readFileSync(file, "utf8")).toBe(
      '{\n    // my setup\n    "$schema": "https://opencode.ai/config.json",\n    "plugin": [\n        "other-plugin", // pinned\n        "file:///opt/toolgate/dist/hosts/opencode/opencode-plugin.js"\n    ],\n    "model": "x/y"\n}\n',
    );
    expect(outcome.diff).toEqual([
      "  ...",
      '      "$schema": "https://opencode.ai/config.json",',
      '      "plugin": [',
      '-         "other-plugin" // pinned',
      '+         "other-plugin", // pinned',
      '+         "file:///opt/toolgate/dist/hosts/opencode/opencode-plugin.js"',
      "      ],",
      '      "model": "x/y"',
      "  ...",
    ]);
    uninstallOpencode({
      scope: "project",
      dryRun: false,
      cwd,
      command: "file:///opt/toolgate/dist/hosts/opencode/opencode-plugin.js",
    });
    expect(readFileSync(file, "utf8")).toBe(original);
  });

  test("replaces toolgate's entry from another install path", () => {
    const cwd = project({ plugin: ["file:///old/toolgate/dist/node/opencode-plugin.js", "other-plugin"] });
    const outcome = installOpencode({
      scope: "project",
      dryRun: false,
      cwd,
      command: "file:///new/toolgate/dist/hosts/opencode/opencode-plugin.js",
    });
    expect(read(cwd).plugin).toEqual(["other-plugin", "file:///new/toolgate/dist/hosts/opencode/opencode-plugin.js"]);
    expect(outcome.diff.filter((line) => line.startsWith("-"))).toEqual([
      '- {"plugin":["file:///old/toolgate/dist/node/opencode-plugin.js","other-plugin"]}',
    ]);
  });

  test("--local is not an opencode scope", () => {
    expect(() => installOpencode({ scope: "local", dryRun: false, cwd: project() })).toThrow(/--project/);
  });
});
