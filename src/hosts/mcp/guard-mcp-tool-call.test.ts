import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it, vi } from "vitest";
import { createGuard, type PolicyEvaluator } from "../../guard/create-guard.js";
import type { GuardSession } from "../../guard/types.js";
import type { PolicyDecision, ToolCallInput } from "../../policy/policy-types.js";
import { guardMcpToolCall } from "./guard-mcp-tool-call.js";

/** Denies write_file, asks for delete_file, leaves everything else to the host (an ask by default). */
const policy: PolicyEvaluator = {
  evaluate(call: ToolCallInput): PolicyDecision {
    if (call.tool === "mcp__fs__write_file") {
      return {
        behavior: "deny",
        source: "policy",
        rule: "mcp__fs__write_file",
        reason: "writes are denied",
        denialSource: "rule",
      };
    }
    if (call.tool === "mcp__fs__delete_file") {
      return { behavior: "ask", source: "policy", rule: "mcp__fs__delete_file", reason: "deleting needs approval" };
    }
    return { behavior: "ask", source: "default", reason: "needs approval" };
  },
};

const ok: CallToolResult = { content: [{ type: "text", text: "done" }] };
let number = 0;

function call(session: GuardSession, name: string, forward: () => Promise<CallToolResult>, extra = {}) {
  number += 1;
  return guardMcpToolCall({
    session,
    server: "fs",
    params: { name, arguments: { path: "/repo/a.txt" } },
    callId: `call-${number}`,
    forward,
    ...extra,
  });
}

describe("guardMcpToolCall", () => {
  it("returns an allowed call's result as the very object the server sent", async () => {
    const session = createGuard({ policy }).session("s1", { interactive: false });
    const forward = vi.fn(async () => ok);
    expect(await call(session, "read_file", forward)).toBe(ok);
    expect(forward).toHaveBeenCalledOnce();
  });

  it("refuses a denied call without calling the server, with toolgate's guidance", async () => {
    const session = createGuard({ policy }).session("s2", { interactive: false });
    const forward = vi.fn(async () => ok);
    const result = await call(session, "write_file", forward);
    expect(forward).not.toHaveBeenCalled();
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("mcp__fs__write_file");
  });

  it("counts a server's permission refusal and adds guidance after the server's own text", async () => {
    const session = createGuard({ policy }).session("s3", { interactive: false });
    const refusal: CallToolResult = {
      content: [{ type: "text", text: "Access denied - path outside allowed directories: /etc/x not in /repo" }],
      isError: true,
    };
    const result = await call(session, "read_file", async () => refusal);
    expect(result.content[0]).toEqual(refusal.content[0]);
    expect(result.content).toHaveLength(2);
    expect(JSON.stringify(result.content[1])).toContain("[toolgate]");
    const state = await session.state();
    expect(JSON.stringify(state)).toContain("mcp__fs__read_file");
  });

  it("leaves an ordinary tool error as the server sent it", async () => {
    const session = createGuard({ policy }).session("s4", { interactive: false });
    const missing: CallToolResult = {
      content: [{ type: "text", text: "Error: ENOENT: no such file or directory, open '/repo/a.txt'" }],
      isError: true,
    };
    expect(await call(session, "read_file", async () => missing)).toBe(missing);
  });

  it("asks for an `ask` rule; a no, and a question that fails, are denials; headless nobody is asked", async () => {
    const session = createGuard({ policy }).session("s5", { interactive: true });
    const forward = vi.fn(async () => ok);
    const no = await call(session, "delete_file", forward, { ask: async () => false });
    const broken = await call(session, "delete_file", forward, {
      ask: async () => {
        throw new Error("the client went away");
      },
    });
    expect(no.isError).toBe(true);
    expect(broken.isError).toBe(true);
    expect(forward).not.toHaveBeenCalled();
    const yes = await call(session, "delete_file", forward, { ask: async () => true });
    expect(yes).toBe(ok);
    const headless = createGuard({ policy }).session("s6", { interactive: false });
    expect((await call(headless, "delete_file", forward)).isError).toBe(true);
    expect(forward).toHaveBeenCalledOnce();
  });

  it("fails closed: a guard that throws refuses the call", async () => {
    const broken = {
      decide: async () => {
        throw new Error("store exploded");
      },
    } as unknown as GuardSession;
    const forward = vi.fn(async () => ok);
    const result = await call(broken, "read_file", forward);
    expect(forward).not.toHaveBeenCalled();
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("store exploded");
  });
});
