import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { temporaryDirectory } from "../../test/support/temporary-directory.js";
import { auditSchema } from "../config/audit-schema.js";
import { createHookDispatcher } from "./hook-dispatcher.js";
import type { PermissionDeniedPayload } from "./record-payload.js";

const denial = (toolUseId: string, seq: number): PermissionDeniedPayload => ({
  event: "permission_denied",
  session_id: "s1",
  turn: 1,
  tool: "Bash",
  canonical_tool: "shell",
  tool_family: "shell",
  tool_use_id: toolUseId,
  reason: "denied by rule",
  input_summary: "rm -rf build",
  timestamp: "2026-11-22T09:00:01.000Z",
  source: "rule",
  signature: "sig",
  rule: "Bash(rm *)",
  decision_reason_type: null,
  agent_id: null,
  parent_session_id: null,
  host: "claude-code",
  labels: {},
  tool_input: { command: "rm -rf build" },
  seq,
  saved_call: false,
});

describe("hook delivery is at least once, and every payload says which delivery it repeats", () => {
  it("a command hook that did its work but failed gets the same payload again, with the same idempotency_key", async () => {
    const root = temporaryDirectory("toolgate-dispatcher-");
    const out = join(root, "out.jsonl");
    // appends the payload, then fails the first time it runs: the receiver got it, toolgate saw a failure
    const command = `cat >> '${out}'; test -e '${root}/seen' || { touch '${root}/seen'; exit 1; }`;
    const dispatcher = createHookDispatcher({
      hooks: auditSchema.parse({ hooks: [{ command }] }).hooks,
      spoolDirectory: join(root, "spool"),
    });
    expect(await dispatcher.dispatch([denial("toolu_1", 1), denial("toolu_2", 2)])).toEqual({
      delivered: 0,
      failed: 2,
    });
    expect(await dispatcher.retryPending()).toEqual({ delivered: 2, failed: 0 });
    const lines = readFileSync(out, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { tool_use_id: string; idempotency_key?: string });
    // toolu_1 twice (its first run counted as failed), toolu_2 once (it waited behind the failure)
    expect(lines.map((line) => line.tool_use_id)).toEqual(["toolu_1", "toolu_1", "toolu_2"]);
    expect(lines.map((line) => line.idempotency_key)).toEqual(["toolu_1", "toolu_1", "toolu_2"]);
    expect(new Set(lines.map((line) => line.idempotency_key)).size).toBe(2);
  });
});
