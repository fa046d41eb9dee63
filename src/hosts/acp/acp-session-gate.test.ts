import type { RequestPermissionOutcome, RequestPermissionRequest } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { createGuard } from "../../guard/create-guard.js";
import { createPolicy } from "../../root/create-policy.js";
import { AcpSessionGate } from "./acp-session-gate.js";

/** claude-code-acp's options (observed on 0.16.2): no reject_always */
const OPTIONS = [
  { optionId: "allow_always", name: "Always Allow", kind: "allow_always" as const },
  { optionId: "allow", name: "Allow", kind: "allow_once" as const },
  { optionId: "reject", name: "Reject", kind: "reject_once" as const },
];
const REJECT = { outcome: "selected", optionId: "reject" } as const;

function gateFor(options: { threshold?: number; interactive?: boolean; deny?: string[] } = {}) {
  const interactive = options.interactive ?? true;
  const guard = createGuard({
    policy: createPolicy({
      cwd: "/repo",
      homeDir: "/home/someone",
      env: {},
      claudeSettings: false,
      config: { permissions: { deny: ["Bash(git push *)", ...(options.deny ?? [])] } } as never,
    }),
    core: { familyThresholds: { shell: options.threshold ?? 2 }, headlessStrategy: "abort" },
    onError: () => undefined,
  });
  const session = guard.session("acp-test", { interactive, host: "acp" });
  const aborts: string[] = [];
  const gate = new AcpSessionGate({ session, headless: !interactive, onAbort: (error) => aborts.push(error) });
  let number = 0;
  const ask = async (command: string, answer: (request: RequestPermissionRequest) => RequestPermissionOutcome) => {
    number += 1;
    const toolCallId = `toolu_${number}`;
    await gate.update({
      sessionUpdate: "tool_call",
      toolCallId,
      kind: "execute",
      rawInput: { command },
      _meta: { claudeCode: { toolName: "Bash" } },
    });
    const asked: RequestPermissionRequest[] = [];
    const response = await gate.permission(
      { sessionId: "s", toolCall: { toolCallId, rawInput: { command } }, options: OPTIONS },
      async (request) => {
        asked.push(request);
        return answer(request);
      },
    );
    return { response, asked, toolCallId };
  };
  return { gate, session, aborts, ask };
}

