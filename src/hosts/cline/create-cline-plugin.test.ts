import { describe, expect, test } from "vitest";
import type { Effect } from "../../core/effects.js";
import type { AuditSink } from "../../guard/create-guard.js";
import { createPolicy } from "../../root/create-policy.js";
import { type ClinePlugin, createClinePlugin } from "./create-cline-plugin.js";

const snapshot = { agentId: "agent_1", conversationId: "conv_1" };

function policy(permissions: Record<string, string[]>) {
  return createPolicy({ cwd: "/", homeDir: "/", env: {}, claudeSettings: false, config: { permissions } as never });
}

async function plugin(
  options: { permissions?: Record<string, string[]>; threshold?: number; interactive?: boolean } = {},
) {
  const effects: Effect[] = [];
  const sink: AuditSink = {
    deliver(delivered) {
      effects.push(...delivered);
    },
  };
  const told: string[] = [];
  const created = createClinePlugin({
    policy: policy(options.permissions ?? { deny: ["Bash(rm *)"], allow: ["Bash(ls *)"] }),
    sinks: [sink],
    core: { headlessStrategy: "abort", familyThresholds: { shell: options.threshold ?? 3 } },
    environment: {},
    interactive: options.interactive ?? false,
    tell: (line) => told.push(line),
  });
  await created.setup({}, { session: { sessionId: "1795_abc" } });
  return { plugin: created, effects, told };
}

function call(id: string, ...commands: string[]) {
  return {
    snapshot,
    toolCall: { toolCallId: id, toolName: "run_commands", input: { commands } },
    input: { commands },
  };
}

function toolCall(id: string, toolName: string, input: unknown) {
  return { snapshot, toolCall: { toolCallId: id, toolName, input }, input };
}

const HEADLESS_REFUSAL =
  'Tool "run_commands" requires approval in a TTY session -- NOT a tool or system failure. Clarify with user before proceeding.';

const denials = (effects: Effect[]) => effects.filter((effect) => effect.type === "record").length;

async function ran(created: ClinePlugin, context: ReturnType<typeof call>, output: unknown, isError = false) {
  await created.hooks.afterTool({ ...context, result: { output, isError } });
}

