import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, makeFixture, repoRoot, runCli } from "./cli-fixture.js";

beforeAll(ensureBuilt);

const fixture = makeFixture({});
afterAll(() => rmSync(fixture.root, { recursive: true, force: true }));
const cli = (args: string[], env: Record<string, string> = {}) =>
  runCli(args, { cwd: fixture.project, home: fixture.home, env });

const COMMANDS = [
  "demo",
  "check",
  "import",
  "install",
  "uninstall",
  "hook",
  "run",
  "report",
  "dashboard",
  "analyze",
  "tail",
  "scrub",
  "prune",
  "doctor",
  "redact",
  "mcp-proxy",
  "acp-proxy",
];
const ESC = "\u001b[";

describe("help (issue 11, finding 7)", () => {
  it("the root help lists every command with the complete first line of its own help", () => {
    const root = cli(["--help"]);
    expect(root.status).toBe(0);
    // a new command is added to COMMANDS here, so every test below covers it
    const listed = (root.stdout.split("\nCommands:\n")[1] ?? "").split("\n\n")[0]?.split("\n") ?? [];
    expect(listed.map((line) => line.trim().split(/\s+/)[0])).toEqual(COMMANDS);
    for (const command of COMMANDS) {
      const summary = cli([command, "--help"]).stdout.split("\n")[0] ?? "";
      expect(summary).toMatch(/[.!?]$/);
      expect(root.stdout).toContain(`  ${command.padEnd(9)}  ${summary}\n`);
    }
  });

  it("`toolgate help` and `toolgate help <command>` print what --help prints", () => {
    expect(cli(["help"])).toEqual(cli(["--help"]));
    expect(cli(["help", "report"])).toEqual(cli(["report", "--help"]));
    const unknown = cli(["help", "reprot"]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("did you mean report?");
  });

  it.each(COMMANDS)("%s --help: plain text when piped, examples last, ending in a newline", (command) => {
    const help = cli([command, "--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).not.toContain(ESC);
    const examples = help.stdout.split("\nExamples:\n")[1] ?? "";
    const lines = examples.trimEnd().split("\n");
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/^ {2}(\S.*)?\btoolgate \S/);
    expect(help.stdout.endsWith("\n")).toBe(true);
    expect(help.stdout).not.toContain("0.1.0");
  });

  it("colours help only when asked: FORCE_COLOR=1 on a pipe; NO_COLOR and FORCE_COLOR=0 turn it off", () => {
    expect(cli(["check", "--help"], { FORCE_COLOR: "1" }).stdout).toContain(ESC);
    expect(cli(["check", "--help"], { FORCE_COLOR: "0" }).stdout).not.toContain(ESC);
    expect(cli(["check", "--help"], { NO_COLOR: "1" }).stdout).not.toContain(ESC);
  });

  it("--version prints the package version alone", async () => {
    const { version } = (await import(`${repoRoot}package.json`, { with: { type: "json" } })).default as {
      version: string;
    };
    expect(cli(["--version"]).stdout).toBe(`${version}\n`);
  });

  it("uninstall --help describes --command as what uninstall does with it", () => {
    const help = cli(["uninstall", "--help"]).stdout;
    const line = help.split("\n").find((text) => text.trimStart().startsWith("--command")) ?? "";
    expect(line).toContain("remove");
    expect(line).not.toContain("to install");
  });

  it("hook --help shows the hook entry `install claude-code` really writes", () => {
    const dry = cli(["install", "claude-code", "--dry-run"]).stdout;
    const written = dry.match(/"command": ("(?:[^"\\]|\\.)*")/)?.[1];
    expect(written).toBeDefined();
    const hookHelp = cli(["hook", "--help"]).stdout;
    expect(hookHelp).toContain(`"command":${written}`);
  });

  it("no command prints the root help on stderr with exit 2", () => {
    const bare = cli([]);
    expect(bare.status).toBe(2);
    expect(bare.stderr).toBe(cli(["--help"]).stdout);
  });
});
