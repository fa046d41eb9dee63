import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { temporaryDirectory } from "../../support/temporary-directory.js";
import type { FakeOpenAI } from "../opencode/fake-openai.js";

/**
 * Runs the real `kilo run --auto --format json` (Kilo CLI, pinned in test/e2e/package.json) once against the
 * scripted Chat Completions server, offline: a fresh HOME, the project's kilo.json naming the server as an
 * OpenAI-compatible provider, the models fetch, auto-update and sharing off, the npm registry pointed at a closed
 * loopback port, stdin closed and a timeout.
 */
export const TOOLGATE_CLI = resolve("dist/cli/main.js");

/** The platform binary `@kilocode/cli` installs as an optional dependency (its own postinstall may not have run). */
export function kiloBinary(): string {
  const require = createRequire(createRequire(import.meta.url).resolve("@kilocode/cli/package.json"));
  const candidates = [`linux-${process.arch}`, `linux-${process.arch}-baseline`, `linux-${process.arch}-musl`];
  for (const name of candidates) {
    try {
      const file = join(dirname(require.resolve(`@kilocode/cli-${name}/package.json`)), "bin", "kilo");
      if (existsSync(file)) return file;
    } catch {
      // not installed for this platform; try the next one
    }
  }
  throw new Error(
    `No Kilo platform binary found (looked for @kilocode/cli-{${candidates.join(",")}}): run npm run e2e:deps`,
  );
}

export interface KiloRunOptions {
  fake: FakeOpenAI;
  prompt?: string;
  /** Kilo's `permission` config */
  permission?: unknown;
  files?: Record<string, string>;
  /** `toolgate install kilo --project` first */
  install?: boolean;
  underRun?: boolean;
  env?: Record<string, string>;
  timeoutMs?: number;
}

export interface KiloRunResult {
  exitCode: number | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  projectDir: string;
  database: string;
}

export function kiloEnvironment(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {};
  for (const name of ["PATH", "LANG", "TZ"]) if (process.env[name]) environment[name] = process.env[name];
  // Kilo (a Bun binary) unpacks native libraries into TMPDIR: a folder beside its home, removed with the test's
  const temporary = join(home, "..", "tmp");
  mkdirSync(temporary, { recursive: true });
  return {
    ...environment,
    TMPDIR: temporary,
    HOME: home,
    KILO_DISABLE_MODELS_FETCH: "1",
    KILO_DISABLE_AUTOUPDATE: "1",
    KILO_DISABLE_SHARE: "1",
    npm_config_registry: "http://127.0.0.1:9/",
    NO_COLOR: "1",
    ...extra,
  };
}

export async function runKilo(options: KiloRunOptions): Promise<KiloRunResult> {
  const root = temporaryDirectory("toolgate-kilo-");
  const home = join(root, "home");
  const projectDir = join(root, "project");
  const database = join(root, "toolgate.db");
  mkdirSync(home, { recursive: true });
  mkdirSync(projectDir, { recursive: true });
  const config = {
    autoupdate: false,
    share: "disabled",
    provider: {
      fake: {
        npm: "@ai-sdk/openai-compatible",
        name: "Fake LLM",
        options: { baseURL: options.fake.baseUrl, apiKey: "fake-key" },
        models: { "fake-model": { name: "Fake model", tool_call: true, limit: { context: 100000, output: 4000 } } },
      },
    },
    model: "fake/fake-model",
    small_model: "fake/fake-model",
    ...(options.permission === undefined ? {} : { permission: options.permission }),
  };
  writeFileSync(join(projectDir, "kilo.json"), `${JSON.stringify(config, null, 2)}\n`);
  for (const [file, content] of Object.entries(options.files ?? {})) {
    mkdirSync(dirname(join(projectDir, file)), { recursive: true });
    writeFileSync(join(projectDir, file), content);
  }
  const env = kiloEnvironment(home, { TOOLGATE_DB: database, ...options.env });
  if (options.install === true) {
    const installed = spawnSync(process.execPath, [TOOLGATE_CLI, "install", "kilo", "--project"], {
      cwd: projectDir,
      env,
      encoding: "utf8",
    });
    if (installed.status !== 0) throw new Error(`toolgate install kilo failed: ${installed.stderr}`);
  }
  const kilo = [kiloBinary(), "run", "--auto", "--format", "json", "--model", "fake/fake-model"];
  const prompt = options.prompt ?? "Please clean up the project";
  const command =
    options.underRun === true ? [process.execPath, TOOLGATE_CLI, "run", "--", ...kilo, prompt] : [...kilo, prompt];
  const [file, ...args] = command as [string, ...string[]];
  const child = spawn(file, args, { cwd: projectDir, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, options.timeoutMs ?? 200_000);
  const exitCode = await new Promise<number | null>((done) => child.on("close", (code) => done(code)));
  clearTimeout(timer);
  return { exitCode, timedOut, stdout, stderr, projectDir, database };
}
