import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { temporaryDirectory } from "../../support/temporary-directory.js";
import type { FakeOpenAI } from "./fake-openai.js";
import { opencodeBinary } from "./opencode-binary.js";

/**
 * Runs the real `opencode run` once against the fake model, offline: a fresh HOME, the `@opencode-ai/plugin`
 * dependency pre-installed into the config directory (linked from this repo's node_modules, so opencode never waits
 * on an npm install), the npm registry pointed at a closed loopback port, the models.dev fetch disabled, stdin closed
 * and a timeout.
 */

export interface OpencodeRunOptions {
  fake: FakeOpenAI;
  prompt: string;
  /** opencode `permission` config */
  permission?: unknown;
  experimental?: Record<string, unknown>;
  /** absolute paths of plugin modules, loaded through `plugin: ["file://..."]` */
  plugins?: string[];
  /** files to create in the project directory (relative path -> content) */
  files?: Record<string, string>;
  env?: Record<string, string>;
  /** extra arguments after `run` */
  args?: string[];
  /** wrap the opencode command, e.g. `["node", "dist/cli/main.js", "run", "--"]` */
  wrapper?: string[];
  timeoutMs?: number;
  /** runs after the project is written and before opencode starts (e.g. `toolgate install opencode`) */
  prepare?: (paths: { projectDir: string; home: string }) => void;
  /** reuse a project directory (and its HOME) from an earlier run */
  reuse?: { projectDir: string; home: string };
}

export interface OpencodeRunResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  projectDir: string;
  home: string;
  durationMs: number;
}

/** Link `@opencode-ai/plugin` and its dependencies from this repo into `<configDir>/node_modules`. */
export function preinstallPluginDependency(configDir: string): void {
  const pluginDir = findPackage("@opencode-ai/plugin", fileURLToPath(import.meta.url));
  const { version } = JSON.parse(readFileSync(join(pluginDir, "package.json"), "utf8")) as { version: string };
  mkdirSync(join(configDir, "node_modules", "@opencode-ai"), { recursive: true });
  const dependencies = { "@opencode-ai/plugin": version };
  writeFileSync(join(configDir, "package.json"), JSON.stringify({ dependencies }));
  // opencode 1.18.33 (Npm.install) skips its install when node_modules exists and every dependency in package.json
  // is listed in package-lock.json's root package; otherwise it runs an npm install against the registry.
  writeFileSync(
    join(configDir, "package-lock.json"),
    JSON.stringify({ lockfileVersion: 3, requires: true, packages: { "": { dependencies } } }),
  );
  const link = (name: string, from: string) =>
    symlinkSync(realpathSync(from), join(configDir, "node_modules", ...name.split("/")), "dir");
  link("@opencode-ai/plugin", pluginDir);
  link("@opencode-ai/sdk", findPackage("@opencode-ai/sdk", join(pluginDir, "package.json")));
}

/** The directory of package `name` as Node would find it from `fromFile` (these packages hide package.json). */
function findPackage(name: string, fromFile: string): string {
  const lookup = createRequire(fromFile).resolve.paths(name) ?? [];
  const found = lookup
    .map((directory) => join(directory, name))
    .find((directory) => existsSync(join(directory, "package.json")));
  if (!found) throw new Error(`${name} is not installed; run \`npm ci\`.`);
  return found;
}

export function opencodeConfig(options: OpencodeRunOptions): Record<string, unknown> {
  return {
    $schema: "https://opencode.ai/config.json",
    autoupdate: false,
    share: "disabled",
    ...(options.plugins?.length ? { plugin: options.plugins.map((file) => pathToFileURL(file).href) } : {}),
    provider: {
      fake: {
        npm: "@ai-sdk/openai-compatible",
        name: "Fake LLM",
        options: { baseURL: options.fake.baseUrl, apiKey: "fake-key" },
        models: {
          "fake-model": { name: "Fake model", tool_call: true, limit: { context: 100000, output: 4000 } },
        },
      },
    },
    model: "fake/fake-model",
    small_model: "fake/fake-model",
    ...(options.permission === undefined ? {} : { permission: options.permission }),
    ...(options.experimental ? { experimental: options.experimental } : {}),
  };
}

