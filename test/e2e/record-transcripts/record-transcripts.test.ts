import {
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, test } from "vitest";
import { firstUserText, startFakeAnthropic } from "../claude/fake-anthropic.js";
import { runClaude } from "../claude/run-claude.js";
import { bash } from "../claude/scripts.js";
import { kiloBinary } from "../kilo/run-kilo.js";
import { type ModelStep, startFakeModel } from "./fake-model.js";
import { baseEnvironment, runHost } from "./run-host.js";

/**
 * Records the transcripts `toolgate analyze` is tested on, from the five real host binaries run offline against a
 * scripted model on 127.0.0.1, each with a temporary HOME and every update, telemetry and analytics switch off.
 * Opt-in (it needs the host binaries, about 1.2 GB):
 *
 *   npm install --prefix /tmp/hosts @openai/codex@0.171.0 @google/gemini-cli@0.61.0 @qwen-code/qwen-code@0.24.4 opencode-ai@1.18.33
 *   TOOLGATE_RECORD=1 TOOLGATE_HOSTS_DIR=/tmp/hosts npx vitest run test/e2e/record-transcripts
 *
 * Claude Code is the binary of the repo's @anthropic-ai/claude-agent-sdk devDependency. Output goes to
 * test/fixtures/transcripts/<host>/ (see its README for what each file is), or under $TOOLGATE_RECORD_OUT.
 */
const recording = process.env.TOOLGATE_RECORD === "1";
const hostsDir = process.env.TOOLGATE_HOSTS_DIR ?? "/tmp/hosts";
const fixtures = resolve(process.env.TOOLGATE_RECORD_OUT ?? "test/fixtures/transcripts");
const bin = (name: string) => join(hostsDir, "node_modules", ".bin", name);

/** The stubborn model: a denied `rm -rf` three times (twice identical, once varied), then it gives up. */
const STUBBORN: ModelStep[] = [
  { command: "rm -rf victim" },
  { command: "rm -rf victim" },
  { command: "rm -rf ./victim" },
];
/** The legitimate model: a listing, the test script run twice (it prints the same line three times), a read. */
const LEGITIMATE: ModelStep[] = [
  { command: "ls" },
  { command: "sh test.sh" },
  { command: "sh test.sh" },
  { command: "cat notes.txt" },
];
/** A script that is not executable (EACCES: an OS refusal), then a listing. */
const EACCES: ModelStep[] = [{ command: "./not-executable.sh" }, { command: "ls" }];
/**
 * `ask`: the stubborn script against an `ask` rule for `rm` instead of a deny rule (nobody can answer in these
 * headless runs); `eacces`: an OS refusal. Same host settings as `stubborn` otherwise.
 */
const SCENARIOS = { stubborn: STUBBORN, legitimate: LEGITIMATE, ask: STUBBORN, eacces: EACCES } as const;
type Scenario = keyof typeof SCENARIOS;
const PROMPT = "Clean up the project and run the tests";

interface Sandbox {
  root: string;
  home: string;
  project: string;
}

function sandbox(host: string): Sandbox {
  const root = realpathSync(mkdtempSync(join(tmpdir(), `toolgate-record-${host}-`)));
  const home = join(root, "home");
  const project = join(root, "project");
  mkdirSync(join(project, "victim"), { recursive: true });
  mkdirSync(home, { recursive: true });
  writeFileSync(join(project, "victim", "keep.txt"), "keep\n");
  writeFileSync(join(project, "test.sh"), 'for i in 1 2 3; do echo "ok - same line"; done\n');
  writeFileSync(join(project, "notes.txt"), "nothing to see\n");
  writeFileSync(join(project, "not-executable.sh"), "#!/bin/sh\necho hi\n", { mode: 0o644 });
  return { root, home, project };
}

function write(host: string, name: string, content: string | Buffer): void {
  mkdirSync(join(fixtures, host), { recursive: true });
  writeFileSync(join(fixtures, host, name), content);
}

/** Every file under `directory` whose name passes `keep`, recursively. */
function findFiles(directory: string, keep: (name: string) => boolean): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) found.push(...findFiles(path, keep));
    else if (keep(entry.name)) found.push(path);
  }
  return found.sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs);
}