describe("the Cline plugin", () => {
  test("refuses a rule-denied call with `skip` and toolgate's guidance; an allowed call goes on", async () => {
    const { plugin: created, effects } = await plugin();
    const denied = await created.hooks.beforeTool(call("c1", "ls", "rm -rf build"));
    expect(denied).toMatchObject({ skip: true, reason: expect.stringContaining("Denied by rule Bash(rm *)") });
    expect(denied?.stop).toBeUndefined();
    expect(await created.hooks.beforeTool(call("c2", "ls -la"))).toBeUndefined();
    // Cline reports the refused call back as an error result: not a second denial
    await ran(created, call("c1", "ls", "rm -rf build"), { error: denied?.reason }, true);
    expect(denials(effects)).toBe(1);
  });

  test("at the threshold it refuses and tells Cline to stop, once; later calls are refused without a second stop", async () => {
    const { plugin: created, told } = await plugin({ threshold: 3 });
    const answers = [];
    for (const [index, command] of ["rm -rf a", "rm -rf ./a", "rm -r a", "rm -fr a"].entries()) {
      answers.push(await created.hooks.beforeTool(call(`s${index}`, command)));
    }
    expect(answers.map((answer) => answer?.skip)).toEqual([true, true, true, true]);
    expect(answers.map((answer) => answer?.stop === true)).toEqual([false, false, true, false]);
    expect(told.filter((line) => line.startsWith("toolgate: "))).toHaveLength(1);
  });

  test("Cline's own headless refusal is counted as a headless denial", async () => {
    const { plugin: created, effects } = await plugin({ permissions: {} });
    const context = { ...call("h1", "echo hi"), toolCall: { toolCallId: "h1", toolName: "run_commands" } };
    expect(await created.hooks.beforeTool(context)).toBeUndefined();
    await created.hooks.afterTool({
      ...context,
      result: {
        output: {
          error:
            'Tool "run_commands" requires approval in a TTY session -- NOT a tool or system failure. Clarify with user before proceeding.',
        },
        isError: true,
      },
    });
    const records = effects.flatMap((effect) => (effect.type === "record" ? [effect.record] : []));
    expect(records.map((record) => [record.tool, record.source])).toEqual([["run_commands", "headless"]]);
  });

  test("an ask of a toolgate rule: Cline asks the person (interactive); headless it is a denial", async () => {
    const interactive = await plugin({ permissions: { ask: ["Bash(git push *)"] }, interactive: true });
    expect(await interactive.plugin.hooks.beforeTool(call("a1", "git push"))).toEqual({
      policy: { autoApprove: false },
    });
    // an ask no rule made (toolgate's defaults) is Cline's own: it auto-approves or asks as it is set up
    expect(await interactive.plugin.hooks.beforeTool(call("a2", "make build"))).toBeUndefined();
    const headless = await plugin({ permissions: { ask: ["Bash(git push *)"] } });
    expect(await headless.plugin.hooks.beforeTool(call("a3", "git push"))).toMatchObject({ skip: true });
  });

  test("fails closed: a toolgate that cannot open refuses every call in Cline's own refusal shape", async () => {
    const created = createClinePlugin({
      open: async () => {
        throw new Error("the store is corrupt");
      },
      environment: {},
      tell: () => undefined,
    });
    await created.setup({}, { session: { sessionId: "s" } });
    const answer = await created.hooks.beforeTool(call("f1", "ls"));
    expect(answer).toMatchObject({ skip: true, reason: expect.stringContaining("the store is corrupt") });
    expect(answer?.reason).toMatch(/^\[toolgate\] toolgate could not check this call/);
  });

  test("records carry Cline's session id from setup, the host's tool name and the canonical identity", async () => {
    const { plugin: created, effects } = await plugin();
    await created.hooks.beforeTool(call("r1", "rm -rf build"));
    const records = effects.flatMap((effect) => (effect.type === "record" ? [effect.record] : []));
    expect(records[0]).toMatchObject({
      sessionId: "1795_abc",
      tool: "run_commands",
      canonicalTool: "shell",
      toolFamily: "shell",
    });
    await created.dispose();
  });

  test("every input shape Cline accepts is checked: a deny on any command, file or URL refuses the call", async () => {
    const { plugin: created, effects } = await plugin({
      permissions: {
        deny: ["Bash(git push *)", "Read(//etc/**)", "Edit(//etc/**)", "WebFetch(domain:evil.example)"],
      },
    });
    const refused: [string, unknown][] = [
      ["run_commands", { command: "git", args: ["push", "--force"] }],
      ["run_commands", [{ command: "ls" }, { command: "git", args: ["push"] }]],
      ["run_commands", { commands: ["ls", { command: "git", args: ["push", "origin"] }] }],
      ["read_files", { files: [{ path: "/tmp/a" }, { path: "/etc/shadow" }] }],
      ["read_files", ["/etc/shadow"]],
      ["read_files", "/etc/shadow"],
      ["apply_patch", { input: "*** Begin Patch\n*** Add File: /etc/cron.d/x\n+* * * * * root sh\n*** End Patch" }],
      ["apply_patch", "*** Begin Patch\n*** Update File: /tmp/a\n*** Move to: /etc/a\n*** End Patch"],
      ["fetch_web_content", { requests: [{ url: "https://ok.example/" }, { url: "https://evil.example/x" }] }],
    ];
    for (const [index, [tool, input]] of refused.entries()) {
      const answer = await created.hooks.beforeTool(toolCall(`d${index}`, tool, input));
      expect(answer, `${tool} ${JSON.stringify(input)}`).toMatchObject({
        skip: true,
        reason: expect.stringContaining("[toolgate]"),
      });
    }
    // one refusal recorded per refused call, however many things it named
    expect(denials(effects)).toBe(refused.length);
    expect(
      await created.hooks.beforeTool(toolCall("a1", "read_files", { files: [{ path: "/tmp/a" }, "/tmp/b"] })),
    ).toBeUndefined();
    expect(
      await created.hooks.beforeTool(toolCall("a2", "run_commands", { command: "git", args: ["status"] })),
    ).toBeUndefined();
  });

  test("fetch_web_content: the policy is asked about each URL, and a refusal of any refuses the call", async () => {
    const asked: unknown[] = [];
    const created = createClinePlugin({
      policy: {
        evaluate(call) {
          asked.push(call.input);
          const url = (call.input as { url?: string }).url ?? "";
          return url.includes("evil.example")
            ? { behavior: "deny", source: "policy", reason: "no evil", denialSource: "rule", rule: "X" }
            : { behavior: "allow", source: "policy", reason: "ok", rule: "Y" };
        },
      },
      environment: {},
      interactive: false,
      tell: () => undefined,
    });
    await created.setup({}, { session: { sessionId: "f" } });
    const requests = [
      { url: "https://ok.example/", prompt: "p" },
      { url: "https://evil.example/x", prompt: "p" },
    ];
    expect(await created.hooks.beforeTool(toolCall("w1", "fetch_web_content", { requests }))).toMatchObject({
      skip: true,
    });
    expect(asked).toEqual(requests);
    expect(
      await created.hooks.beforeTool(toolCall("w2", "fetch_web_content", { requests: requests.slice(0, 1) })),
    ).toBe(undefined);
  });

  test("an input toolgate cannot read is refused and recorded, never let through", async () => {
    const { plugin: created, effects } = await plugin({ permissions: {} });
    for (const [index, [tool, input]] of (
      [
        ["read_files", { files: [{ line: 1 }] }],
        ["apply_patch", { input: "no patch here" }],
        ["fetch_web_content", { url: "https://evil.example" }],
        ["run_commands", { commands: [7] }],
      ] as [string, unknown][]
    ).entries()) {
      expect(await created.hooks.beforeTool(toolCall(`u${index}`, tool, input))).toMatchObject({
        skip: true,
        reason: expect.stringContaining("toolgate cannot read the input"),
      });
    }
    const records = effects.flatMap((effect) => (effect.type === "record" ? [effect.record] : []));
    expect(records.map((record) => record.source)).toEqual(["validation", "validation", "validation", "validation"]);
  });

  test("an MCP tool (Cline's `<server>__<tool>`) meets toolgate's mcp__ rules and is recorded as MCP", async () => {
    const { plugin: created, effects } = await plugin({ permissions: { deny: ["mcp__github__delete_repo"] } });
    expect(await created.hooks.beforeTool(toolCall("m1", "github__delete_repo", { repo: "x/y" }))).toMatchObject({
      skip: true,
    });
    const records = effects.flatMap((effect) => (effect.type === "record" ? [effect.record] : []));
    expect(records[0]).toMatchObject({ toolFamily: "mcp", canonicalTool: "mcp_github_delete_repo" });
  });

  test("an abort reached in afterTool answers stop there, once; a later call is refused without a second stop", async () => {
    const { plugin: created, told } = await plugin({ permissions: {}, threshold: 2 });
    const answers: unknown[] = [];
    for (const index of [1, 2]) {
      const context = call(`h${index}`, `git push origin b${index}`);
      expect(await created.hooks.beforeTool(context)).toBeUndefined();
      // Cline refuses the call itself (headless approval): counted in afterTool, the second reaches the threshold
      const result = { output: { error: HEADLESS_REFUSAL }, isError: true };
      answers.push(await created.hooks.afterTool({ ...context, result }));
    }
    expect(answers[0]).toBeUndefined();
    expect(answers[1]).toEqual({ stop: true, reason: expect.stringContaining("toolgate aborted the run") });
    const later = await created.hooks.beforeTool(call("h3", "git push origin b3"));
    expect(later).toMatchObject({ skip: true });
    expect(later?.stop).toBeUndefined();
    expect(told.filter((line) => line.startsWith("toolgate: "))).toHaveLength(1);
    // a new run in the aborted session is told to stop at its first call
    expect(await created.hooks.beforeRun({ snapshot })).toBeUndefined();
    expect(await created.hooks.beforeTool(call("h4", "ls"))).toMatchObject({ skip: true, stop: true });
  });
});
