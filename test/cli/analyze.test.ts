import { copyFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, makeFixture, repoRoot, runCli } from "./cli-fixture.js";

beforeAll(ensureBuilt);

const fixture = makeFixture({});
afterAll(() => rmSync(fixture.root, { recursive: true, force: true }));
const cli = (args: string[]) =>
  runCli(args, { cwd: fixture.project, home: fixture.home, env: { TOOLGATE_DB: join(fixture.root, "t.db") } });

describe("toolgate analyze (the built CLI, a temporary HOME)", () => {
  it("with no path and no agent history: names the locations it searched, exit 0", () => {
    const run = cli(["analyze"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("No agent history found on this machine. Searched:");
    expect(run.stdout).toContain(join(fixture.home, ".claude", "projects"));
    expect(run.stderr).toBe("");
  });

  it("--save, then `toolgate report` shows the past session", () => {
    const transcript = join(repoRoot, "test/fixtures/transcripts/codex/stubborn.rollout.jsonl");
    expect(cli(["analyze", transcript, "--save"]).status).toBe(0);
    const report = cli(["report", "--since", "3650d", "--json"]);
    expect(report.status).toBe(0);
    expect(JSON.parse(report.stdout)).toMatchObject({ total: 3, sessions: 1 });
  });

  it("a path that matches nothing: one sentence on stderr, exit 2", () => {
    const run = cli(["analyze", "no-such-file.jsonl"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^toolgate analyze: No file matches no-such-file\.jsonl\./);
  });
});

/** `analyze --json`'s figures for one file: its one session's mode, denials by source, status and where it stops. */
function analyzed(file: string) {
  const run = cli(["analyze", file, "--json"]);
  expect(run.status, run.stderr).toBe(0);
  const sessions = JSON.parse(run.stdout).sessions as Record<string, unknown>[];
  expect(sessions).toHaveLength(1);
  const [session] = sessions as [Record<string, unknown>];
  const stoppedAt = session["stoppedAt"] as { action?: string } | null;
  return {
    interactive: session["interactive"],
    deniedBySource: session["deniedBySource"],
    savedCalls: session["savedCalls"],
    stop: stoppedAt?.action ?? null,
  };
}

/** A recorded file with its lines rewritten (`edit` returns the new line, or undefined to drop it), in the fixture. */
function variant(recorded: string, name: string, edit: (line: string) => string | undefined): string {
  const lines = readFileSync(join(repoRoot, recorded), "utf8").split("\n");
  const kept = lines.map((line) => (line === "" ? line : edit(line))).filter((line) => line !== undefined);
  const file = join(fixture.root, name);
  writeFileSync(file, kept.join("\n"));
  return file;
}

describe("analyze reads the mode a Codex rollout records (session_meta source, else originator)", () => {
  // Codex 0.40 in VS Code (originator codex_vscode, no source): a person rejected two apply_patch calls
  const rejected = "test/fixtures/transcripts/public/codex/patch-rejected.rollout.jsonl";
  // Codex 0.171.0 `codex exec` (originator codex_exec, source exec): three `ask` calls nobody could answer
  const asked = "test/fixtures/transcripts/codex/ask.rollout.jsonl";
  const withMeta = (recorded: string, name: string, meta: { originator?: string; source?: unknown }) =>
    variant(recorded, name, (line) => {
      if (!line.includes('"type":"session_meta"')) return line;
      const record = JSON.parse(line) as { payload: Record<string, unknown> };
      delete record.payload["originator"];
      delete record.payload["source"];
      record.payload = { ...record.payload, ...meta };
      return JSON.stringify(record);
    });

  it("as recorded: the VS Code session is interactive (a person's No), the exec run headless", () => {
    expect(analyzed(join(repoRoot, rejected))).toMatchObject({ interactive: true, deniedBySource: { user: 2 } });
    expect(analyzed(join(repoRoot, asked))).toMatchObject({
      interactive: false,
      deniedBySource: { headless: 3 },
      stop: "abort",
      savedCalls: 1,
    });
  });

  it("source cli or vscode is interactive, exec headless; without source, codex_cli_rs and codex_vscode are interactive, codex_exec headless", () => {
    for (const [name, meta] of [
      ["cli", { originator: "codex_cli_rs", source: "cli" }],
      ["vscode", { originator: "codex_vscode", source: "vscode" }],
      ["tui-0.40", { originator: "codex_cli_rs" }],
    ] as const) {
      expect(analyzed(withMeta(asked, `ask-${name}.rollout.jsonl`, meta)), name).toMatchObject({
        interactive: true,
        stop: "offer-grant",
        savedCalls: 0,
      });
      expect(analyzed(withMeta(rejected, `rejected-${name}.rollout.jsonl`, meta)), name).toMatchObject({
        interactive: true,
        deniedBySource: { user: 2 },
      });
    }
    for (const [name, meta] of [
      ["exec", { originator: "codex_exec", source: "exec" }],
      ["exec-0.40", { originator: "codex_exec" }],
    ] as const) {
      // Codex's "rejected by user" in a run nobody watched is a headless refusal
      expect(analyzed(withMeta(rejected, `rejected-${name}.rollout.jsonl`, meta)), name).toMatchObject({
        interactive: false,
        deniedBySource: { headless: 2 },
      });
    }
  });

  it("a rollout that does not say (mcp, a subagent, unknown, another client, nothing): a person's No stays user, the run is replayed as headless", () => {
    for (const [name, meta] of [
      ["mcp", { originator: "codex_cli_rs", source: "mcp" }],
      ["subagent", { originator: "codex_cli_rs", source: { subagent: "review" } }],
      ["unknown", { originator: "codex_cli_rs", source: "unknown" }],
      ["app-client", { originator: "Codex Desktop" }],
      ["nothing", {}],
    ] as const) {
      expect(analyzed(withMeta(rejected, `rejected-${name}.rollout.jsonl`, meta)), name).toMatchObject({
        interactive: false,
        deniedBySource: { user: 2 },
      });
    }
  });
});

describe("analyze reads the mode a Copilot CLI events.jsonl records (its system prompt, a person's answer)", () => {
  // Copilot 1.0.102 in its terminal UI (tmux): the person refused toolgate's ask at Copilot's prompt
  const interactive = "test/fixtures/transcripts/copilot/interactive-ask-no.events.jsonl";
  // Copilot 1.0.102 `-p`: its --deny-tool rule refused the stubborn model's rm calls
  const headless = "test/fixtures/transcripts/copilot/stubborn.events.jsonl";
  const PROMPT_INTERACTIVE = "You are an interactive tool that helps users with software engineering tasks.";
  const PROMPT_HEADLESS =
    "You are running in non-interactive mode and have no way to communicate with the user. You must work on the task until it is completed.";

  it("as recorded: the terminal session is interactive and the person's No is user; the -p run is headless", () => {
    expect(analyzed(join(repoRoot, interactive))).toMatchObject({
      interactive: true,
      deniedBySource: { user: 1 },
      stop: null,
    });
    expect(analyzed(join(repoRoot, headless))).toMatchObject({ interactive: false, stop: "abort" });
  });

  it("the same refusal where the system prompt says -p (and no person answered) is a headless one", () => {
    const file = variant(interactive, "copilot-p.events.jsonl", (line) =>
      line.includes('"type":"permission.') ? undefined : line.replace(PROMPT_INTERACTIVE, PROMPT_HEADLESS),
    );
    expect(readFileSync(file, "utf8")).toContain(PROMPT_HEADLESS);
    expect(analyzed(file)).toMatchObject({ interactive: false, deniedBySource: { headless: 1 } });
  });

  it("a file that does not say (no system prompt, no answer recorded): the person's No stays user", () => {
    const file = variant(interactive, "copilot-unknown.events.jsonl", (line) =>
      line.includes('"type":"permission.') || line.includes('"type":"system.message"') ? undefined : line,
    );
    expect(analyzed(file)).toMatchObject({ interactive: false, deniedBySource: { user: 1 } });
  });

  it("a person's answer Copilot recorded (permission.completed, human_response) makes the refusal user, whatever its text", () => {
    const file = variant(interactive, "copilot-answer.events.jsonl", (line) =>
      line.replaceAll("Denied by user via preToolUse hook prompt: ", "Refused: "),
    );
    expect(analyzed(file)).toMatchObject({ interactive: true, deniedBySource: { user: 1 } });
  });
});

describe("analyze reads the mode an opencode or Kilo database records (the run command's session ruleset)", () => {
  const Database = createRequire(import.meta.url)("better-sqlite3") as typeof import("better-sqlite3");
  it.each([["opencode"], ["kilo"]])(
    "%s: the recorded `run` session is headless; the same session without the ruleset (a terminal UI's) does not say, so the person's No stays user",
    (host) => {
      // `<host> run` against an ask rule: the run command rejects the ask itself, with the person's words
      const recorded = join(repoRoot, `test/fixtures/transcripts/${host}/ask.db`);
      expect(analyzed(recorded)).toMatchObject({ interactive: false, deniedBySource: { headless: 1 } });
      const file = join(fixture.root, `${host}-no-ruleset.db`);
      copyFileSync(recorded, file);
      const db = new Database(file);
      expect(db.prepare("UPDATE session SET permission = NULL").run().changes).toBe(1);
      db.close();
      expect(analyzed(file)).toMatchObject({ interactive: false, deniedBySource: { user: 1 } });
    },
  );
});