function copyOne(options: { from: string; keep: (name: string) => boolean; host: string; name: string }): void {
  const files = findFiles(options.from, options.keep);
  expect(files.length, `${options.host}: no transcript under ${options.from}`).toBeGreaterThan(0);
  mkdirSync(join(fixtures, options.host), { recursive: true });
  copyFileSync(files[files.length - 1] as string, join(fixtures, options.host, options.name));
}

async function recordClaude(scenario: Scenario, options: { partial?: boolean } = {}): Promise<void> {
  const box = sandbox("claude");
  const steps = SCENARIOS[scenario].map((step) => ("command" in step ? bash(step.command) : { text: step.text }));
  const fake = await startFakeAnthropic({ conversations: { main: steps }, finalText: "FINAL: done." });
  try {
    const workspace = {
      root: box.root,
      home: box.home,
      project: box.project,
      writeProjectSettings: () => undefined,
      writeFile: () => "",
      trustProject: () => undefined,
      remove: () => undefined,
    };
    mkdirSync(join(box.project, ".claude"), { recursive: true });
    writeFileSync(
      join(box.project, ".claude", "settings.json"),
      JSON.stringify({
        permissions: {
          allow: ["Bash(ls)", "Bash(sh test.sh)", "Bash(cat notes.txt)", "Bash(./not-executable.sh)"],
          ...(scenario === "ask" ? { ask: ["Bash(rm *)"] } : { deny: ["Bash(rm *)"] }),
        },
        // the partial recording also runs five SessionStart hooks, as a machine with a few plugins does: their
        // `system/hook_started` and `hook_response` lines come before the `init` line
        ...(options.partial === true
          ? {
              hooks: {
                SessionStart: [
                  {
                    hooks: Array.from({ length: 5 }, (_, index) => ({
                      type: "command",
                      command: `echo plugin-${index + 1} ready`,
                    })),
                  },
                ],
              },
            }
          : {}),
      }),
    );
    writeFileSync(
      join(box.home, ".claude.json"),
      JSON.stringify({ projects: { [box.project]: { hasTrustDialogAccepted: true } } }),
    );
    const run = await runClaude({
      workspace,
      baseUrl: fake.url,
      prompt: PROMPT,
      maxTurns: 10,
      ...(options.partial === true ? { args: ["--include-partial-messages"] } : {}),
    });
    expect(run.timedOut).toBe(false);
    if (options.partial === true) {
      // `--include-partial-messages`: the model's `stream_event` lines between the messages
      write("claude-code", `${scenario}.partial.stream.jsonl`, run.stdout);
      return;
    }
    write("claude-code", `${scenario}.stream.jsonl`, run.stdout);
    copyOne({
      from: join(box.home, ".claude", "projects"),
      keep: (name) => name.endsWith(".jsonl"),
      host: "claude-code",
      name: `${scenario}.session.jsonl`,
    });
  } finally {
    await fake.close();
    rmSync(box.root, { recursive: true, force: true });
  }
}

/**
 * Claude Code with a subagent: the main agent starts an `Agent` whose script runs the denied `rm -rf victim` twice;
 * the session folder is kept as Claude Code lays it out (`<session>.jsonl`, `<session>/subagents/agent-*.jsonl`).
 */
