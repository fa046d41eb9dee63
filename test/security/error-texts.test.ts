import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateText, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { createAuditLogger } from "../../src/audit/audit-logger.js";
import { createGuard } from "../../src/guard/create-guard.js";
import { errorText } from "../../src/guard/error-text.js";
import { failClosed, failClosedText } from "../../src/guard/fail-closed.js";
import type { GuardSession } from "../../src/guard/types.js";
import { HOOK_HOST_NAMES, hookHostLoader } from "../../src/hook-runtime/hook-hosts.js";
import { runHook } from "../../src/hook-runtime/run-hook.js";
import { guardTools } from "../../src/hosts/ai-sdk/guard-tools.js";
import { guardCanUseTool } from "../../src/hosts/claude-agent-sdk/guard-can-use-tool.js";
import { secretCorpus } from "../support/redaction-corpus.mjs";

/**
 * Issue 25, item 6, as a class: every error text toolgate logs, stores or shows passes through redaction. An error
 * that quotes a secret (a decider's `OPA unreachable (token ...)`, a store's connection string whose password
 * breaks the URL grammar) is thrown at each place an error message leaves toolgate: the fail-closed text every
 * adapter renders, every hook host's fail-closed answer and the hook runner's log line, the guard's default onError
 * (stderr) and its record, the AI SDK wrapper, the Agent SDK's canUseTool, and the audit logger.
 */

const corpus = secretCorpus(25);
const token = corpus.find((row) => row.kind === "github-token")?.secrets[0] as string;
const password = "6#Jeq/Zr9wKp3m";
const SECRETS = [token, password];
const message = `OPA unreachable (token ${token}); store postgres://admin:${password}@db.internal:5432/app refused`;

const roots: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function leaks(text: string): string[] {
  return SECRETS.filter((secret) => text.includes(secret));
}

/** What toolgate writes to stderr while `run` runs. */
async function stderrOf(run: () => Promise<unknown>): Promise<string> {
  const written: string[] = [];
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  try {
    await run();
  } finally {
    vi.restoreAllMocks();
  }
  return written.join("");
}

const broken = (): GuardSession =>
  ({
    decide: () => Promise.reject(new Error(message)),
    denied: () => Promise.reject(new Error(message)),
    state: () => Promise.reject(new Error(message)),
    recordedCallIds: () => Promise.reject(new Error(message)),
  }) as unknown as GuardSession;

describe("no error text carries a secret out of toolgate", () => {
  it("errorText, failClosedText and failClosed redact", () => {
    for (const text of [errorText(new Error(message)), errorText(message), failClosedText(new Error(message), "x")]) {
      expect(leaks(text)).toEqual([]);
      expect(text).toContain("[REDACTED:");
    }
    expect(leaks(failClosed(new Error(message), "decide").reason)).toEqual([]);
  });

  for (const name of HOOK_HOST_NAMES) {
    it(`${name}: the fail-closed answer and the hook runner's log line`, async () => {
      const load = hookHostLoader(name);
      if (load === undefined) throw new Error(`no hook host ${name}`);
      const host = await load();
      for (const eventName of ["PreToolUse", "BeforeTool", "PermissionRequest", undefined]) {
        expect(leaks(JSON.stringify(host.failClosed({ eventName, reason: message })))).toEqual([]);
      }
      const home = mkdtempSync(join(tmpdir(), "toolgate-error-texts-"));
      roots.push(home);
      const logged: string[] = [];
      const answer = await runHook(
        {
          ...host,
          parse: () => ({}),
          eventName: () => "PreToolUse",
          sessionId: () => "s",
          projectDir: () => undefined,
          handle: () => Promise.reject(new Error(message)),
        },
        {
          stdinText: JSON.stringify({ hook_event_name: "PreToolUse" }),
          env: { HOME: home, TOOLGATE_DB: "off" },
          onError: (line) => logged.push(line),
        },
      );
      expect(logged.length).toBeGreaterThan(0);
      expect(leaks(JSON.stringify(answer) + logged.join("\n"))).toEqual([]);
    });
  }

  it("the guard: a policy that throws is refused; the decision, the record and stderr are redacted", async () => {
    const guard = createGuard({
      policy: {
        evaluate: () => {
          throw new Error(message);
        },
      },
    });
    const session = guard.session("s", { interactive: false });
    let result: Awaited<ReturnType<GuardSession["decide"]>> | undefined;
    const stderr = await stderrOf(async () => {
      result = await session.decide({ toolUseId: "t1", tool: "Bash", input: { command: "ls" } });
    });
    expect(result?.decision.behavior).toBe("deny");
    expect(stderr).toContain("toolgate: decide: OPA unreachable");
    expect(leaks(stderr + JSON.stringify(result) + JSON.stringify(await session.state()))).toEqual([]);
  });

  it("the AI SDK wrapper: a throwing decider and a failing approval answer", async () => {
    const session = createGuard({ onError: () => undefined }).session("ai", { interactive: true });
    const guarded = guardTools(
      { sh: tool({ inputSchema: z.object({ command: z.string() }), execute: async () => "ran" }) },
      {
        session,
        decider: () => {
          throw new Error(message);
        },
      },
    );
    let calls = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        calls += 1;
        return {
          content:
            calls === 1
              ? [{ type: "tool-call", toolCallId: "c1", toolName: "sh", input: JSON.stringify({ command: "ls" }) }]
              : [{ type: "text", text: "done" }],
          finishReason: { unified: calls === 1 ? "tool-calls" : "stop", raw: undefined },
          usage: {
            inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
            outputTokens: { total: 1, text: 1, reasoning: undefined },
          },
          warnings: [],
        };
      },
    });
    let shown = "";
    const stderr = await stderrOf(async () => {
      const result = await generateText({ model, tools: guarded.tools, stopWhen: stepCountIs(3), prompt: "go" });
      shown = JSON.stringify(
        result.steps.map((step) => step.content),
        (_, value) => (value instanceof Error ? value.message : value),
      );
    });
    expect(shown).toContain("OPA unreachable");
    expect(leaks(shown + stderr + JSON.stringify(await session.state()))).toEqual([]);

    const failing = guardTools({}, { session: broken() });
    let response: unknown;
    const approvalStderr = await stderrOf(async () => {
      response = await failing.answerApproval(
        { approvalId: "a1", toolCall: { toolCallId: "c2", toolName: "sh", input: {} } },
        { approved: false },
      );
    });
    expect(leaks(JSON.stringify(response) + approvalStderr)).toEqual([]);
  });

  it("the Agent SDK's canUseTool: a session that cannot decide", async () => {
    const canUseTool = guardCanUseTool(broken());
    let result: unknown;
    const stderr = await stderrOf(async () => {
      result = await canUseTool("Bash", { command: "ls" }, {
        signal: new AbortController().signal,
        toolUseID: "t1",
      } as never);
    });
    expect(JSON.stringify(result)).toContain('"behavior":"deny"');
    expect(leaks(JSON.stringify(result) + stderr)).toEqual([]);
  });

  it("the audit logger: a failing hook's error and stderr", () => {
    const lines: string[] = [];
    const logger = createAuditLogger({
      logger: {
        warn: (fields: unknown, text?: string) => lines.push(JSON.stringify(fields) + (text ?? "")),
        debug: () => undefined,
      } as never,
    });
    logger.hookOutcome({
      ok: false,
      hook: "notify",
      event: "permission_denied",
      key: "k",
      error: message,
      stderr: message,
      durationMs: 1,
    } as never);
    expect(lines.join("")).toContain("OPA unreachable");
    expect(leaks(lines.join(""))).toEqual([]);
  });
});