describe("AcpSessionGate", () => {
  it("answers a toolgate deny with the agent's reject, without asking the person, and records it", async () => {
    const { ask, session, gate } = gateFor();
    const { response, asked } = await ask("git push origin main", () => ({ outcome: "selected", optionId: "allow" }));
    expect(response.outcome).toEqual(REJECT);
    expect(asked).toEqual([]);
    expect((await session.state()).records.map((record) => record.source)).toEqual(["rule"]);
    expect(gate.takeGuidance()).toContain("Bash(git push *)");
    expect(gate.takeGuidance()).toBe("");
  });

  it("passes the person's allow on unchanged and counts nothing", async () => {
    const { ask, session } = gateFor();
    const { response, asked } = await ask("ls", () => ({ outcome: "selected", optionId: "allow_always" }));
    expect(response.outcome).toEqual({ outcome: "selected", optionId: "allow_always" });
    expect(asked[0]?.options).toEqual(OPTIONS);
    expect((await session.state()).records).toEqual([]);
  });

  it("answers `cancelled` and an option id the agent did not offer as the agent's reject, and counts each", async () => {
    const { ask, session } = gateFor({ threshold: 10 });
    const cancelled = await ask("rm -rf build", () => ({ outcome: "cancelled" }));
    const unknown = await ask("rm -rf dist", () => ({ outcome: "selected", optionId: "allow-everything" }));
    expect(cancelled.response.outcome).toEqual(REJECT);
    expect(unknown.response.outcome).toEqual(REJECT);
    const records = (await session.state()).records;
    expect(records.map((record) => [record.source, record.tool])).toEqual([
      ["user", "Bash"],
      ["user", "Bash"],
    ]);
  });

  it("an editor that fails to answer is a refusal", async () => {
    const { ask } = gateFor();
    const { response } = await ask("rm -rf build", () => {
      throw new Error("the editor went away");
    });
    expect(response.outcome).toEqual(REJECT);
  });

  it("refuses a call whose rawInput is not an object, unasked", async () => {
    const { gate } = gateFor();
    let asked = 0;
    const response = await gate.permission(
      { sessionId: "s", toolCall: { toolCallId: "x", kind: "execute", rawInput: "rm -rf /" }, options: OPTIONS },
      async () => {
        asked += 1;
        return { outcome: "selected", optionId: "allow" };
      },
    );
    expect(response.outcome).toEqual(REJECT);
    expect(asked).toBe(0);
    expect(gate.takeGuidance()).toMatch(/could not read/);
  });

  it("at the threshold puts the same call to the person once more with the grant; the grant covers later calls of its scope only, for the session", async () => {
    const { ask, session } = gateFor();
    await ask("rm -rf build", () => REJECT);
    const second = await ask("rm -rf build", (request) =>
      request.options.some((option) => option.optionId.startsWith("toolgate-grant:"))
        ? { outcome: "selected", optionId: request.options[0]?.optionId ?? "" }
        : REJECT,
    );
    expect(second.asked.map((request) => request.options.map((option) => option.name))).toEqual([
      ["Always Allow", "Allow", "Reject"],
      [expect.stringMatching(/^Allow .*rm -rf build.* for this session \(toolgate\)$/), "Reject"],
    ]);
    expect(second.response.outcome).toEqual({ outcome: "selected", optionId: "allow" });
    // inside the scope: toolgate answers with the agent's allow-once, unasked
    const inside = await ask("rm -rf build", () => REJECT);
    expect(inside.asked).toEqual([]);
    expect(inside.response.outcome).toEqual({ outcome: "selected", optionId: "allow" });
    // wider: the person is asked
    const wider = await ask("rm -rf src", () => REJECT);
    expect(wider.asked).toHaveLength(1);
    expect(wider.response.outcome).toEqual(REJECT);
    expect((await session.state()).grants.map((grant) => grant.scope.rule)).toEqual(["Bash(rm -rf build)"]);
  });

  it("with a session grant in place, a call a toolgate deny rule refuses is still refused unasked", async () => {
    const { ask, session } = gateFor({ deny: ["Bash(rm -rf build/keep)"] });
    const grant = (request: RequestPermissionRequest): RequestPermissionOutcome =>
      request.options.some((option) => option.optionId.startsWith("toolgate-grant:"))
        ? { outcome: "selected", optionId: request.options[0]?.optionId ?? "" }
        : REJECT;
    await ask("rm -rf build/b", grant);
    await ask("rm -rf build/b", grant);
    expect((await session.state()).grants.map((entry) => entry.scope.rule)).toEqual(["Bash(rm -rf build/b)"]);
    const denied = await ask("rm -rf build/keep", () => ({ outcome: "selected", optionId: "allow" }));
    expect(denied.asked).toEqual([]);
    expect(denied.response.outcome).toEqual(REJECT);
    // the grant still answers its own scope
    const granted = await ask("rm -rf build/b", () => REJECT);
    expect(granted.asked).toEqual([]);
    expect(granted.response.outcome).toEqual({ outcome: "selected", optionId: "allow" });
  });

  it("judges a reused tool call id on its own input: a grant taken on one call answers no other call under its id", async () => {
    const { gate, session } = gateFor({ deny: ["Bash(rm *)"] });
    const grant = async (request: RequestPermissionRequest): Promise<RequestPermissionOutcome> =>
      request.options.some((option) => option.optionId.startsWith("toolgate-grant:"))
        ? { outcome: "selected", optionId: request.options[0]?.optionId ?? "" }
        : REJECT;
    const request = (command: string): RequestPermissionRequest => ({
      sessionId: "s",
      toolCall: { toolCallId: "call_0", kind: "execute", rawInput: { command } },
      options: OPTIONS,
    });
    await gate.permission(request("ls"), grant);
    await gate.permission(request("ls"), grant);
    expect((await session.state()).grants.map((entry) => entry.scope.rule)).toEqual(["Bash(ls)"]);
    // an agent that numbers its calls from call_0 again: this is another call, refused by the deny rule, unasked
    let asked = 0;
    const reused = await gate.permission(request("rm -rf /"), async () => {
      asked += 1;
      return { outcome: "selected", optionId: "allow" };
    });
    expect(reused.outcome).toEqual(REJECT);
    expect(asked).toBe(0);
    expect((await session.state()).records.at(-1)).toMatchObject({ source: "rule", toolUseId: "call_0" });
  });

  it("a declined grant offer is a refusal, and the person is not offered it again", async () => {
    const { ask } = gateFor();
    await ask("rm -rf build", () => REJECT);
    const second = await ask("rm -rf build", () => REJECT);
    expect(second.asked).toHaveLength(2);
    expect(second.response.outcome).toEqual(REJECT);
    const third = await ask("rm -rf build", () => REJECT);
    expect(third.asked.flatMap((request) => request.options.map((option) => option.optionId))).not.toContainEqual(
      expect.stringMatching(/^toolgate-grant:/),
    );
  });

  it("headless: no grant is offered, the threshold aborts once, and every later request is refused unasked", async () => {
    const { ask, aborts } = gateFor({ interactive: false });
    await ask("rm -rf build", () => REJECT);
    const second = await ask("rm -rf build", () => REJECT);
    expect(second.asked).toHaveLength(1);
    expect(aborts).toHaveLength(1);
    const after = await ask("ls", () => ({ outcome: "selected", optionId: "allow" }));
    expect(after.asked).toEqual([]);
    expect(after.response.outcome).toEqual(REJECT);
    expect(aborts).toHaveLength(1);
  });

  it("counts a call the person allowed that then failed with an OS refusal (a sandbox denial)", async () => {
    const { ask, gate, session } = gateFor({ threshold: 10 });
    const { toolCallId } = await ask("cat /root/secret", () => ({ outcome: "selected", optionId: "allow" }));
    await gate.update({
      sessionUpdate: "tool_call_update",
      toolCallId,
      status: "failed",
      rawOutput: "cat: /root/secret: Permission denied",
    });
    const records = (await session.state()).records;
    expect(records.map((record) => [record.source, record.tool])).toEqual([["sandbox", "Bash"]]);
  });
});

