import { existsSync, readdirSync, readFileSync } from "node:fs";
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
import { runPi } from "./run-pi.js";

/**
 * toolgate's extension inside the real pi 1.6.0 (`pi -p --mode json`), against the scripted model on 127.0.0.1.
 * pi has no permission system: without toolgate the stubborn model's `rm` runs every time and pi ends with exit 0;
 * with `toolgate install pi` the config's deny rule refuses it in toolgate's words, the threshold ends pi's run
 * (a refusal with `terminate`), and `toolgate run` reports it honestly: 6 for the abort, 5 for a refused call.
 */
const files = { "victim/keep.txt": "keep" };
const denyRm = { permissions: { deny: ["Bash(rm *)"] } };

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

/** the tool results the model read, in the last request it was sent */
function toolResultsRead(fake: FakeOpenAI): string[] {
  const last = fake.agentRequests().at(-1)?.body.messages ?? [];
  return last.filter((message) => message.role === "tool").map(contentOf);
}

async function storedRecords(database: string) {
  const store = await createSqliteStore({ filename: database });
  try {
    return { records: await store.denials.query(), events: await store.denials.queryEvents() };
  } finally {
    await store.close();
  }
}

const stubborn = () => stubbornScript({ call: bash("rm -rf victim"), maxAttempts: 12 });

describe("toolgate's extension in the real pi binary", () => {
  test("baseline without toolgate: pi has no permission system, the stubborn model's rm runs, pi ends with exit 0", async () => {
    await withFake(stubborn(), async (fake) => {
      const run = await runPi({ fake, files });
      expect(run.timedOut).toBe(false);
      expect(run.exitCode).toBe(0);
      // the model got its 12 tool results and ended the run with its final text
      expect(fake.agentRequests()).toHaveLength(13);
      expect(existsSync(join(run.projectDir, "victim"))).toBe(false);
    });
  }, 180_000);

  test("with toolgate: refused in toolgate's words, the threshold ends pi's run, the records carry the canonical tool", async () => {
    await withFake(stubborn(), async (fake) => {
      const run = await runPi({ fake, files, config: denyRm, install: true });
      expect(run.timedOut).toBe(false);
      // pi itself still exits 0 after a refusal ended its run: only `toolgate run` can say otherwise
      expect(run.exitCode).toBe(0);
      const read = toolResultsRead(fake);
      expect(read[0]).toContain("[toolgate] Denied by rule Bash(rm *)");
      // stopped at the threshold (2 headless): the second refusal ended the run, the model was not asked again
      expect(fake.agentRequests()).toHaveLength(2);
      expect(run.stderr).toContain("toolgate aborted the run");
      expect(readFileSync(join(run.projectDir, "victim", "keep.txt"), "utf8")).toBe("keep");
      const { records, events } = await storedRecords(run.database);
      expect(records.map((record) => [record.tool, record.canonicalTool, record.toolFamily, record.source])).toEqual([
        ["bash", "shell", "shell", "rule"],
        ["bash", "shell", "shell", "rule"],
      ]);
      expect(events.map((event) => event.kind)).toContain("run.aborted");
      // pi's own session file keeps the refusal the run ended on
      const sessions = join(run.home, ".pi", "agent", "sessions");
      const [folder] = readdirSync(sessions);
      const [file] = readdirSync(join(sessions, folder as string));
      expect(readFileSync(join(sessions, folder as string, file as string), "utf8")).toContain(
        "The run is being stopped",
      );
    });
  }, 180_000);

  test("toolgate run: exit 6 when toolgate stopped the stubborn model (pi's own exit is 0)", async () => {
    await withFake(stubborn(), async (fake) => {
      const run = await runPi({ fake, files, config: denyRm, install: true, underRun: true });
      expect(run.timedOut).toBe(false);
      expect(run.exitCode).toBe(6);
      expect(run.stderr).toContain("toolgate run: 2 denied calls; toolgate aborted the run.");
      expect(fake.agentRequests()).toHaveLength(2);
    });
  }, 180_000);

  test("toolgate run: exit 5 when a call the task needed was refused and the model gave up", async () => {
    const script = sequenceScript([toolStep(bash("rm -rf victim"))], "FINAL: I could not remove it.");
    await withFake(script, async (fake) => {
      const run = await runPi({ fake, files, config: denyRm, install: true, underRun: true });
      expect(run.timedOut).toBe(false);
      expect(run.exitCode).toBe(5);
      expect(run.stderr).toContain("toolgate run: 1 denied call.");
      expect(toolResultsRead(fake)[0]).toContain("[toolgate] Denied by rule Bash(rm *)");
    });
  }, 180_000);

  test("toolgate run, toolgate installed: a clean run keeps pi's exit 0", async () => {
    const script = sequenceScript([toolStep(bash("echo hello"))], "FINAL: done.");
    await withFake(script, async (fake) => {
      const run = await runPi({ fake, files, config: denyRm, install: true, underRun: true });
      expect(run.stderr).toBe("");
      expect(run.exitCode).toBe(0);
      expect(toolResultsRead(fake)[0]).toContain("hello");
    });
  }, 180_000);
});
