/**
 * Issue 12, class 4: a sink that hangs never holds the gating answer. A webhook on 127.0.0.1 accepts the request and
 * never answers (its timeout set far beyond the host's own hook timeout): the hook writes its deny at once, exits
 * after its drain budget, and keeps the undelivered delivery in the hook spool, which the next event delivers. A
 * command hook that hangs is killed when the hook process exits (no orphan), its delivery kept the same way.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOOK_DRAIN_BUDGET_MS } from "../../src/hook-runtime/hook-budgets.js";
import { assertBuilt, removeSnapshot } from "../e2e/claude/toolgate-cli.js";
import { processRunning } from "../support/process-running.js";
import { cliCommand, hookEntryCommand, spawnHook } from "./spawn-hook.js";

let root: string;
let server: Server;
let answering = false;
const received: string[] = [];

beforeAll(async () => {
  assertBuilt();
  root = mkdtempSync(join(tmpdir(), "toolgate-answer-first-"));
  server = createServer((request: IncomingMessage, response: ServerResponse) => {
    received.push(String(request.headers["idempotency-key"]));
    request.resume();
    if (answering) response.end("ok"); // else: accepted, never answered
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(root, { recursive: true, force: true });
  removeSnapshot();
});

function workspace(name: string, hook?: Record<string, unknown>) {
  const project = join(root, name, "project");
  const home = join(root, name, "home");
  mkdirSync(join(project, ".claude"), { recursive: true });
  mkdirSync(home, { recursive: true });
  writeFileSync(join(project, ".claude", "settings.json"), JSON.stringify({ permissions: { deny: ["Bash(rm:*)"] } }));
  const { port } = server.address() as AddressInfo;
  // the first Bash denial escalates, and escalation.reached goes to the webhook: a delivery in the gating event
  writeFileSync(
    join(project, "toolgate.config.json"),
    JSON.stringify({
      escalation: { thresholds: [{ tool: "Bash", threshold: 1 }] },
      audit: {
        logs: { destination: "off" },
        hooks: [
          hook ?? {
            url: `http://127.0.0.1:${port}/hook`,
            events: ["escalation.reached"],
            timeoutMs: 120_000,
            retries: 0,
          },
        ],
      },
    }),
  );
  const env = { PATH: process.env["PATH"], HOME: home, CLAUDE_CODE_SESSION_ATTENDED: "0" };
  const spool = join(home, ".toolgate", "spool", "hooks");
  const spooled = () =>
    existsSync(spool)
      ? readdirSync(spool)
          .filter((file) => file.endsWith(".jsonl"))
          .flatMap((file) => readFileSync(join(spool, file), "utf8").trim().split("\n"))
      : [];
  return { project, env, spooled };
}

const denied = (project: string, session: string, id: string) =>
  JSON.stringify({
    hook_event_name: "PreToolUse",
    session_id: session,
    cwd: project,
    permission_mode: "default",
    tool_name: "Bash",
    tool_input: { command: "rm -rf build" },
    tool_use_id: id,
  });

describe.each([
  ["the bundled hook entry", hookEntryCommand],
  ["toolgate hook (the CLI)", cliCommand],
])("%s with a webhook that never answers", (name, command) => {
  it("answers at once, exits after its drain budget, and keeps the delivery for the next event", {
    timeout: 180_000,
  }, async () => {
    const { project, env, spooled } = workspace(name.replace(/\W+/g, "-"));
    answering = false;
    received.length = 0;
    const run = await spawnHook({
      argv: [...command(), "hook", "claude-code"],
      input: denied(project, "s1", "toolu_1"),
      cwd: project,
      env,
    });
    expect(run.exitCode).toBe(0);
    expect(JSON.parse(run.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
    expect(received).toHaveLength(1); // the webhook got the request, and never answered
    // the answer did not wait for the webhook: the process wrote it, waited its drain budget (it says so on stderr
    // once the budget is over), and exited long before the webhook's 120 s timeout (a generous bound: the machine
    // may be loaded; a hook that waits for the webhook takes over 120 s)
    expect(run.stderr).toContain(`deliveries still under way ${HOOK_DRAIN_BUDGET_MS} ms after the answer; exiting`);
    expect(run.exitedAfterMs).toBeLessThan(60_000);
    const kept = spooled();
    expect(kept).toHaveLength(1);
    expect(kept[0]).toContain('"event":"escalation.reached"');

    // the receiver is back: the next event's dispatch delivers the kept one first (same idempotency key)
    answering = true;
    const next = await spawnHook({
      argv: [...command(), "hook", "claude-code"],
      input: denied(project, "s2", "toolu_2"),
      cwd: project,
      env,
    });
    expect(next.exitCode).toBe(0);
    expect(received.slice(1)).toContain(received[0]);
    expect(spooled()).toEqual([]);
  });
});

describe("the bundled hook entry with a command hook that never ends", () => {
  it("answers at once, kills the command hook's process group when it exits, and keeps the delivery", {
    timeout: 180_000,
  }, async () => {
    const pidFile = join(root, "command-hook.pid");
    const { project, env, spooled } = workspace("command-hook", {
      command: `echo $$ > ${JSON.stringify(pidFile)}; exec sleep 600`,
      events: ["escalation.reached"],
      timeoutMs: 120_000,
    });
    const run = await spawnHook({
      argv: [...hookEntryCommand(), "hook", "claude-code"],
      input: denied(project, "c1", "toolu_c1"),
      cwd: project,
      env,
    });
    expect(run.exitCode).toBe(0);
    expect(JSON.parse(run.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
    expect(run.stderr).toContain(`deliveries still under way ${HOOK_DRAIN_BUDGET_MS} ms after the answer; exiting`);
    expect(run.exitedAfterMs).toBeLessThan(60_000);
    const pid = Number(readFileSync(pidFile, "utf8").trim());
    expect(pid).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(processRunning(pid)).toBe(false);
    expect(spooled()).toHaveLength(1);
  });
});
