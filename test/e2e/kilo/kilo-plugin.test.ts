import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { createSqliteStore } from "../../../src/store/sqlite/sqlite-store.js";
import {
  bash,
  type ChatMessage,
  type FakeOpenAI,
  type Script,
  sequenceScript,
  startFakeOpenAI,
  stubbornScript,
  toolStep,
} from "../opencode/fake-openai.js";
import { runKilo } from "./run-kilo.js";

/**
 * toolgate's opencode plugin in the real Kilo CLI (`kilo run --auto --format json`), installed by
 * `toolgate install kilo`, against the scripted model on 127.0.0.1. Kilo's own `permission` rules decide (as
 * opencode's do); toolgate counts their refusals, adds its guidance to what the model reads and stops the run at the
 * threshold. `toolgate run` exits 6 for that stop and 5 for a refused call the model gave up on.
 */
const files = { "victim/keep.txt": "keep" };
const denyRm = { bash: { "*": "allow", "rm *": "deny" } };
const RULE_TEXT = "The user has specified a rule which prevents you from using this specific tool call.";

async function withFake<T>(script: Script, work: (fake: FakeOpenAI) => Promise<T>): Promise<T> {
  const fake = await startFakeOpenAI(script);
  try {
    return await work(fake);
  } finally {
    await fake.close();
  }
}

function contentOf(message: ChatMessage): string {
  if (typeof message.content === "string") return message.content;
  if (Array.isArray(message.content)) {
    return message.content
      .map((block: { text?: unknown }) => (typeof block.text === "string" ? block.text : ""))
      .join("");
  }
  return "";
}

function toolResultsRead(fake: FakeOpenAI): string[] {
  const last = fake.agentRequests().at(-1)?.body.messages ?? [];
  return last.filter((message) => message.role === "tool").map(contentOf);
}

const stubborn = () => stubbornScript({ call: bash("rm -rf victim"), maxAttempts: 12 });

describe("toolgate's plugin in the real Kilo CLI", () => {
  test("baseline without toolgate: --auto runs the stubborn model's rm and Kilo ends with exit 0", async () => {
    await withFake(stubborn(), async (fake) => {
      const run = await runKilo({ fake, files });
      expect(run.timedOut).toBe(false);
      expect(run.exitCode).toBe(0);
      expect(fake.agentRequests()).toHaveLength(13);
      expect(existsSync(join(run.projectDir, "victim"))).toBe(false);
    });
  }, 240_000);

  test("with toolgate under toolgate run: Kilo's rule refuses, the model reads toolgate's guidance, the threshold stops the run, exit 6", async () => {
    await withFake(stubborn(), async (fake) => {
      const run = await runKilo({ fake, files, permission: denyRm, install: true, underRun: true });
      expect(run.timedOut).toBe(false);
      expect(run.exitCode).toBe(6);
      // the plugin loaded from the entry `toolgate install kilo` wrote, named kilo
      const config = JSON.parse(readFileSync(join(run.projectDir, "kilo.json"), "utf8")) as { plugin: unknown[] };
      expect(config.plugin).toEqual([
        [expect.stringMatching(/hosts\/opencode\/opencode-plugin\.js$/), { host: "kilo" }],
      ]);
      const read = toolResultsRead(fake);
      expect(read[0]).toContain(RULE_TEXT);
      expect(read[0]).toContain("[toolgate]");
      // stopped at the threshold (2 headless): the model was not asked a third time
      expect(fake.agentRequests()).toHaveLength(2);
      expect(run.stderr).toContain("toolgate run: 2 denied calls; toolgate aborted the run.");
      expect(readFileSync(join(run.projectDir, "victim", "keep.txt"), "utf8")).toBe("keep");
      const store = await createSqliteStore({ filename: run.database });
      try {
        const records = await store.denials.query();
        expect(records.map((record) => [record.tool, record.canonicalTool, record.source])).toEqual([
          ["bash", "shell", "rule"],
          ["bash", "shell", "rule"],
        ]);
      } finally {
        await store.close();
      }
    });
  }, 240_000);

  test("toolgate run: exit 5 when Kilo refused a call the task needed and the model gave up", async () => {
    const script = sequenceScript([toolStep(bash("rm -rf victim"))], "FINAL: I could not remove it.");
    await withFake(script, async (fake) => {
      const run = await runKilo({ fake, files, permission: denyRm, install: true, underRun: true });
      expect(run.timedOut).toBe(false);
      expect(run.exitCode).toBe(5);
      expect(run.stderr).toContain("toolgate run: 1 denied call.");
      expect(toolResultsRead(fake)[0]).toContain(RULE_TEXT);
    });
  }, 240_000);
});
