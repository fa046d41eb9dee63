import { generateText, stepCountIs, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createGuard } from "../../src/guard/create-guard.js";
import type { Decider } from "../../src/hosts/ai-sdk/decider.js";
import { guardTools } from "../../src/hosts/ai-sdk/guard-tools.js";
import { scriptedModel, toolResultTexts } from "../ai-sdk/scripted-model.js";

/**
 * Issue 25, items 2 and 7, as a class: whatever an AI SDK app's decider does other than answer a verdict toolgate
 * knows in time (throw, reject, answer an unknown verdict or a malformed document, never answer, answer `allow` too
 * late), the call is denied, recorded (source `internal`) and the model reads why; generateText never hangs on it.
 */

const never = () => new Promise<never>(() => undefined);
const late = (answer: unknown) => new Promise((resolve) => setTimeout(() => resolve(answer), 200));

const MISBEHAVIOURS: [label: string, decider: () => unknown, says: RegExp][] = [
  [
    "throws",
    () => {
      throw new Error("policy engine crashed");
    },
    /policy engine crashed/,
  ],
  ["rejects", () => Promise.reject(new Error("OPA answered 500")), /OPA answered 500/],
  ["rejects with a non-error", () => Promise.reject("nope"), /nope/],
  ["answers an upper-case verdict", () => ({ decision: "DENY" }), /not a verdict toolgate knows/],
  ["answers an upper-case allow", () => ({ decision: "ALLOW" }), /not a verdict toolgate knows/],
  ["answers OPA's raw result", () => ({ result: { allow: true } }), /not a verdict toolgate knows/],
  ["answers a boolean", () => true, /not a verdict toolgate knows/],
  ["answers nothing", () => undefined, /not a verdict toolgate knows/],
  ["answers null", () => null, /not a verdict toolgate knows/],
  ["answers an array", () => ["allow"], /not a verdict toolgate knows/],
  [
    "answers a document whose decision getter throws",
    () =>
      ({
        get decision() {
          throw new Error("getter exploded");
        },
      }) as unknown,
    /getter exploded/,
  ],
  ["never answers", never, /did not answer within 50 ms/],
  ["answers allow after the timeout", () => late({ decision: "allow" }), /did not answer within 50 ms/],
];

describe("a decider that misbehaves never lets a call run", () => {
  it.each(MISBEHAVIOURS)("a decider that %s: denied, recorded, explained", async (_, decider, says) => {
    const session = createGuard({ onError: () => undefined }).session("decider-class", { interactive: false });
    const runs: string[] = [];
    const guarded = guardTools(
      {
        sh: tool({
          inputSchema: z.object({ command: z.string() }),
          execute: async ({ command }) => {
            runs.push(command);
            return "ran";
          },
        }),
      },
      { session, decider: decider as Decider, deciderTimeoutMs: 50, onError: () => undefined },
    );
    const { model, prompts } = scriptedModel([{ toolName: "sh", input: { command: "ls" } }, { text: "done" }]);
    await generateText({ model, tools: guarded.tools, stopWhen: stepCountIs(3), prompt: "go" });
    expect(runs).toEqual([]);
    expect(toolResultTexts(prompts.at(-1))[0]).toMatch(says);
    expect((await session.state()).records.map((record) => record.source)).toEqual(["internal"]);
  });
});
