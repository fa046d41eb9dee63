/**
 * The packed tarball as a user gets it (README, "Install into your project"): `npm pack`, install into a temp
 * project offline, import every subpath export, run the bin. Nothing leaves the temp directory; HOME is a temp dir.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, repoRoot } from "../cli/cli-fixture.js";
import { offlineLock } from "./offline-lock.js";

const repoManifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8"));
let root: string;
let project: string;
let home: string;
let tarball: string;
let packedFiles: string[];
/** the machine's npm cache, read (offline) with the real environment's config; logs go to the temp dir */
let cache: string;

function npm(args: string[], cwd: string): string {
  return execFileSync("npm", [...args, "--cache", cache, "--logs-dir", join(root, "npm-logs")], {
    cwd,
    env: { ...process.env, HOME: home, npm_config_update_notifier: "false", npm_config_fund: "false" },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** `npm ci --offline` of the tarball (plus `extra` packages) with the repo's versions; better-sqlite3 not rebuilt. */
function install(extra: string[] = []): void {
  const manifest = JSON.parse(
    execFileSync("tar", ["-xOzf", tarball, "package/package.json"], { encoding: "utf8" }),
  ) as Record<string, unknown>;
  const { packageJson, lock } = offlineLock({ repoRoot, tarball, manifest, extra });
  writeFileSync(join(project, "package.json"), JSON.stringify(packageJson, null, 2));
  writeFileSync(join(project, "package-lock.json"), JSON.stringify(lock, null, 2));
  // --ignore-scripts: better-sqlite3's install would try a download; the repo's build of the same version is copied
  npm(["ci", "--offline", "--ignore-scripts", "--no-audit"], project);
  const binding = join("node_modules", "better-sqlite3", "build", "Release", "better_sqlite3.node");
  mkdirSync(join(project, "node_modules", "better-sqlite3", "build", "Release"), { recursive: true });
  copyFileSync(join(repoRoot, binding), join(project, binding));
}

function toolgate(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(join(project, "node_modules", ".bin", "toolgate"), args, {
    cwd: project,
    env: { PATH: process.env.PATH ?? "", HOME: home, ...env },
    encoding: "utf8",
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(() => {
  ensureBuilt();
  root = mkdtempSync(join(tmpdir(), "toolgate-pack-"));
  project = join(root, "project");
  home = join(root, "home");
  mkdirSync(project);
  mkdirSync(home);
  cache = execFileSync("npm", ["config", "get", "cache"], { encoding: "utf8" }).trim();
  // --ignore-scripts: no prepack build in the shared tree while other tests run dist/
  const [packed] = JSON.parse(npm(["pack", "--json", "--ignore-scripts", "--pack-destination", root], repoRoot));
  tarball = join(root, packed.filename);
  packedFiles = packed.files.map((file: { path: string }) => file.path);
  install();
}, 180_000);

afterAll(() => {
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
});

describe("npm pack", () => {
  it("ships the license, README, docs, schema.json and the built code, without tests or dev files", () => {
    for (const file of ["LICENSE", "README.md", "schema.json", "package.json", "dist/cli/main.js", "docs/config.md"]) {
      expect(packedFiles, file).toContain(file);
    }
    const links = [...readFileSync(join(repoRoot, "README.md"), "utf8").matchAll(/\]\((docs\/[^)#]+)/g)];
    for (const [, doc] of links) expect(packedFiles, `README links ${doc}`).toContain(doc);
    expect(packedFiles.filter((file) => /\.test\.ts$|^test\/|^types\/|^bench\/|^scripts\//.test(file))).toEqual([]);
  });

  it("installs offline with exactly the dependencies its manifest declares, pg only as an optional peer", () => {
    const installed = JSON.parse(readFileSync(join(project, "node_modules", "toolgate", "package.json"), "utf8"));
    expect(installed.dependencies).toEqual(repoManifest.dependencies);
    expect(installed.dependencies.pg).toBeUndefined();
    expect(installed.peerDependenciesMeta.pg).toEqual({ optional: true });
    expect(installed.license).toBe("MIT");
  });
});

describe("the installed bin", () => {
  it("prints its version", () => {
    const result = toolgate(["--version"]);
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toBe(repoManifest.version);
  });

  it("checks a call", () => {
    const result = toolgate(["check", "Bash", '{"command":"ls"}', "--json"]);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ behavior: "allow" });
  });

  it("says to install pg when Postgres is selected without it, with no stack trace", () => {
    const result = toolgate(["report", "--since", "1d"], {
      TOOLGATE_DATABASE_URL: "postgres://postgres@127.0.0.1:5432/test",
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain("`npm install pg`");
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

describe("every subpath export", () => {
  it("imports from a script in the project (with pg installed, as a Postgres user would)", () => {
    install(["pg"]);
    const subpaths = Object.keys(repoManifest.exports as Record<string, unknown>);
    const script = [
      "const results = {};",
      ...subpaths.map((subpath) => {
        const specifier = `toolgate${subpath.slice(1)}`;
        const attributes = subpath.endsWith(".json") ? ', { with: { type: "json" } }' : "";
        return `results[${JSON.stringify(subpath)}] = Object.keys(await import(${JSON.stringify(specifier)}${attributes})).length;`;
      }),
      "console.log(JSON.stringify(results));",
    ].join("\n");
    writeFileSync(join(project, "import-all.mjs"), script);
    const result = spawnSync(process.execPath, ["import-all.mjs"], {
      cwd: project,
      env: { PATH: process.env.PATH ?? "", HOME: home },
      encoding: "utf8",
    });
    expect(result.stderr).toBe("");
    const counts = JSON.parse(result.stdout) as Record<string, number>;
    expect(Object.keys(counts)).toEqual(subpaths);
    for (const [subpath, count] of Object.entries(counts)) expect(count, subpath).toBeGreaterThan(0);
  });

  it("requires from a CommonJS script in the project, each from the tarball's CommonJS build", () => {
    const subpaths = Object.keys(repoManifest.exports as Record<string, unknown>);
    const script = [
      "const results = {};",
      ...subpaths.map((subpath) => {
        const specifier = JSON.stringify(`toolgate${subpath.slice(1)}`);
        return `results[${JSON.stringify(subpath)}] = Object.keys(require(${specifier})).length;`;
      }),
      "console.log(JSON.stringify(results));",
    ].join("\n");
    writeFileSync(join(project, "require-all.cjs"), script);
    const result = spawnSync(process.execPath, ["require-all.cjs"], {
      cwd: project,
      env: { PATH: process.env.PATH ?? "", HOME: home },
      encoding: "utf8",
    });
    expect(result.stderr).toBe("");
    const counts = JSON.parse(result.stdout) as Record<string, number>;
    expect(Object.keys(counts)).toEqual(subpaths);
    for (const [subpath, count] of Object.entries(counts)) expect(count, subpath).toBeGreaterThan(0);
    expect(packedFiles).toContain("dist/cjs/index.cjs");
  });
});

/**
 * Issue 11's walkthrough: what a new user hit in their first ten minutes, each finding replayed against the
 * installed tarball in a temp HOME, so none can come back.
 */
describe("the first ten minutes (each finding of the walkthrough)", () => {
  const sh = (script: string, env: Record<string, string> = {}) =>
    spawnSync("sh", ["-c", script], {
      cwd: project,
      env: { PATH: `${join(project, "node_modules", ".bin")}:${process.env.PATH ?? ""}`, HOME: home, ...env },
      encoding: "utf8",
    });
  const settingsFile = () => join(project, ".claude", "settings.json");

  it("1. a misspelled flag is refused with the closest valid one, exit 2, before anything is written", () => {
    const install = toolgate(["install", "claude-code", "--dryrun"]);
    expect(install.status).toBe(2);
    expect(install.stderr).toContain("--dry-run");
    expect(() => readFileSync(settingsFile())).toThrow();
    const report = toolgate(["report", "--sinse", "1d"]);
    expect(report.status).toBe(2);
    expect(report.stderr).toContain("--since");
    const check = toolgate(["check", "Bash", '{"command":"ls"}', "--jsn"]);
    expect(check.status).toBe(2);
    expect(check.stderr).toContain("--json");
  });

  it("2. the repository's tests read nothing outside the repository", () => {
    const found = spawnSync("git", ["grep", "-n", "-E", "\\.\\./shared/", "--", "src", "test", "bench", "scripts"], {
      cwd: repoRoot,
      encoding: "utf8",
    });
    const reads = found.stdout
      .split("\n")
      .filter((line) => line !== "" && !/^[^:]+:\d+:\s*(\*|\/\/)/.test(line) && !line.includes("pack.test.ts"));
    expect(reads).toEqual([]);
  });

  it("3. `toolgate run` links to the sessions its hooks record, whatever the output, and says when it cannot", () => {
    const database = join(root, "walkthrough.db");
    mkdirSync(join(project, ".claude"), { recursive: true });
    writeFileSync(settingsFile(), JSON.stringify({ permissions: { deny: ["Bash(rm:*)"] } }, null, 2));
    // an "agent" with no stream toolgate reads, whose hook (as Claude Code runs it) sees one denied call
    const event = JSON.stringify({
      session_id: "walkthrough-run",
      transcript_path: join(root, "none.jsonl"),
      cwd: project,
      permission_mode: "default",
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "rm -rf build" },
      tool_use_id: "toolu_walk_1",
    });
    writeFileSync(join(root, "event.json"), event);
    const linked = sh(`toolgate run -- sh -c 'toolgate hook claude-code < "${join(root, "event.json")}" > /dev/null'`, {
      TOOLGATE_DB: database,
      CLAUDE_CODE_SESSION_ATTENDED: "0",
    });
    expect(linked.status).toBe(5);
    expect(linked.stderr).toContain("toolgate run: 1 denied call.");
    expect(linked.stderr).not.toContain("no toolgate hook ran");
    const unlinked = sh("toolgate run -- sh -c 'exit 0'", { TOOLGATE_DB: database });
    expect(unlinked.status).toBe(0);
    expect(unlinked.stderr.split("\n").filter((line) => line.includes("no toolgate hook ran"))).toHaveLength(1);
    expect(unlinked.stderr).toContain("toolgate install claude-code");
  });

  it("4. the default install holds no host binary, benchmark peer or Postgres driver", () => {
    const modules = readdirSync(join(project, "node_modules"));
    // (pg is checked above: an optional peer, absent unless the user adds it)
    for (const heavy of ["opencode-ai", "@google", "@anthropic-ai", "vitest", "typescript"]) {
      expect(modules, heavy).not.toContain(heavy);
    }
  });

  it("5. `report` says which deny rule to narrow instead of an allow rule that would not help", () => {
    const report = toolgate(["report", "--since", "1d"], { TOOLGATE_DB: join(root, "walkthrough.db") });
    expect(report.status).toBe(0);
    expect(report.stdout).toContain("Bash(rm:*)");
    expect(report.stdout).toMatch(/deny rule wins/);
    expect(report.stdout).not.toContain("Bash(rm -rf build)");
  });

  it("6. the package ships its license, schema and docs", () => {
    for (const file of ["LICENSE", "schema.json", join("docs", "config.md")]) {
      expect(() => readFileSync(join(project, "node_modules", "toolgate", file)), file).not.toThrow();
    }
  });

  it("7. help: `toolgate help` works, no colour in a pipe, the version on its own", () => {
    const help = toolgate(["help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("Usage: toolgate <command>");
    const commandHelp = toolgate(["help", "report"]);
    expect(commandHelp.status).toBe(0);
    expect(commandHelp.stdout).not.toContain("\u001b[");
    const lines = toolgate(["check", "--help"]).stdout.trimEnd().split("\n");
    expect(lines.at(-1)).not.toMatch(/\d+\.\d+\.\d+$/);
  });

  it("8. a closed pipe ends a command quietly", () => {
    const piped = sh("toolgate tail --no-follow --json | head -1", { TOOLGATE_DB: join(root, "walkthrough.db") });
    expect(piped.stderr).not.toMatch(/EPIPE|\n\s+at /);
  });

  it("9. a warning says its fix, and --json carries it", () => {
    writeFileSync(settingsFile(), JSON.stringify({ permissions: { allow: ["Bash(npm test)"] } }, null, 2));
    const checked = toolgate(["check", "Bash", '{"command":"npm test"}', "--json"]);
    expect(checked.status).toBe(3); // ask: the project's allow rule is ignored until the workspace is trusted
    const document = JSON.parse(checked.stdout) as { warnings: { code: string; message: string }[] };
    expect(document.warnings.length).toBeGreaterThan(0);
    expect(document.warnings.map((warning) => warning.message).join(" ")).toMatch(/trust/i);
  });

  it("10. knobs and docs tell the truth: install keeps the user's formatting, a bad config is named by doctor", () => {
    const original = '{\n    "model": "opus",\n    // mine\n    "permissions": { "allow": [] }\n}\n';
    writeFileSync(settingsFile(), original);
    expect(toolgate(["install", "claude-code"]).status).toBe(0);
    const installed = readFileSync(settingsFile(), "utf8");
    expect(installed).toContain('    "model": "opus",\n    // mine\n');
    expect(toolgate(["uninstall", "claude-code"]).status).toBe(0);
    expect(readFileSync(settingsFile(), "utf8")).toBe(original);
    writeFileSync(join(project, "toolgate.config.json"), JSON.stringify({ permisions: { deny: [] } }));
    const doctor = toolgate(["doctor"]);
    expect(doctor.status).toBe(1);
    expect(doctor.stdout).toContain("toolgate.config.json");
    expect(doctor.stdout).toContain("permisions");
    rmSync(join(project, "toolgate.config.json"));
    const demo = toolgate(["demo"]);
    expect(demo.status).toBe(0);
  });
});
