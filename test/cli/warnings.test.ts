import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, makeFixture, runCli } from "./cli-fixture.js";

beforeAll(ensureBuilt);

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

const untrusted = { "project/.claude/settings.json": { permissions: { allow: ["Bash(npm test *)"] } } };

describe("warnings say the fix, and --json carries them (issue 11, finding 9)", () => {
  it("check in an untrusted workspace says how to trust it, in text and in --json", () => {
    const { root, home, project } = makeFixture(untrusted);
    roots.push(root);
    const text = runCli(["check", "Bash", '{"command":"npm test"}'], { cwd: project, home });
    const warning = text.stdout.split("\n").find((line) => line.startsWith("warning: "));
    expect(warning).toContain('The project allow rule "Bash(npm test *)" is ignored');
    expect(warning).toContain("run `claude` in this project once and accept the trust dialog");
    expect(warning).toContain("hasTrustDialogAccepted");
    const json = runCli(["check", "Bash", '{"command":"npm test"}', "--json"], { cwd: project, home });
    expect(json.status).toBe(3);
    const document = JSON.parse(json.stdout) as { warnings: { code: string; message: string }[] };
    expect(document.warnings).toEqual([{ code: "RULE_IGNORED", message: warning?.slice("warning: ".length) }]);
  });

  it("ignored rules say how to write them so they apply, in --json too", () => {
    const { root, home, project } = makeFixture({
      "home/.claude/settings.json": {
        permissions: { allow: ["Bash*", "mcp__github__*(x)", "Read(file_path:/etc/*)"] },
      },
    });
    roots.push(root);
    const json = runCli(["check", "Bash", '{"command":"ls"}', "--json"], { cwd: project, home });
    const messages = (JSON.parse(json.stdout).warnings as { message: string }[]).map((warning) => warning.message);
    expect(messages).toHaveLength(3);
    expect(messages[0]).toContain("write e.g. `mcp__github__*`, or list the tools one by one");
    expect(messages[1]).toContain("write one rule per tool");
    expect(messages[2]).toContain("write `Read(<pattern>)` instead");
  });

  it("the fix it names works: once Claude Code has recorded the trust, the warning is gone", () => {
    const { root, home, project } = makeFixture(untrusted);
    roots.push(root);
    writeFileSync(
      join(home, ".claude.json"),
      JSON.stringify({ projects: { [project]: { hasTrustDialogAccepted: true } } }),
    );
    const json = runCli(["check", "Bash", '{"command":"npm test"}', "--json"], { cwd: project, home });
    expect(json.status).toBe(0);
    expect(JSON.parse(json.stdout).warnings).toEqual([]);
  });
});
