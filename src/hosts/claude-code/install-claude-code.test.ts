import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseJsonc } from "../common/json-file-edit.js";
import { installClaudeCode, uninstallClaudeCode } from "./install-claude-code.js";
import { hasToolgateHooks } from "./settings-hooks.js";

const COMMAND = '"/usr/bin/node" "/opt/toolgate/dist/cli/main.js" hook claude-code';

/**
 * A settings file as people write them: 4-space indentation, their own key order, another hook (no comments: Claude
 * Code ignores a settings file that has any, so install refuses one).
 */
const USER_SETTINGS = `{
    "permissions": {
        "deny": ["Bash(rm -rf /)"],
        "allow": [
            "Bash(npm test)"
        ]
    },
    "model": "opus",
    "hooks": {
        "PreToolUse": [
            { "matcher": "Bash", "hooks": [{ "type": "command", "command": "./audit.sh" }] }
        ]
    },
    "env": { "FOO": "1" }
}
`;

let root: string;
let project: string;
const settingsFile = () => join(project, ".claude", "settings.json");
const options = (extra: Partial<Parameters<typeof installClaudeCode>[0]> = {}) => ({
  scope: "project" as const,
  dryRun: false,
  command: COMMAND,
  cwd: project,
  home: join(root, "home"),
  ...extra,
});

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "toolgate-install-"));
  project = join(root, "project");
  mkdirSync(join(project, ".claude"), { recursive: true });
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe("installClaudeCode on an existing settings file", () => {
  it("only adds lines: indentation, key order, comments and the other hook stay as written", () => {
    writeFileSync(settingsFile(), USER_SETTINGS);
    const outcome = installClaudeCode(options());
    const text = readFileSync(settingsFile(), "utf8");
    expect(outcome.written).toBe(true);
    // the one line that changes is the previous last entry, which gains a comma
    const removed = outcome.diff.filter((line) => line.startsWith("- "));
    for (const line of removed) expect(outcome.diff).toContain(`+ ${line.slice(2)},`);
    // every original line is still there, in order, with its indentation (the previous last entry gains a comma)
    const lines = text.split("\n");
    let at = 0;
    for (const line of USER_SETTINGS.split("\n")) {
      const found = lines.findIndex((kept, index) => index >= at && (kept === line || kept === `${line},`));
      expect(found, `kept: ${JSON.stringify(line)}`).toBeGreaterThanOrEqual(0);
      at = found + 1;
    }
    expect(text.endsWith("}\n")).toBe(true);
    expect(text).toContain(`\n${" ".repeat(24)}"command": ${JSON.stringify(COMMAND)}`);
    const settings = parseJsonc(text) as Record<string, unknown>;
    expect(hasToolgateHooks(settings)).toBe(true);
    expect(Object.keys(settings)).toEqual(["permissions", "model", "hooks", "env"]);
  });

  it("shows in its diff every line the write changes", () => {
    writeFileSync(settingsFile(), USER_SETTINGS);
    const outcome = installClaudeCode(options());
    const added =
      outcome.diff.filter((line) => line.startsWith("+ ")).length -
      outcome.diff.filter((line) => line.startsWith("- ")).length;
    const before = USER_SETTINGS.split("\n").length;
    const after = readFileSync(settingsFile(), "utf8").split("\n").length;
    expect(after - before).toBe(added);
  });

  it("uninstall gives back the file as it was, byte for byte", () => {
    writeFileSync(settingsFile(), USER_SETTINGS);
    installClaudeCode(options());
    uninstallClaudeCode(options());
    expect(readFileSync(settingsFile(), "utf8")).toBe(USER_SETTINGS);
  });

  it("replaces an older toolgate command in place, touching only its lines", () => {
    writeFileSync(settingsFile(), USER_SETTINGS);
    installClaudeCode(options({ command: '"/old/node" "/old/toolgate/dist/cli/main.js" hook claude-code' }));
    const outcome = installClaudeCode(options());
    const removed = outcome.diff.filter((line) => line.startsWith("- "));
    expect(removed.length).toBeGreaterThan(0);
    expect(removed.every((line) => line.includes("/old/"))).toBe(true);
    expect(installClaudeCode(options()).changed).toBe(false);
  });

  it("keeps CRLF line endings and tab indentation", () => {
    const crlf = '{\r\n\t"model": "opus"\r\n}\r\n';
    writeFileSync(settingsFile(), crlf);
    installClaudeCode(options());
    const text = readFileSync(settingsFile(), "utf8");
    expect(text.startsWith('{\r\n\t"model": "opus",\r\n\t"hooks": {\r\n\t\t"PreToolUse"')).toBe(true);
    expect(text.replace(/\r\n/g, "")).not.toContain("\n");
    uninstallClaudeCode(options());
    expect(readFileSync(settingsFile(), "utf8")).toBe(crlf);
  });

  it("--dry-run shows the same diff and writes nothing", () => {
    writeFileSync(settingsFile(), USER_SETTINGS);
    const dry = installClaudeCode(options({ dryRun: true }));
    expect(readFileSync(settingsFile(), "utf8")).toBe(USER_SETTINGS);
    expect(dry.written).toBe(false);
    expect(installClaudeCode(options()).diff).toEqual(dry.diff);
  });

  it("creates a missing file with 2-space JSON", () => {
    installClaudeCode(options());
    const text = readFileSync(settingsFile(), "utf8");
    expect(text).toBe(`${JSON.stringify(parseJsonc(text), null, 2)}\n`);
  });
});

