import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, test } from "vitest";
import { startFakeAnthropic } from "../claude/fake-anthropic.js";
import { claudeBinary, offlineEnvironment } from "../claude/run-claude.js";
import { bash } from "../claude/scripts.js";
import { type ModelStep, startFakeModel } from "./fake-model.js";
import { baseEnvironment, runHost } from "./run-host.js";

/**
 * Records the plain text output of each host's headless mode (`claude -p`, `codex exec`, `gemini -p`, `qwen -p`;
 * opencode's `run` text is recorded by record-transcripts.test.ts), as a CI log keeps it: stderr, then stdout.
 * Same scripted model, sandbox and host rules as record-transcripts.test.ts (stubborn: a denied `rm -rf` three
 * times; legitimate: `ls`, `sh test.sh` twice, `cat notes.txt`). Opt-in, like it:
 *
 *   TOOLGATE_RECORD=1 TOOLGATE_HOSTS_DIR=/tmp/hosts npx vitest run test/e2e/record-transcripts/record-text-logs.test.ts
 *
 * Output: test/fixtures/transcripts/<host>/<scenario>.text.log (or under $TOOLGATE_RECORD_OUT).
 */
const recording = process.env.TOOLGATE_RECORD === "1";
const hostsDir = process.env.TOOLGATE_HOSTS_DIR ?? "/tmp/hosts";
const fixtures = resolve(process.env.TOOLGATE_RECORD_OUT ?? "test/fixtures/transcripts");
const bin = (name: string) => join(hostsDir, "node_modules", ".bin", name);
const PROMPT = "Clean up the project and run the tests";

const SCENARIOS = {
  stubborn: [{ command: "rm -rf victim" }, { command: "rm -rf victim" }, { command: "rm -rf ./victim" }],
  legitimate: [{ command: "ls" }, { command: "sh test.sh" }, { command: "sh test.sh" }, { command: "cat notes.txt" }],
} satisfies Record<string, ModelStep[]>;
type Scenario = keyof typeof SCENARIOS;

interface Box {
  root: string;
  home: string;
  project: string;
}

function sandbox(host: string): Box {
  const root = realpathSync(mkdtempSync(join(tmpdir(), `toolgate-record-text-${host}-`)));
  const home = join(root, "home");
  const project = join(root, "project");
  mkdirSync(join(project, "victim"), { recursive: true });
  mkdirSync(home, { recursive: true });
  writeFileSync(join(project, "victim", "keep.txt"), "keep\n");
  writeFileSync(join(project, "test.sh"), 'for i in 1 2 3; do echo "ok - same line"; done\n');
  writeFileSync(join(project, "notes.txt"), "nothing to see\n");
  return { root, home, project };
}

function writeLog(host: string, scenario: Scenario, run: { stdout: string; stderr: string }): void {
  mkdirSync(join(fixtures, host), { recursive: true });
  writeFileSync(join(fixtures, host, `${scenario}.text.log`), `${run.stderr}${run.stdout}`);
}

async function withModel(scenario: Scenario, host: string, body: (box: Box, url: string) => Promise<void>) {
  const box = sandbox(host);
  const fake = await startFakeModel({ steps: SCENARIOS[scenario] });
  try {
    await body(box, fake.url);
  } finally {
    await fake.close();
    rmSync(box.root, { recursive: true, force: true });
  }
}

async function recordClaude(scenario: Scenario): Promise<void> {
  const box = sandbox("claude");
  const steps = SCENARIOS[scenario].map((step) => bash(step.command));
  const fake = await startFakeAnthropic({ conversations: { main: steps }, finalText: "FINAL: done." });
  try {
    mkdirSync(join(box.project, ".claude"), { recursive: true });
    writeFileSync(
      join(box.project, ".claude", "settings.json"),
      JSON.stringify({
        permissions: { allow: ["Bash(ls)", "Bash(sh test.sh)", "Bash(cat notes.txt)"], deny: ["Bash(rm *)"] },
      }),
    );
    writeFileSync(
      join(box.home, ".claude.json"),
      JSON.stringify({ projects: { [box.project]: { hasTrustDialogAccepted: true } } }),
    );
    const run = await runHost({
      command: claudeBinary(),
      args: ["-p", PROMPT, "--max-turns", "10"],
      cwd: box.project,
      env: offlineEnvironment({ baseUrl: fake.url, home: box.home }),
    });
    expect(run.timedOut).toBe(false);
    writeLog("claude-code", scenario, run);
  } finally {
    await fake.close();
    rmSync(box.root, { recursive: true, force: true });
  }
}

