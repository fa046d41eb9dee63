import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { describe, expect, it } from "vitest";
import { createGuard } from "../../guard/create-guard.js";
import type { GuardSession } from "../../guard/types.js";
import { guardCanUseTool } from "./guard-can-use-tool.js";
import { observe, withPermissionDenials } from "./observe.js";
import { sessionGrantUpdate } from "./session-grant-update.js";

const stream = readFileSync(
  join(import.meta.dirname, "..", "..", "..", "test", "fixtures", "claude-code", "stream-denials.jsonl"),
  "utf8",
)
  .split("\n")
  .filter((line) => line !== "")
  .map((line) => JSON.parse(line) as SDKMessage);

async function* replay(messages: SDKMessage[]) {
  for (const message of messages) yield message;
}

describe("observe (recorded 2.1.330 stream)", () => {
  it("passes every message through unchanged and counts each denial once by tool_use_id", async () => {
    const warnings: string[] = [];
    const observed = observe(replay(stream), { warn: (event) => warnings.push(event.denial.tool_use_id) });
    const seen: SDKMessage[] = [];
    for await (const message of observed) seen.push(message);
    expect(seen).toEqual(stream);
    const report = observed.report();
    expect(report.denials.map((denial) => denial.tool_use_id)).toEqual([
      "toolu_main_002_0",
      "toolu_main_003_0",
      "toolu_main_004_0",
      "toolu_subagent_000_0",
    ]);
    expect(warnings).toHaveLength(4);
    const result = withPermissionDenials({ status: "done" }, report);
    expect(result.permissionDenialCount).toBe(4);
    expect(result.permissionDeniedTools).toEqual(["Bash", "Read"]);
    expect(result.status).toBe("done");
    expect(report.decisions.find((decision) => decision.tool_use_id === "toolu_main_000_0")?.decision).toBe("accept");
  });

  it("omits the list when nothing was denied, and redacts inputs", async () => {
    expect(withPermissionDenials({}, { denials: [], decisions: [] })).toEqual({
      permissionDenialCount: 0,
      permissionDeniedTools: [],
    });
    const secret = "ghp_Zx8Yw7Vu6Ts5Rq4Po3Nm2Lk1Jh0Gf9Ed8Cb7A";
    const result = {
      type: "result",
      subtype: "success",
      permission_denials: [
        { tool_name: "Bash", tool_use_id: "t1", tool_input: { command: `curl -H 'token ${secret}'` } },
      ],
    } as unknown as SDKMessage;
    const observed = observe(replay([result]), { warn: () => undefined });
    for await (const _ of observed) {
      // drain
    }
    expect(JSON.stringify(observed.report())).not.toContain(secret);
  });

  it("records stream-only denials in a guard session, once", async () => {
    const guard = createGuard({ onError: () => undefined });
    const session = guard.session("observe-1", { interactive: false });
    const observed = observe(replay([...stream, ...stream]), { session, warn: () => undefined });
    for await (const _ of observed) {
      // drain
    }
    expect((await session.state()).records).toHaveLength(4);
  });
});

describe("sessionGrantUpdate", () => {
  it("is one session-only allow rule of the grant's scope", () => {
    expect(
      sessionGrantUpdate({ tool: "Bash", kind: "prefix", rule: "Bash(npm run test *)", description: "npm run test" }),
    ).toEqual([
      {
        type: "addRules",
        rules: [{ toolName: "Bash", ruleContent: "npm run test *" }],
        behavior: "allow",
        destination: "session",
      },
    ]);
  });
});

describe("guardCanUseTool fails closed", () => {
  it("an internal error denies", async () => {
    const broken = {
      decide: () => Promise.reject(new Error("store down")),
    } as unknown as GuardSession;
    const canUseTool = guardCanUseTool(broken, { inner: async () => ({ behavior: "allow" }) });
    const write = process.stderr.write;
    process.stderr.write = () => true;
    try {
      const result = await canUseTool(
        "Bash",
        { command: "ls" },
        { signal: new AbortController().signal, toolUseID: "t1", requestId: "r1" },
      );
      expect(result?.behavior).toBe("deny");
    } finally {
      process.stderr.write = write;
    }
  });
});
