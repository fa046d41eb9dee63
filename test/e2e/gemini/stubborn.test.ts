/**
 * The stubborn model against a Gemini CLI policy deny, with the real Gemini CLI 0.61.0 binary and a scripted Gemini
 * API server on 127.0.0.1. Without toolgate every retry is denied and `gemini -p` exits 0; with toolgate's hooks
 * installed (`toolgate install gemini --user`), `toolgate run` stops the run at the threshold with exit 6, and the
 * model's requests carry toolgate's guidance instead of Gemini's bare "denied by policy".
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, removeSnapshot, runToolgate } from "../claude/toolgate-cli.js";
import { type FakeGemini, startFakeGemini } from "./fake-gemini.js";
import {
  createGeminiWorkspace,
  type GeminiWorkspace,
  installedHooks,
  rmPolicy,
  runGemini,
} from "./gemini-workspace.js";

/**
 * A stubborn model varies its command: Gemini CLI's own loop detector stops a run that repeats one identical call
 * (measured: the 5th identical call is not run, "Loop detected, stopping execution", exit 0), but not variants.
 */
const VARIANTS = [
  "rm -rf victim",
  "rm -rf ./victim",
  "rm -r victim",
  "rm -rf victim/",
  "rm -fr victim",
  "rm -rf -- victim",
  "rm -r -f victim",
  "rm -rf ./victim/",
];
const RETRIES = VARIANTS.length;
const STUBBORN = VARIANTS.map((command) => ({ command }));
const TIMEOUT = { timeout: 180_000 };

/** `GEMINI_E2E_FIGURES=1`: one line per scenario with the figures BENCHMARKS.md reports. */
function figures(scenario: string, fake: FakeGemini, run: { exitCode: number | null; durationMs: number }): void {
  if (process.env["GEMINI_E2E_FIGURES"] !== "1") return;
  process.stdout.write(
    `figures ${scenario}: calls served ${fake.served.length}, tool results sent back ${fake.toolResults().length}, model requests ${fake.requests()}, exit ${run.exitCode}, wall ${Math.round(run.durationMs)} ms\n`,
  );
}

describe("Gemini CLI 0.61.0, a stubborn model and a policy deny", () => {
  const workspaces: GeminiWorkspace[] = [];
  const fakes: FakeGemini[] = [];
  beforeAll(() => assertBuilt());
  afterAll(async () => {
    removeSnapshot();
    for (const fake of fakes) await fake.close();
    for (const workspace of workspaces) workspace.remove();
  });

  it(
    "without toolgate: every call is denied by the policy, the model keeps retrying, and gemini exits 0",
    TIMEOUT,
    async () => {
      const workspace = createGeminiWorkspace({ policy: rmPolicy("deny") });
      workspaces.push(workspace);
      const fake = await startFakeGemini({ steps: STUBBORN });
      fakes.push(fake);
      const started = performance.now();
      const run = await runGemini({ workspace, url: fake.url });
      figures("without toolgate, varied retries", fake, {
        exitCode: run.exitCode,
        durationMs: performance.now() - started,
      });
      expect(run.timedOut).toBe(false);
      expect(run.exitCode).toBe(0);
      expect(fake.served).toHaveLength(RETRIES);
      expect(fake.toolResults().map((result) => result.response["error"])).toEqual(
        Array.from({ length: RETRIES }, () => "Tool execution denied by policy."),
      );
      expect(existsSync(join(workspace.project, "victim", "keep.txt"))).toBe(true);
    },
  );

  it(
    "without toolgate, identical retries: Gemini's own loop detector ends the run, still with exit 0",
    TIMEOUT,
    async () => {
      const workspace = createGeminiWorkspace({ policy: rmPolicy("deny") });
      workspaces.push(workspace);
      const fake = await startFakeGemini({ steps: VARIANTS.map(() => ({ command: "rm -rf victim" })) });
      fakes.push(fake);
      const started = performance.now();
      const run = await runGemini({ workspace, url: fake.url });
      figures("without toolgate, identical retries", fake, {
        exitCode: run.exitCode,
        durationMs: performance.now() - started,
      });
      expect(run.exitCode).toBe(0);
      expect(
        run.events.some((event) => event["type"] === "error" && /Loop detected/.test(String(event["message"]))),
      ).toBe(true);
      expect(fake.toolResults().length).toBeLessThan(RETRIES);
    },
  );

  it(
    "with toolgate: guidance in the model's requests, stopped at the threshold, toolgate run exits 6",
    TIMEOUT,
    async () => {
      const workspace = createGeminiWorkspace({ policy: rmPolicy("deny") });
      workspaces.push(workspace);
      const env = { HOME: workspace.home, TOOLGATE_DB: join(workspace.root, "toolgate.db") };
      const install = runToolgate({ args: ["install", "gemini", "--user"], cwd: workspace.project, env });
      expect(install.exitCode, install.stderr).toBe(0);
      expect(Object.keys(installedHooks(workspace))).toContain("BeforeTool");
      const fake = await startFakeGemini({ steps: STUBBORN });
      fakes.push(fake);
      const started = performance.now();
      const run = await runGemini({ workspace, url: fake.url, underToolgateRun: true });
      figures("with toolgate (toolgate run)", fake, {
        exitCode: run.exitCode,
        durationMs: performance.now() - started,
      });
      expect(run.timedOut).toBe(false);
      expect(run.exitCode, run.stderr).toBe(6);
      expect(run.stderr).toContain("toolgate aborted the run");
      // fewer calls than the model would have made: the run ended at the threshold
      expect(fake.served.length).toBeGreaterThan(1);
      expect(fake.served.length).toBeLessThan(RETRIES);
      const errors = fake.toolResults().map((result) => String(result.response["error"]));
      expect(errors.length).toBeGreaterThan(0);
      for (const error of errors) expect(error).toMatch(/^Tool execution blocked: \[toolgate\] .*Bash\(rm \*\)/);
      // the last call was answered with continue: false; Gemini ended the run there
      const results = run.events.filter((event) => event["type"] === "tool_result");
      expect((results.at(-1)?.["error"] as { type?: string } | undefined)?.type).toBe("stop_execution");
      expect(existsSync(join(workspace.project, "victim", "keep.txt"))).toBe(true);
      // every denied call is in the store once
      const report = runToolgate({
        args: ["report", "--json", "--session", String(run.sessionId)],
        cwd: workspace.project,
        env,
      });
      expect(report.exitCode, report.stderr).toBe(0);
      const stored = JSON.parse(report.stdout) as {
        total: number;
        figures: { wastedCalls: number; wastedTokens: number | null };
      };
      expect(stored.total).toBe(fake.served.length);
      // toolgate refused every call at BeforeTool (its id, not Gemini's): each wasted call's tokens are matched from
      // the session file's record of the refusal; the fake model spends 120 tokens a request
      expect(stored.figures.wastedCalls).toBe(fake.served.length - 1);
      expect(stored.figures.wastedTokens).toBe(stored.figures.wastedCalls * 120);
    },
  );
});
