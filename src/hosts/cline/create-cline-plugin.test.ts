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
});