function recordCodex(scenario: Scenario): Promise<void> {
  return withModel(scenario, "codex", async (box, url) => {
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
        `base_url = "${url}/v1"`,
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
      'prefix_rule(pattern = ["rm"], decision = "forbidden", justification = "rm is forbidden by the project policy")\n',
    );
    const run = await runHost({
      command: bin("codex"),
      args: ["exec", "--skip-git-repo-check", "--disable", "plugins", "--disable", "remote_plugin"].concat([
        "--disable",
        "apps",
        PROMPT,
      ]),
      cwd: box.project,
      env: { ...baseEnvironment(box.home), CODEX_HOME: codexHome, FAKE_API_KEY: "fake" },
    });
    expect(run.timedOut).toBe(false);
    writeLog("codex", scenario, run);
  });
}

function recordGemini(scenario: Scenario): Promise<void> {
  return withModel(scenario, "gemini", async (box, url) => {
    mkdirSync(join(box.home, ".gemini", "policies"), { recursive: true });
    writeFileSync(
      join(box.home, ".gemini", "settings.json"),
      JSON.stringify({
        security: { auth: { selectedType: "gemini-api-key" } },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
      }),
    );
    writeFileSync(
      join(box.home, ".gemini", "policies", "deny-rm.toml"),
      '[[rule]]\ntoolName = "run_shell_command"\ndecision = "allow"\npriority = 100\n\n[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "rm"\ndecision = "deny"\npriority = 200\n',
    );
    const run = await runHost({
      command: bin("gemini"),
      args: ["-m", "gemini-2.5-flash", "-p", PROMPT],
      cwd: box.project,
      env: {
        ...baseEnvironment(box.home),
        GEMINI_API_KEY: "fake-key",
        GOOGLE_GEMINI_BASE_URL: url,
        GEMINI_CLI_TRUST_WORKSPACE: "true",
      },
    });
    expect(run.timedOut).toBe(false);
    writeLog("gemini", scenario, run);
  });
}

function recordQwen(scenario: Scenario): Promise<void> {
  return withModel(scenario, "qwen", async (box, url) => {
    mkdirSync(join(box.home, ".qwen"), { recursive: true });
    writeFileSync(
      join(box.home, ".qwen", "settings.json"),
      JSON.stringify({
        permissions: { deny: ["Bash(rm *)"] },
        memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false, enableAutoSkill: false },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        general: { disableAutoUpdate: true, disableUpdateNag: true },
      }),
    );
    const run = await runHost({
      command: bin("qwen"),
      args: ["--auth-type", "openai", "--approval-mode", "yolo", "-p", PROMPT],
      cwd: box.project,
      env: {
        ...baseEnvironment(box.home),
        OPENAI_BASE_URL: `${url}/v1`,
        OPENAI_API_KEY: "fake-key",
        OPENAI_MODEL: "fake-model",
      },
    });
    expect(run.timedOut).toBe(false);
    writeLog("qwen", scenario, run);
  });
}

const RECORDERS = { "claude-code": recordClaude, codex: recordCodex, gemini: recordGemini, qwen: recordQwen };
const only = process.env.TOOLGATE_RECORD_HOSTS?.split(",");

describe.skipIf(!recording)("record plain text logs from the real hosts", () => {
  for (const [host, record] of Object.entries(RECORDERS)) {
    if (only !== undefined && !only.includes(host)) continue;
    for (const scenario of Object.keys(SCENARIOS) as Scenario[]) {
      test(`${host} ${scenario} text`, () => record(scenario), 300_000);
    }
  }
});