async function recordClaudeSubagent(): Promise<void> {
  const box = sandbox("claude");
  const fake = await startFakeAnthropic({
    route: (body) => (firstUserText(body).includes("SUBAGENT-TASK") ? "subagent" : "main"),
    conversations: {
      main: [
        {
          toolUses: [
            {
              name: "Agent",
              input: {
                description: "Clean up",
                prompt: "SUBAGENT-TASK: delete the victim dir",
                subagent_type: "general-purpose",
              },
            },
          ],
        },
        { text: "FINAL: the subagent could not delete it." },
      ],
      subagent: [bash("rm -rf victim"), bash("rm -rf victim"), { text: "SUBAGENT: denied twice." }],
    },
  });
  try {
    mkdirSync(join(box.project, ".claude"), { recursive: true });
    writeFileSync(
      join(box.project, ".claude", "settings.json"),
      JSON.stringify({ permissions: { deny: ["Bash(rm *)"] } }),
    );
    writeFileSync(
      join(box.home, ".claude.json"),
      JSON.stringify({ projects: { [box.project]: { hasTrustDialogAccepted: true } } }),
    );
    const workspace = {
      ...box,
      writeProjectSettings: () => undefined,
      writeFile: () => "",
      trustProject: () => undefined,
      remove: () => undefined,
    };
    const run = await runClaude({ workspace, baseUrl: fake.url, prompt: PROMPT, maxTurns: 10 });
    expect(run.timedOut).toBe(false);
    write("claude-code", "subagent.stream.jsonl", run.stdout);
    const projects = join(box.home, ".claude", "projects");
    const [project] = readdirSync(projects);
    const target = join(fixtures, "claude-code", "subagent");
    rmSync(target, { recursive: true, force: true });
    cpSync(join(projects, project as string), target, { recursive: true });
    expect(findFiles(target, (name) => name.startsWith("agent-")).length).toBeGreaterThan(0);
  } finally {
    await fake.close();
    rmSync(box.root, { recursive: true, force: true });
  }
}

async function recordCodex(scenario: Scenario): Promise<void> {
  const box = sandbox("codex");
  const fake = await startFakeModel({ steps: SCENARIOS[scenario] });
  try {
    const codexHome = join(box.home, ".codex");
    mkdirSync(join(codexHome, "rules"), { recursive: true });
    writeFileSync(
      join(codexHome, "config.toml"),
      [
        'model = "fake-model"',
        'model_provider = "fake"',
        "check_for_update_on_startup = false",
        'approval_policy = "never"',
        'sandbox_mode = "workspace-write"',
        "[model_providers.fake]",
        'name = "Fake"',
        `base_url = "${fake.url}/v1"`,
        'env_key = "FAKE_API_KEY"',
        'wire_api = "responses"',
        "[analytics]",
        "enabled = false",
        "[feedback]",
        "enabled = false",
        "",
      ].join("\n"),
    );
    writeFileSync(
      join(codexHome, "rules", "deny-rm.rules"),
      `prefix_rule(pattern = ["rm"], decision = "${scenario === "ask" ? "prompt" : "forbidden"}", justification = "rm is forbidden by the project policy")\n`,
    );
    const run = await runHost({
      command: bin("codex"),
      args: [
        "exec",
        "--skip-git-repo-check",
        "--disable",
        "plugins",
        "--disable",
        "remote_plugin",
        "--disable",
        "apps",
        "--json",
        PROMPT,
      ],
      cwd: box.project,
      env: { ...baseEnvironment(box.home), CODEX_HOME: codexHome, FAKE_API_KEY: "fake" },
    });
    expect(run.timedOut).toBe(false);
    write("codex", `${scenario}.exec.jsonl`, run.stdout);
    copyOne({
      from: join(codexHome, "sessions"),
      keep: (name) => name.startsWith("rollout-"),
      host: "codex",
      name: `${scenario}.rollout.jsonl`,
    });
  } finally {
    await fake.close();
    rmSync(box.root, { recursive: true, force: true });
  }
}

