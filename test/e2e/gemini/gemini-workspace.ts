/**
 * A fresh, offline Gemini CLI 0.61.0 setup for one test: a temporary HOME with `~/.gemini/settings.json` (API-key
 * auth, usage statistics, telemetry, auto-update and memory off), an optional policy file, and a project with a
 * `victim/` directory and a script without its execute bit. Gemini runs with stdin closed, a hard timeout, only
 * loopback (its base URL is the scripted server) and nothing of this process's environment but PATH and locale.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { toolgateCommand } from "../claude/toolgate-cli.js";
import { baseEnvironment, runHost } from "../record-transcripts/run-host.js";

/** The pinned binary (test/e2e/package.json: @google/gemini-cli 0.61.0). */
export const GEMINI_BIN = join(import.meta.dirname, "..", "node_modules", ".bin", "gemini");
export const GEMINI_VERSION = "0.61.0";

/** Gemini CLI policy TOML: the shell offered headless, `rm` denied (or asked). */
export function rmPolicy(decision: "deny" | "ask_user"): string {
  return `[[rule]]\ntoolName = "run_shell_command"\ndecision = "allow"\npriority = 100\n\n[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "rm"\ndecision = "${decision}"\npriority = 200\n`;
}

export interface GeminiWorkspace {
  root: string;
  home: string;
  project: string;
  /** the settings toolgate installs into (`toolgate install gemini --user`) */
  settingsPath: string;
  env(url: string): Record<string, string>;
  remove(): void;
}

export function createGeminiWorkspace(options: { policy?: string } = {}): GeminiWorkspace {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "toolgate-e2e-gemini-")));
  const home = join(root, "home");
  const project = join(root, "project");
  mkdirSync(join(home, ".gemini", "policies"), { recursive: true });
  mkdirSync(join(project, "victim"), { recursive: true });
  writeFileSync(join(project, "victim", "keep.txt"), "keep\n");
  writeFileSync(join(project, "not-executable.sh"), "#!/bin/sh\necho hi\n", { mode: 0o644 });
  const settingsPath = join(home, ".gemini", "settings.json");
  writeFileSync(
    settingsPath,
    `${JSON.stringify(
      {
        security: { auth: { selectedType: "gemini-api-key" } },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
        experimental: { autoMemory: false },
      },
      null,
      2,
    )}\n`,
  );
  if (options.policy !== undefined) writeFileSync(join(home, ".gemini", "policies", "rm.toml"), options.policy);
  return {
    root,
    home,
    project,
    settingsPath,
    env: (url) => ({
      ...baseEnvironment(home),
      GEMINI_API_KEY: "fake-key",
      GOOGLE_GEMINI_BASE_URL: url,
      GEMINI_CLI_TRUST_WORKSPACE: "true",
      TOOLGATE_DB: join(root, "toolgate.db"),
    }),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** The hooks toolgate installed, as Gemini reads them. */
export function installedHooks(workspace: GeminiWorkspace): Record<string, unknown> {
  return (JSON.parse(readFileSync(workspace.settingsPath, "utf8")) as { hooks?: Record<string, unknown> }).hooks ?? {};
}

/** `gemini -m gemini-2.5-flash -o stream-json -p <prompt>`, optionally under `toolgate run`. */
export async function runGemini(options: {
  workspace: GeminiWorkspace;
  url: string;
  prompt?: string;
  underToolgateRun?: boolean;
  env?: Record<string, string>;
}) {
  const gemini = [
    GEMINI_BIN,
    "-m",
    "gemini-2.5-flash",
    "-o",
    "stream-json",
    "-p",
    options.prompt ?? "Please delete the victim dir",
  ];
  const argv =
    options.underToolgateRun === true ? [...toolgateCommand("run", "--"), ...gemini] : [process.execPath, ...gemini];
  const run = await runHost({
    command: argv[0] as string,
    args: argv.slice(1),
    cwd: options.workspace.project,
    env: { ...options.workspace.env(options.url), ...options.env },
    timeoutMs: 150_000,
  });
  const events = run.stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const sessionId = events.find((event) => event["type"] === "init")?.["session_id"] as string | undefined;
  return { ...run, events, sessionId };
}
