import { generateText, stepCountIs, tool } from "ai";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { Decider } from "../../src/hosts/ai-sdk/ai-sdk-entry.js";
import { scriptedModel, toolResultTexts } from "./scripted-model.js";
import { tempProject } from "./temp-project.js";

/**
 * Issue 25, items 2, 3, 6, 7: the AI SDK wrapper never fails open, never hangs and never leaks, through the public
 * entry (`openToolgateForAiSdk`), the real `ai` package and a scripted model, with the records read back from SQLite.
 */
const projects: ReturnType<typeof tempProject>[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const project of projects.splice(0)) project.remove();
});

const TOKEN = `ghp_${"Qw3eRt6yUi9oPa2sDf5gHj8kLz1xCv4bNm7Q"}`;

function shellTool(runs: unknown[]) {
  return {
    runCommand: tool({
      description: "Run a shell command",
      inputSchema: z.object({ command: z.union([z.string(), z.array(z.string())]) }),
      execute: async ({ command }) => {
        runs.push(command);
        return "ran";
      },
    }),
  };
}

/** One call of runCommand with this input: what ran, what the model read, the rows in the store. */
async function oneCall(input: unknown, options: { decider?: Decider; deciderTimeoutMs?: number } = {}) {
  const project = tempProject({ permissions: { deny: ["Bash(rm *)"] } });
  projects.push(project);
  const toolgate = await project.open();
  const runs: unknown[] = [];
  const guarded = toolgate.guardTools(shellTool(runs), { toolNames: { runCommand: "Bash" }, ...options });
  const { model, prompts } = scriptedModel([{ toolName: "runCommand", input }, { text: "done" }]);
  await generateText({ model, tools: guarded.tools, stopWhen: stepCountIs(4), prompt: "go" });
  await toolgate.close();
  return { runs, seen: toolResultTexts(prompts.at(-1)), records: project.records() };
}

describe("the AI SDK wrapper fails closed (real ai, scripted model, SQLite)", () => {
  it("an argv array is decided as the command it runs: Bash(rm *) denies it", async () => {
    const { runs, seen, records } = await oneCall({ command: ["rm", "-rf", "v"] });
    expect(runs).toEqual([]);
    expect(seen[0]).toContain("Bash(rm *)");
    expect(records.map((record) => [record.tool, record.source])).toEqual([["Bash", "rule"]]);
  });

  it("a command with a NUL byte is refused as unreadable (source validation)", async () => {
    const { runs, seen, records } = await oneCall({ command: "rm\u0000 -rf w; echo done" });
    expect(runs).toEqual([]);
    expect(seen[0]).toContain("toolgate cannot read the command of this shell call");
    expect(records.map((record) => record.source)).toEqual(["validation"]);
  });

  it("a decider answering { decision: 'DENY' } is an error, and the call is denied (source internal)", async () => {
    const { runs, seen, records } = await oneCall(
      { command: "ls" },
      { decider: () => ({ decision: "DENY" }) as never, deciderTimeoutMs: 2_000 },
    );
    expect(runs).toEqual([]);
    expect(seen[0]).toContain("not a verdict toolgate knows");
    expect(records.map((record) => record.source)).toEqual(["internal"]);
  });

  it("a decider that never answers: generateText finishes, the call is denied with a reason the model reads", async () => {
    vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const { runs, seen, records } = await oneCall(
      { command: "ls" },
      { decider: () => new Promise(() => undefined), deciderTimeoutMs: 50 },
    );
    expect(runs).toEqual([]);
    expect(seen[0]).toContain("the decider did not answer within 50 ms");
    expect(records.map((record) => record.source)).toEqual(["internal"]);
  });

  it("a decider that throws a token: refused; stderr, the model and the store never see the token", async () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const { runs, seen, records } = await oneCall(
      { command: "ls" },
      {
        decider: () => {
          throw new Error(`OPA unreachable (token ${TOKEN})`);
        },
      },
    );
    vi.restoreAllMocks();
    expect(runs).toEqual([]);
    expect(seen[0]).toContain("OPA unreachable (token [REDACTED:github-token]");
    expect(written.join("")).toContain("OPA unreachable (token [REDACTED:github-token]");
    expect(written.join("")).not.toContain(TOKEN);
    expect(JSON.stringify(records)).not.toContain(TOKEN);
  });
});