describe("installClaudeCode and what Claude Code reads", () => {
  it("refuses a settings file with a comment or a trailing comma (Claude Code ignores it), changing nothing", () => {
    for (const text of ['{\n  // mine\n  "model": "opus"\n}\n', '{\n  "model": "opus",\n}\n']) {
      writeFileSync(settingsFile(), text);
      expect(() => installClaudeCode(options())).toThrow(
        /comments or trailing commas: Claude Code .* ignores the whole file/,
      );
      expect(readFileSync(settingsFile(), "utf8")).toBe(text);
    }
  });

  it("uninstall still takes toolgate's entries out of a commented file, keeping the comment", () => {
    const plain = '{\n  "model": "opus"\n}\n';
    writeFileSync(settingsFile(), plain);
    installClaudeCode(options());
    const installed = readFileSync(settingsFile(), "utf8");
    writeFileSync(settingsFile(), `// mine\n${installed}`);
    uninstallClaudeCode(options());
    expect(readFileSync(settingsFile(), "utf8")).toBe(`// mine\n${plain}`);
  });
});

describe("uninstallClaudeCode where install created the file", () => {
  it("removes the file when it holds nothing but what install wrote", () => {
    const local = join(project, ".claude", "settings.local.json");
    installClaudeCode(options({ scope: "local" }));
    expect(existsSync(local)).toBe(true);
    const outcome = uninstallClaudeCode(options({ scope: "local" }));
    expect(outcome.removed).toBe(true);
    expect(existsSync(local)).toBe(false);
  });

  it("keeps a file the person changed since, and a file that was an empty object before", () => {
    installClaudeCode(options());
    const text = readFileSync(settingsFile(), "utf8");
    writeFileSync(settingsFile(), text.replace('{\n  "hooks"', '{\n  "model": "opus",\n  "hooks"'));
    uninstallClaudeCode(options());
    expect(readFileSync(settingsFile(), "utf8")).toBe('{\n  "model": "opus"\n}\n');
    writeFileSync(settingsFile(), "{}\n");
    expect(uninstallClaudeCode(options()).changed).toBe(false);
    expect(readFileSync(settingsFile(), "utf8")).toBe("{}\n");
  });

  it("keeps the file's mode", () => {
    writeFileSync(settingsFile(), '{\n  "model": "opus"\n}\n', { mode: 0o600 });
    installClaudeCode(options());
    expect(statSync(settingsFile()).mode & 0o777).toBe(0o600);
    uninstallClaudeCode(options());
    expect(statSync(settingsFile()).mode & 0o777).toBe(0o600);
  });
});

describe("installClaudeCode --local in a git repository", () => {
  it("notes when git would commit the local settings file, and not once it is ignored", () => {
    if (spawnSync("git", ["init", "-q", project]).status !== 0) return;
    const local = options({ scope: "local" });
    expect(installClaudeCode(local).notes?.[0]).toMatch(/git does not ignore .*settings\.local\.json here/);
    uninstallClaudeCode(local);
    writeFileSync(join(project, ".gitignore"), ".claude/settings.local.json\n");
    expect(installClaudeCode(local).notes).toBeUndefined();
  });
});