describe("codex-acp's shell calls", () => {
  it("a `/bin/bash -lc <script>` argv is decided as its script (a Bash rule applies), with ACP's execute kind", async () => {
    const { gate, session } = gateFor();
    const response = await gate.permission(
      {
        sessionId: "s",
        toolCall: {
          toolCallId: "call_1",
          kind: "execute",
          rawInput: { command: ["/bin/bash", "-lc", "git push origin main"], cwd: "/repo" },
        },
        options: [
          { optionId: "approved", name: "Yes, proceed", kind: "allow_once" },
          { optionId: "abort", name: "No, and tell Codex what to do differently", kind: "reject_once" },
        ],
      },
      async () => ({ outcome: "selected", optionId: "approved" }),
    );
    expect(response.outcome).toEqual({ outcome: "selected", optionId: "abort" });
    const records = (await session.state()).records;
    expect(records.map((record) => [record.source, record.tool, record.canonicalTool])).toEqual([
      ["rule", "execute", "shell"],
    ]);
  });
});

describe("a shell running one script, as agents send it", () => {
  const decided = async (command: unknown) => {
    const { gate } = gateFor({ deny: ["Bash(rm *)"], threshold: 100 });
    let asked = 0;
    const response = await gate.permission(
      { sessionId: "s", toolCall: { toolCallId: "call_1", kind: "execute", rawInput: { command } }, options: OPTIONS },
      async () => {
        asked += 1;
        return { outcome: "selected", optionId: "allow" };
      },
    );
    return { outcome: response.outcome, asked };
  };

  it("is decided as its script from any shell, folder, env prefix and option order (the deny rule applies, unasked)", async () => {
    for (const command of [
      ["/bin/bash", "-lc", "rm -rf build"],
      ["bash", "-c", "rm -rf build"],
      ["/opt/homebrew/bin/bash", "-lc", "rm -rf build"],
      ["/usr/local/bin/zsh", "-lc", "rm -rf build"],
      ["/usr/bin/env", "bash", "-lc", "rm -rf build"],
      ["env", "-i", "HOME=/x", "sh", "-c", "rm -rf build"],
      ["fish", "-c", "rm -rf build"],
      ["/bin/dash", "-e", "-c", "rm -rf build"],
      ["bash", "-o", "pipefail", "-ec", "rm -rf build"],
      ["bash", "-c", "rm -rf build", "name", "argument"],
    ]) {
      expect(await decided(command), JSON.stringify(command)).toEqual({ outcome: REJECT, asked: 0 });
    }
  });

  it("leaves any other argv to the person: a script file, a program that is no shell", async () => {
    for (const command of [
      ["bash", "build.sh"],
      ["python3", "-c", "print(1)"],
      ["/usr/bin/env", "python3", "-c", "print(1)"],
      ["bashful", "-c", "rm -rf build"],
    ]) {
      expect(await decided(command), JSON.stringify(command)).toEqual({
        outcome: { outcome: "selected", optionId: "allow" },
        asked: 1,
      });
    }
  });
});

describe("the calls toolgate let run", () => {
  it("are remembered until they end, the oldest forgotten past 256 (an agent that never reports an end)", async () => {
    const { ask, gate, session } = gateFor({ threshold: 1000 });
    const allow = () => ({ outcome: "selected", optionId: "allow" }) as const;
    const ids: string[] = [];
    for (let index = 0; index < 257; index += 1) ids.push((await ask(`cat /root/${index}`, allow)).toolCallId);
    const fail = (toolCallId: string) =>
      gate.update({ sessionUpdate: "tool_call_update", toolCallId, status: "failed", rawOutput: "Permission denied" });
    await fail(ids[0] as string);
    expect((await session.state()).records).toEqual([]);
    await fail(ids[1] as string);
    expect((await session.state()).records.map((record) => record.source)).toEqual(["sandbox"]);
  });
});