export function prepareProject(options: OpencodeRunOptions): { projectDir: string; home: string } {
  if (options.reuse) {
    writeFileSync(join(options.reuse.projectDir, "opencode.json"), JSON.stringify(opencodeConfig(options), null, 2));
    return options.reuse;
  }
  const root = temporaryDirectory("toolgate-opencode-");
  const home = join(root, "home");
  const projectDir = join(root, "project");
  mkdirSync(projectDir, { recursive: true });
  preinstallPluginDependency(join(home, ".config", "opencode"));
  writeFileSync(join(projectDir, "opencode.json"), JSON.stringify(opencodeConfig(options), null, 2));
  for (const [file, content] of Object.entries(options.files ?? {})) {
    mkdirSync(dirname(join(projectDir, file)), { recursive: true });
    writeFileSync(join(projectDir, file), content);
  }
  return { projectDir, home };
}

export function opencodeEnvironment(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {};
  for (const name of ["PATH", "LANG", "TZ"]) if (process.env[name]) environment[name] = process.env[name];
  // opencode (a Bun binary) unpacks native libraries into TMPDIR: a folder beside its home, removed with the test's
  const temporary = join(home, "..", "tmp");
  mkdirSync(temporary, { recursive: true });
  return {
    ...environment,
    TMPDIR: temporary,
    HOME: home,
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_SHARE: "1",
    // nothing may reach the public registry; a closed loopback port fails fast
    npm_config_registry: "http://127.0.0.1:9/",
    NO_COLOR: "1",
    ...extra,
  };
}

export async function runOpencode(options: OpencodeRunOptions): Promise<OpencodeRunResult> {
  const { projectDir, home } = prepareProject(options);
  options.prepare?.({ projectDir, home });
  const command = [
    ...(options.wrapper ?? []),
    opencodeBinary(),
    "run",
    "--model",
    "fake/fake-model",
    ...(options.args ?? []),
    options.prompt,
  ];
  const started = performance.now();
  const [file, ...args] = command as [string, ...string[]];
  const child = spawn(file, args, {
    cwd: projectDir,
    env: opencodeEnvironment(home, options.env),
    stdio: ["ignore", "pipe", "pipe"],
  });
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
  }, options.timeoutMs ?? 150_000);
  const [exitCode, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on("close", (code, closeSignal) => resolve([code, closeSignal])),
  );
  clearTimeout(timer);
  return {
    exitCode,
    signal,
    timedOut,
    stdout,
    stderr,
    projectDir,
    home,
    durationMs: Math.round(performance.now() - started),
  };
}

export interface OpencodeServer {
  url: string;
  projectDir: string;
  home: string;
  stderr(): string;
  /** a user message in `sessionId`; resolves when the agent finished the turn */
  prompt(sessionId: string, text: string): Promise<unknown>;
  createSession(): Promise<string>;
  close(): Promise<void>;
}

/** `opencode serve` on an ephemeral loopback port: several user messages in one process (one plugin instance). */
export async function serveOpencode(options: Omit<OpencodeRunOptions, "prompt">): Promise<OpencodeServer> {
  const { projectDir, home } = prepareProject({ ...options, prompt: "" });
  const child = spawn(opencodeBinary(), ["serve", "--port", "0", "--hostname", "127.0.0.1"], {
    cwd: projectDir,
    env: opencodeEnvironment(home, options.env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`opencode serve did not start: ${stdout}${stderr}`)), 30_000);
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
      const found = /http:\/\/127\.0\.0\.1:\d+/.exec(stdout);
      if (found) {
        clearTimeout(timer);
        resolve(found[0]);
      }
    });
    child.on("close", () => reject(new Error(`opencode serve exited: ${stdout}${stderr}`)));
  });
  const call = async (path: string, body: unknown) => {
    const response = await fetch(`${url}${path}?directory=${encodeURIComponent(projectDir)}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<unknown>;
  };
  return {
    url,
    projectDir,
    home,
    stderr: () => stderr,
    createSession: async () => ((await call("/session", {})) as { id: string }).id,
    prompt: (sessionId, text) =>
      call(`/session/${sessionId}/message`, {
        model: { providerID: "fake", modelID: "fake-model" },
        parts: [{ type: "text", text }],
      }),
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("close", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
      }),
  };
}
