import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { codexRulesFiles, isTrustedCodexProject, loadCodexExecpolicy } from "./codex-execpolicy.js";

const roots: string[] = [];
function world() {
  const root = mkdtempSync(join(tmpdir(), "toolgate-codex-rules-"));
  roots.push(root);
  const home = join(root, "codex-home");
  const project = join(root, "project");
  mkdirSync(join(home, "rules"), { recursive: true });
  mkdirSync(join(project, ".codex", "rules"), { recursive: true });
  writeFileSync(join(home, "rules", "b.rules"), 'prefix_rule(pattern = ["rm"], decision = "forbidden")\n');
  writeFileSync(join(home, "rules", "a.rules"), 'prefix_rule(pattern = ["git", "push"], decision = "prompt")\n');
  writeFileSync(join(home, "rules", "notes.txt"), "not a rules file");
  writeFileSync(
    join(project, ".codex", "rules", "p.rules"),
    'prefix_rule(pattern = ["curl"], decision = "forbidden")\nX = 1\n',
  );
  return { root, home, project, env: { CODEX_HOME: home } };
}
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe("Codex's .rules files as Codex 0.169.0 loads them", () => {
  it("reads the user's *.rules in name order, and not the project's while Codex does not trust the project", () => {
    const { project, env, home } = world();
    const found = codexRulesFiles({ cwd: project, env });
    expect(found.files).toEqual([join(home, "rules", "a.rules"), join(home, "rules", "b.rules")]);
    expect(found.untrustedProjectFiles).toEqual([join(project, ".codex", "rules", "p.rules")]);
    expect(loadCodexExecpolicy({ cwd: project, env }).rules.map((rule) => rule.pattern[0])).toEqual(["git", "rm"]);
  });

  it("adds the project's rules (and their problems) once config.toml trusts the project or a parent folder", () => {
    const { root, project, env, home } = world();
    writeFileSync(join(home, "config.toml"), `model = "x"\n\n[projects."${root}"]\ntrust_level = "trusted"\n`);
    expect(isTrustedCodexProject({ home, project })).toBe(true);
    const policy = loadCodexExecpolicy({ cwd: project, env });
    expect(policy.rules.map((rule) => rule.pattern[0])).toEqual(["git", "rm", "curl"]);
    expect(policy.problems).toHaveLength(1);
    expect(policy.problems[0]?.source).toBe(`${join(project, ".codex", "rules", "p.rules")}:2`);
  });

  it("an untrusted or other project is not trusted", () => {
    const { project, home } = world();
    writeFileSync(
      join(home, "config.toml"),
      `[projects."${project}"]\ntrust_level = "untrusted"\n[projects."/elsewhere"]\ntrust_level = "trusted"\n`,
    );
    expect(isTrustedCodexProject({ home, project })).toBe(false);
  });
});
