import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, makeFixture, runCli } from "./cli-fixture.js";

beforeAll(ensureBuilt);

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function fixture() {
  const created = makeFixture({});
  roots.push(created.root);
  return created;
}

/** One misspelled flag per command (finding 1 of issue 11), and the flag each message must name. */
const TYPOS: [string[], string][] = [
  [["demo", "--jsn"], "--json"],
  [["check", "Bash", '{"command":"ls"}', "--jsn"], "--json"],
  [["import", "claude-code", "--writ"], "--write"],
  [["install", "claude-code", "--dryrun"], "--dry-run"],
  [["uninstall", "claude-code", "--dryrun"], "--dry-run"],
  [["hook", "claude-code", "--hlep"], "--help"],
  [["run", "--fial-on", "abort", "--", "node", "-v"], "--fail-on"],
  [["report", "--sinse", "1d"], "--since"],
  [["tail", "--no-folow"], "--no-follow"],
  [["scrub", "--jsno"], "--json"],
  [["prune", "--older-then", "30d"], "--older-than"],
  [["analyze", "--sinse", "1d"], "--since"],
  [["doctor", "--jsn"], "--json"],
  [["redact", "--quite"], "--quiet"],
  [["dashboard", "--hots", "127.0.0.1"], "--host"],
  [["mcp-proxy", "--servr", "fs", "--", "node", "-v"], "--server"],
  [["acp-proxy", "--headles", "--", "node", "-v"], "--headless"],
];

describe("unknown flags (issue 11, finding 1)", () => {
  it("has a typo case for every command the root help lists", () => {
    const { home, project } = fixture();
    const help = runCli(["--help"], { cwd: project, home }).stdout;
    const listed = (help.split("\nCommands:\n")[1] ?? "").split("\n\n")[0]?.split("\n") ?? [];
    const names = listed.map((line) => line.trim().split(/\s+/)[0]);
    expect(TYPOS.map(([args]) => args[0]).sort()).toEqual([...names].sort());
  });

  it.each(TYPOS)("toolgate %j exits 2 with one sentence naming the closest flag", (args, meant) => {
    const { home, project } = fixture();
    const result = runCli(args, { cwd: project, home });
    expect(result.status).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      `toolgate ${args[0]}: unknown flag ${args.find((a) => a.startsWith("--"))}; did you mean ${meant}?\n`,
    );
    // nothing was done: no settings file, no store
    expect(existsSync(join(project, ".claude"))).toBe(false);
    expect(existsSync(join(home, ".toolgate"))).toBe(false);
  });

  it("install --dryrun writes no settings file, install --dry-run shows the diff and writes none either", () => {
    const { home, project } = fixture();
    expect(runCli(["install", "claude-code", "--dryrun"], { cwd: project, home }).status).toBe(2);
    expect(existsSync(join(project, ".claude", "settings.json"))).toBe(false);
    const dry = runCli(["install", "claude-code", "--dry-run"], { cwd: project, home });
    expect(dry.status).toBe(0);
    expect(dry.stdout).toContain("Dry run: nothing was written.");
    expect(existsSync(join(project, ".claude", "settings.json"))).toBe(false);
  });

  it.each([
    [["check", "Bash", "{}", "--mode", "dontask"], 'unknown --mode value "dontask" (did you mean dontAsk?)'],
    [["redact", "--format", "jsn"], 'unknown --format value "jsn" (did you mean json?)'],
    [["run", "--fail-on", "abrt", "--", "node", "-v"], 'unknown --fail-on value "abrt" (did you mean abort?)'],
    [["install", "claud"], 'unknown target "claud" (did you mean claude-code?)'],
    [["hook", "claude"], 'unknown host "claude" (did you mean claude-code?)'],
    [["import", "gemni"], 'unknown host "gemni" (did you mean gemini?)'],
    [["chek", "Bash"], 'unknown command "chek"; did you mean check?'],
    [["--verison"], "unknown flag --verison (did you mean --version?)"],
  ])("toolgate %j names the closest valid value", (args, message) => {
    const { home, project } = fixture();
    const result = runCli(args, { cwd: project, home });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
  });

  it("never checks the flags after -- : they belong to the agent command", () => {
    const { home, project } = fixture();
    writeFileSync(
      join(project, "agent.mjs"),
      'import { writeFileSync } from "node:fs"; writeFileSync("ran", process.argv.slice(2).join(" "));',
    );
    const result = runCli(["run", "--", "node", "agent.mjs", "--dryrun", "-p", "x"], {
      cwd: project,
      home,
      env: { TOOLGATE_DB: join(home, "t.db") },
    });
    expect(result.stderr).not.toContain("unknown flag");
    expect(existsSync(join(project, "ran"))).toBe(true);
  });

  it("a typo before -- stops run before the agent starts", () => {
    const { home, project } = fixture();
    writeFileSync(join(project, "agent.mjs"), 'import { writeFileSync } from "node:fs"; writeFileSync("ran", "");');
    const result = runCli(["run", "--fail-onn", "never", "--", "node", "agent.mjs"], { cwd: project, home });
    expect(result.status).toBe(2);
    expect(existsSync(join(project, "ran"))).toBe(false);
  });
});
