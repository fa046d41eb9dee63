import { describe, expect, it } from "vitest";
import { createHookDispatcher, type HookOutcome } from "../../src/audit/hook-dispatcher.js";
import type { PermissionDeniedPayload } from "../../src/audit/record-payload.js";
import { secretCorpus } from "../support/redaction-corpus.mjs";

/**
 * Issue 12, class 3, hook outcomes: what the dispatcher reports about a hook goes to the logs, so it is redacted: the
 * hook's name when it comes from a command line or URL, the error (Node's fetch quotes a URL with credentials in
 * it), and what a failing hook printed. No network: the URL's credentials make fetch refuse before connecting.
 */

const corpus = secretCorpus(11);
const token = corpus.find((row) => row.kind === "github-token")?.secrets[0] as string;
const password = corpus.find((row) => row.kind === "url-password")?.secrets[0] as string;

const payload: PermissionDeniedPayload = {
  event: "permission_denied",
  session_id: "s",
  turn: 1,
  tool: "Bash",
  canonical_tool: "shell",
  tool_family: "shell",
  tool_use_id: "toolu_1",
  reason: "denied",
  input_summary: "ls",
  timestamp: new Date(0).toISOString(),
  source: "rule",
  signature: "Bash:0",
  rule: null,
  decision_reason_type: null,
  agent_id: null,
  parent_session_id: null,
  host: null,
  labels: {},
  tool_input: { command: "ls" },
  seq: 1,
  saved_call: false,
};

async function outcomesOf(hook: { command?: string; url?: string }): Promise<HookOutcome[]> {
  const outcomes: HookOutcome[] = [];
  const dispatcher = createHookDispatcher({
    hooks: [{ events: ["permission_denied"], timeoutMs: 10_000, retries: 0, ...hook }],
    onOutcome: (outcome) => outcomes.push(outcome),
  });
  await dispatcher.dispatch([payload]);
  return outcomes;
}

describe("hook outcomes carry no secret into the logs", () => {
  it("a webhook URL with credentials: the name and fetch's error are redacted", async () => {
    const outcomes = await outcomesOf({ url: `http://deploy:${password}@127.0.0.1:9/hook?token=${token}` });
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]?.ok).toBe(false);
    const text = JSON.stringify(outcomes);
    expect(text).toContain("credentials");
    expect(text).not.toContain(password);
    expect(text).not.toContain(token);
  });

  it("a command hook with a TOKEN= prefix that fails printing a secret: name, stdout and stderr are redacted", async () => {
    const outcomes = await outcomesOf({
      command: `HOOK_TOKEN=${token} sh -c 'cat > /dev/null; echo "using ${token}"; echo "token ${token} refused" >&2; exit 3'`,
    });
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]?.ok).toBe(false);
    expect(outcomes[0]?.stderr).toContain("refused");
    expect(JSON.stringify(outcomes)).not.toContain(token);
  });
});
