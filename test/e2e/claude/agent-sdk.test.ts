/**
 * The Agent SDK adapter against the real binary: `guardCanUseTool` with an accepted session grant (later calls run
 * without asking), a declined one, and a headless abort; `observe` + `withPermissionDenials` count each denial once.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type CanUseTool, query, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { afterAll, describe, expect, it } from "vitest";
import { createGuard } from "../../../src/guard/create-guard.js";
import {
  guardCanUseTool,
  guardHooks,
  observe,
  withPermissionDenials,
} from "../../../src/hosts/claude-agent-sdk/index.js";
import { findTranscriptDenials } from "../../../src/hosts/claude-code/transcript-denials.js";
import { type FakeAnthropic, startFakeAnthropic } from "./fake-anthropic.js";
import { claudeBinary, createWorkspace, offlineEnvironment, type Workspace } from "./run-claude.js";
import { bash } from "./scripts.js";

const FILES = ["a", "b", "c", "d", "e", "f"];
const FIXTURES = join(import.meta.dirname, "..", "..", "fixtures", "claude-code");

function recordFixture(name: string, text: string): void {
  if (process.env.TOOLGATE_UPDATE_FIXTURES === "1" || !existsSync(join(FIXTURES, name))) {
    writeFileSync(join(FIXTURES, name), `${text}\n`);
  }
}

interface SdkRun {
  workspace: Workspace;
  fake: FakeAnthropic;
  messages: SDKMessage[];
  threw: string | undefined;
  innerCalls: number;
  /** how often Claude Code asked (called canUseTool) */
  asked: number;
  offers: string[];
  guarded: ReturnType<typeof guardCanUseTool>;
  report: ReturnType<typeof withPermissionDenials<{ ok: boolean }>>;
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

async function sdkRun(options: { interactive: boolean; accept?: boolean; withInner: boolean }): Promise<SdkRun> {
  const workspace = createWorkspace();
  // `npm run test -- x.txt` touches x.txt; npm run test is a prefix toolgate may grant as a family
  workspace.writeFile("package.json", JSON.stringify({ name: "fixture", private: true, scripts: { test: "touch" } }));
  const fake = await startFakeAnthropic({
    conversations: { main: FILES.map((name) => bash(`npm run test -- ${name}.txt`)) },
  });
  cleanups.push(async () => {
    await fake.close();
    workspace.remove();
  });
  const guard = createGuard();
  const session = guard.session(`sdk-${Math.round(performance.now())}`, {
    interactive: options.interactive,
    host: "claude-agent-sdk",
  });
  let innerCalls = 0;
  const offers: string[] = [];
  const inner: CanUseTool = async (toolName) => {
    innerCalls += 1;
    return { behavior: "deny", message: `The person said no to ${toolName}.` };
  };
  const guarded = guardCanUseTool(session, {
    ...(options.withInner ? { inner } : {}),
    onGrantOffer: (offer) => {
      offers.push(offer.scope.rule);
      return options.accept === true;
    },
    onAbort: () => undefined,
  });
  let asked = 0;
  const counted: CanUseTool = (toolName, input, callOptions) => {
    asked += 1;
    return guarded(toolName, input, callOptions);
  };
  const messages: SDKMessage[] = [];
  let threw: string | undefined;
  const stream = observe(
    query({
      prompt: "Create the files.",
      options: {
        cwd: workspace.project,
        env: offlineEnvironment({ baseUrl: fake.url, home: workspace.home }),
        pathToClaudeCodeExecutable: claudeBinary(),
        permissionMode: "default",
        settingSources: [],
        maxTurns: 20,
        canUseTool: counted,
        hooks: guardHooks(session),
      },
    }),
    { session, warn: () => undefined },
  );
  try {
    for await (const message of stream) messages.push(message);
  } catch (error) {
    threw = (error as Error).message;
  }
  await guard.drain();
  const result = messages.findLast((message) => message.type === "result");
  console.info(
    `[effectiveness] SDK interactive=${options.interactive} accept=${options.accept}: ${fake.servedToolUses().length} calls, asked ${asked}, inner ${innerCalls}, offers ${offers.length}, result ${result?.subtype}, threw ${threw !== undefined}`,
  );
  return {
    workspace,
    fake,
    messages,
    threw,
    innerCalls,
    asked,
    offers,
    guarded,
    report: withPermissionDenials({ ok: true }, stream.report()),
  };
}

describe("Agent SDK: guardCanUseTool", () => {
  it("accepted grant: a session rule of minimum scope, later calls run without asking", async () => {
    const run = await sdkRun({ interactive: true, accept: true, withInner: true });
    expect(run.threw).toBeUndefined();
    expect(run.offers).toEqual(["Bash(npm run test *)"]);
    // the person said no until the offer; the granting call and every later one ran
    const created = FILES.filter((name) => existsSync(join(run.workspace.project, `${name}.txt`)));
    expect(run.innerCalls + created.length).toBe(FILES.length + 1);
    expect(created).toEqual(FILES.slice(run.innerCalls - 1));
    // after the grant Claude Code applied the session rule itself: it never asked again
    expect(run.asked).toBe(run.innerCalls);
    expect(run.report.permissionDenialCount).toBe(run.innerCalls - 1);
    const texts = run.fake
      .toolResults()
      .filter((result) => result.isError)
      .map((result) => result.text);
    expect(texts.every((text) => text.startsWith("The person said no to Bash."))).toBe(true);
    expect(texts.some((text) => text.includes("[toolgate]"))).toBe(true);
  }, 60_000);

  it("declined grant: no allow, the model is told the user declined, no second offer", async () => {
    const run = await sdkRun({ interactive: true, accept: false, withInner: true });
    // the transcript of a person's "No" (canUseTool deny): the hook reconciler reads it as source `user`
    const projects = join(run.workspace.home, ".claude", "projects");
    const transcriptFile = readdirSync(projects, { recursive: true, encoding: "utf8" }).find((name) =>
      name.endsWith(".jsonl"),
    );
    const transcript = readFileSync(join(projects, String(transcriptFile)), "utf8");
    const fromTranscript = findTranscriptDenials(transcript);
    expect(fromTranscript).toHaveLength(FILES.length);
    expect(fromTranscript.every((denial) => denial.source === "user")).toBe(true);
    recordFixture(
      "transcript-user-reject.jsonl",
      transcript
        .split("\n")
        .filter((line) => line.startsWith('{"parentUuid"') && /"type":"(user|assistant)"/.test(line))
        .slice(0, 4)
        .map((line) => line.split(run.workspace.root).join("/tmp/toolgate-fixture"))
        .join("\n"),
    );
    expect(run.offers).toHaveLength(1);
    const created = FILES.filter((name) => existsSync(join(run.workspace.project, `${name}.txt`)));
    expect(created).toEqual([]);
    const texts = run.fake.toolResults().map((result) => result.text);
    expect(texts.some((text) => text.includes("declined"))).toBe(true);
    expect(run.report.permissionDenialCount).toBe(run.fake.servedToolUses().length);
    expect(run.report.permissionDeniedTools).toEqual(["Bash"]);
  }, 60_000);

  it("headless: toolgate aborts with interrupt, query throws, and our error is in the adapter's result", async () => {
    const run = await sdkRun({ interactive: false, withInner: false });
    expect(run.threw).toMatch(/error result/i);
    const result = run.messages.findLast((message) => message.type === "result");
    expect(result?.subtype).toBe("error_during_execution");
    expect(run.guarded.abortError()).toMatch(/toolgate aborted the run/);
    expect(run.fake.servedToolUses().length).toBeLessThan(FILES.length);
  }, 60_000);
});