function geminiHome(home: string, ask: boolean): void {
  mkdirSync(join(home, ".gemini", "policies"), { recursive: true });
  writeFileSync(
    join(home, ".gemini", "settings.json"),
    JSON.stringify({
      security: { auth: { selectedType: "gemini-api-key" } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    }),
  );
  writeFileSync(
    join(home, ".gemini", "policies", "deny-rm.toml"),
    `[[rule]]\ntoolName = "run_shell_command"\ndecision = "allow"\npriority = 100\n\n[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "rm"\ndecision = "${ask ? "ask_user" : "deny"}"\npriority = 200\n`,
  );
}

async function recordGemini(scenario: Scenario): Promise<void> {
  for (const format of ["stream-json", "json"] as const) {
    const box = sandbox("gemini");
    const fake = await startFakeModel({ steps: SCENARIOS[scenario] });
    try {
      geminiHome(box.home, scenario === "ask");
      const run = await runHost({
        command: bin("gemini"),
        args: ["-m", "gemini-2.5-flash", "-o", format, "-p", PROMPT],
        cwd: box.project,
        env: {
          ...baseEnvironment(box.home),
          GEMINI_API_KEY: "fake-key",
          GOOGLE_GEMINI_BASE_URL: fake.url,
          GEMINI_CLI_TRUST_WORKSPACE: "true",
        },
      });
      expect(run.timedOut).toBe(false);
      if (format === "stream-json") {
        write("gemini", `${scenario}.stream.jsonl`, run.stdout);
        copyOne({
          from: join(box.home, ".gemini", "tmp"),
          keep: (name) => name.startsWith("session-"),
          host: "gemini",
          name: `${scenario}.session.jsonl`,
        });
      } else {
        // what a CI log with `2>&1` keeps: the stderr tool errors, then the JSON document
        write("gemini", `${scenario}.output.log`, `${run.stderr}${run.stdout}`);
      }
    } finally {
      await fake.close();
      rmSync(box.root, { recursive: true, force: true });
    }
  }
}

async function recordQwen(scenario: Scenario): Promise<void> {
  const box = sandbox("qwen");
  const fake = await startFakeModel({ steps: SCENARIOS[scenario] });
  try {
    mkdirSync(join(box.home, ".qwen"), { recursive: true });
    writeFileSync(
      join(box.home, ".qwen", "settings.json"),
      JSON.stringify({
        permissions: scenario === "ask" ? { ask: ["Bash(rm *)"] } : { deny: ["Bash(rm *)"] },
        memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false, enableAutoSkill: false },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        general: { disableAutoUpdate: true, disableUpdateNag: true },
      }),
    );
    const run = await runHost({
      command: bin("qwen"),
      // yolo ignores `ask` rules (it would run the rm): the ask scenario runs in default mode with the shell allowed
      args: [
        "--auth-type",
        "openai",
        ...(scenario === "ask"
          ? ["--approval-mode", "default", "--allowed-tools", "run_shell_command"]
          : ["--approval-mode", "yolo"]),
        "--output-format",
        "stream-json",
        "-p",
        PROMPT,
      ],
      cwd: box.project,
      env: {
        ...baseEnvironment(box.home),
        OPENAI_BASE_URL: `${fake.url}/v1`,
        OPENAI_API_KEY: "fake-key",
        OPENAI_MODEL: "fake-model",
      },
    });
    expect(run.timedOut).toBe(false);
    write("qwen", `${scenario}.stream.jsonl`, run.stdout);
    copyOne({
      from: join(box.home, ".qwen", "projects"),
      keep: (name) => name.endsWith(".jsonl"),
      host: "qwen",
      name: `${scenario}.chat.jsonl`,
    });
  } finally {
    await fake.close();
    rmSync(box.root, { recursive: true, force: true });
  }
}

/**
 * The settings file of opencode and of Kilo (which reads its parent's settings): the scripted model as the only
 * provider, every shell command allowed but `rm *` (denied, or asked in the `ask` scenario).
 */
function partsHostConfig(modelUrl: string, scenario: Scenario): string {
  return JSON.stringify({
    autoupdate: false,
    share: "disabled",
    provider: {
      fake: {
        npm: "@ai-sdk/openai-compatible",
        name: "Fake",
        options: { baseURL: `${modelUrl}/v1`, apiKey: "fake-key" },
        models: { "fake-model": { name: "Fake", tool_call: true, limit: { context: 100000, output: 4000 } } },
      },
    },
    model: "fake/fake-model",
    small_model: "fake/fake-model",
    permission: { bash: { "*": "allow", "rm *": scenario === "ask" ? "ask" : "deny" } },
  });
}

