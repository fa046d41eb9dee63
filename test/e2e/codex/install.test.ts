import { chmodSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { assertBuilt, removeSnapshot } from "../claude/toolgate-cli.js";
import { type CodexWorld, createCodexWorld, toolgateIn } from "./codex-workspace.js";

/**
 * `toolgate install codex` / `uninstall codex` / `doctor` / `import codex` against the real Codex 0.171.0: the
 * hooks.json merge is idempotent and keeps the user's own hooks, trust is established through Codex's own
 * app-server (and doctor reports honestly when Codex no longer trusts an edited entry), and `.rules` import.
 */
const USER_HOOK = { type: "command", command: "node /opt/my-logger.mjs" };

describe("toolgate install / doctor / import for Codex 0.171.0", () => {
  let world: CodexWorld;
  let hooksPath: string;
  let configBefore: string;

  beforeAll(async () => {
    assertBuilt();
    world = await createCodexWorld({
      commands: [],
      rules: 'prefix_rule(pattern = ["rm"], decision = "forbidden")\nR = ["x"]\n',
    });
    hooksPath = join(world.codexHome, "hooks.json");
    writeFileSync(hooksPath, JSON.stringify({ hooks: { Stop: [{ hooks: [USER_HOOK] }] } }, null, 2));
    chmodSync(join(world.codexHome, "config.toml"), 0o644);
    configBefore = readFileSync(join(world.codexHome, "config.toml"), "utf8");
  }, 60_000);

  afterAll(async () => {
    await world?.remove();
    removeSnapshot();
  });

  test("--dry-run shows the diff and writes nothing", () => {
    const before = readFileSync(hooksPath, "utf8");
    const result = toolgateIn(world, ["install", "codex", "--user", "--dry-run"]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("hook codex");
    expect(result.stdout).toContain("Dry run: nothing was written.");
    expect(readFileSync(hooksPath, "utf8")).toBe(before);
  });

  test("doctor before install says toolgate is not in Codex's hooks", () => {
    const result = toolgateIn(world, ["doctor"]);
    expect(result.stdout).toMatch(/codex hooks: no toolgate entry in Codex's hooks.json/);
  });

  test("install merges toolgate's hooks, keeps the user's, trusts them through Codex, and is idempotent", () => {
    const first = toolgateIn(world, ["install", "codex", "--user"]);
    expect(first.exitCode).toBe(0);
    expect(first.stderr).toMatch(/Trusted toolgate's 5 hooks through Codex's own interface/);
    const file = JSON.parse(readFileSync(hooksPath, "utf8"));
    expect(file.hooks.Stop[0].hooks[0]).toEqual(USER_HOOK);
    expect(file.hooks.Stop).toHaveLength(2);
    expect(readFileSync(join(world.codexHome, "config.toml"), "utf8")).toContain("trusted_hash");
    // Codex writes config.toml 0600; the person's 0644 stays
    expect(statSync(join(world.codexHome, "config.toml")).mode & 0o777).toBe(0o644);
    const again = toolgateIn(world, ["install", "codex", "--user"]);
    expect(again.stdout).toContain("already installed");
    expect(again.stderr).toContain("Codex already trusts toolgate's 5 hooks.");
  });

  test("doctor: Codex trusts and runs the hooks; the .rules form toolgate cannot read is named", () => {
    const result = toolgateIn(world, ["doctor"]);
    expect(result.stdout).toMatch(/ok +codex hooks \(user\): .* runs toolgate on 5 events/);
    expect(result.stdout).toMatch(/ok +codex hook trust: Codex trusts and runs toolgate's 5 hooks here/);
    expect(result.stdout).toMatch(/codex rules: .*\n.*test\.rules:2: not understood/);
  });

  test("doctor reports honestly when an edited entry is no longer trusted by Codex", () => {
    const file = JSON.parse(readFileSync(hooksPath, "utf8"));
    file.hooks.PreToolUse[0].hooks[0].timeout = 29;
    writeFileSync(hooksPath, JSON.stringify(file, null, 2));
    const result = toolgateIn(world, ["doctor"]);
    expect(result.stdout).toMatch(
      /fail +codex hook trust: Codex will not run 1 of toolgate's 5 hooks: preToolUse \(modified\)/,
    );
    // the fix doctor names: install puts toolgate's entry back as it was trusted
    expect(result.stdout).toContain("fix: toolgate install codex --user");
    expect(toolgateIn(world, ["install", "codex", "--user"]).exitCode).toBe(0);
    expect(toolgateIn(world, ["doctor"]).stdout).toMatch(/Codex trusts and runs toolgate's 5 hooks here/);
  });

  test("import codex converts the rules and names what it cannot express", () => {
    const result = toolgateIn(world, ["import", "codex"]);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ permissions: { rules: [{ rule: "Bash(rm *)", behavior: "deny" }] } });
    expect(result.stderr).toMatch(/cannot express: .*test\.rules:2/);
  });

  test("uninstall removes exactly toolgate's entries, and Codex's trust records of them", () => {
    const result = toolgateIn(world, ["uninstall", "codex", "--user"]);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(readFileSync(hooksPath, "utf8"))).toEqual({ hooks: { Stop: [{ hooks: [USER_HOOK] }] } });
    expect(result.stderr).toContain("Removed Codex's trust records of toolgate's 5 hooks");
    expect(readFileSync(join(world.codexHome, "config.toml"), "utf8")).toBe(configBefore);
    expect(statSync(join(world.codexHome, "config.toml")).mode & 0o777).toBe(0o644);
  });
});

describe("toolgate install codex --project on Codex 0.171.0", () => {
  let world: CodexWorld;

  beforeAll(async () => {
    assertBuilt();
    world = await createCodexWorld({ commands: [] });
  }, 60_000);

  afterAll(async () => {
    await world?.remove();
    removeSnapshot();
  });

  test("in a project Codex does not trust: the hooks are written, and install says Codex will not load them", () => {
    const result = toolgateIn(world, ["install", "codex", "--project"]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(join(world.project, ".codex", "hooks.json"));
    expect(result.stderr).toContain("Codex does not list toolgate's hooks");
    expect(result.stderr).toMatch(/Codex loads a project's \.codex\/ folder .* only once you trust the project/);
    expect(toolgateIn(world, ["doctor"]).stdout).toMatch(/warn +codex project trust: Codex does not trust/);
  });

  test("once the person trusts the project in Codex, install trusts toolgate's project hooks and doctor is green", () => {
    const config = join(world.codexHome, "config.toml");
    writeFileSync(config, `${readFileSync(config, "utf8")}\n[projects."${world.project}"]\ntrust_level = "trusted"\n`);
    const result = toolgateIn(world, ["install", "codex", "--project"]);
    expect(result.stderr).toMatch(/Trusted toolgate's 5 hooks through Codex's own interface/);
    const doctor = toolgateIn(world, ["doctor"]).stdout;
    expect(doctor).toMatch(/ok +codex hooks \(project\)/);
    expect(doctor).toMatch(/ok +codex hook trust: Codex trusts and runs toolgate's 5 hooks here/);
  });
});