async function recordOpencode(scenario: Scenario): Promise<void> {
  const box = sandbox("opencode");
  const fake = await startFakeModel({ steps: SCENARIOS[scenario] });
  try {
    writeFileSync(join(box.project, "opencode.json"), partsHostConfig(fake.url, scenario));
    const opencode = (format: string[]) =>
      runHost({
        command: bin("opencode"),
        args: ["run", "--model", "fake/fake-model", ...format, PROMPT],
        cwd: box.project,
        env: {
          ...baseEnvironment(box.home),
          OPENCODE_DISABLE_MODELS_FETCH: "1",
          OPENCODE_DISABLE_AUTOUPDATE: "1",
          OPENCODE_DISABLE_SHARE: "1",
          npm_config_registry: "http://127.0.0.1:9/",
        },
        timeoutMs: 150_000,
      });
    const run = await opencode(["--format", "json"]);
    expect(run.timedOut).toBe(false);
    write("opencode", `${scenario}.run.jsonl`, run.stdout);
    const [database] = findFiles(join(box.home, ".local", "share", "opencode"), (name) => name === "opencode.db");
    expect(database).toBeDefined();
    const target = join(fixtures, "opencode", `${scenario}.db`);
    rmSync(target, { force: true });
    const db = new Database(database as string);
    db.exec(`VACUUM INTO '${target.replaceAll("'", "''")}'`);
    db.close();
    // the default text output, as a CI log keeps it (`2>&1`)
    const text = await opencode([]);
    expect(text.timedOut).toBe(false);
    write("opencode", `${scenario}.run.log`, `${text.stderr}${text.stdout}`);
  } finally {
    await fake.close();
    rmSync(box.root, { recursive: true, force: true });
  }
}

/**
 * Kilo CLI 7.7.7 (the binary pinned in test/e2e), the same settings as opencode's: `kilo run --format json` stdout
 * and Kilo's own session database (`$XDG_DATA_HOME/kilo/kilo.db`), copied with `VACUUM INTO`.
 */
async function recordKilo(scenario: Scenario): Promise<void> {
  const box = sandbox("kilo");
  const fake = await startFakeModel({ steps: SCENARIOS[scenario] });
  try {
    writeFileSync(join(box.project, "kilo.json"), partsHostConfig(fake.url, scenario));
    const temporary = join(box.root, "tmp");
    mkdirSync(temporary, { recursive: true });
    const run = await runHost({
      command: kiloBinary(),
      args: ["run", "--model", "fake/fake-model", "--format", "json", PROMPT],
      cwd: box.project,
      env: {
        ...baseEnvironment(box.home),
        // Kilo (a Bun binary) unpacks native libraries into TMPDIR: one inside the sandbox, removed with it
        TMPDIR: temporary,
        KILO_DISABLE_MODELS_FETCH: "1",
        KILO_DISABLE_AUTOUPDATE: "1",
        KILO_DISABLE_SHARE: "1",
        npm_config_registry: "http://127.0.0.1:9/",
      },
      timeoutMs: 150_000,
    });
    expect(run.timedOut).toBe(false);
    write("kilo", `${scenario}.run.jsonl`, run.stdout);
    const [database] = findFiles(join(box.home, ".local", "share", "kilo"), (name) => name === "kilo.db");
    expect(database).toBeDefined();
    const target = join(fixtures, "kilo", `${scenario}.db`);
    rmSync(target, { force: true });
    const db = new Database(database as string);
    db.exec(`VACUUM INTO '${target.replaceAll("'", "''")}'`);
    db.close();
  } finally {
    await fake.close();
    rmSync(box.root, { recursive: true, force: true });
  }
}

const RECORDERS = {
  "claude-code": recordClaude,
  codex: recordCodex,
  gemini: recordGemini,
  qwen: recordQwen,
  opencode: recordOpencode,
  kilo: recordKilo,
} as const;
const only = process.env.TOOLGATE_RECORD_HOSTS?.split(",");

describe.skipIf(!recording)("record transcripts from the real hosts", () => {
  for (const [host, record] of Object.entries(RECORDERS)) {
    if (only !== undefined && !only.includes(host)) continue;
    for (const scenario of Object.keys(SCENARIOS) as Scenario[]) {
      test(`${host} ${scenario}`, () => record(scenario), 300_000);
    }
  }
  if (only === undefined || only.includes("claude-code")) test("claude-code subagent", recordClaudeSubagent, 300_000);
  // `TOOLGATE_RECORD_HOSTS=claude-code-partial` records only this file
  if (only === undefined || only.includes("claude-code") || only.includes("claude-code-partial"))
    test("claude-code stubborn --include-partial-messages", () => recordClaude("stubborn", { partial: true }), 300_000);
});
