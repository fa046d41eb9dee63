import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createGuard, type GuardOptions } from "../../../src/guard/create-guard.js";
import { classifyOutput } from "../../../src/hosts/opencode/classify-output.js";
import { isRealUserMessage } from "../../../src/hosts/opencode/opencode-signal.js";
import { type OpencodeDelivery, OpencodeTracker } from "../../../src/hosts/opencode/opencode-tracker.js";

/** One recorded plugin call from test/fixtures/opencode/<name>.json (recorded from the real opencode 1.18.33). */
export interface FixtureEntry {
  kind: string;
  data: Record<string, unknown>;
}

export interface Fixture {
  description: string;
  entries: FixtureEntry[];
}

export function loadFixture(name: string): Fixture {
  return JSON.parse(readFileSync(join("test", "fixtures", "opencode", `${name}.json`), "utf8")) as Fixture;
}

export function fixtureEvents(name: string): Record<string, unknown>[] {
  return loadFixture(name)
    .entries.filter((entry) => entry.kind.startsWith("event:"))
    .map((entry) => entry.data);
}

export interface Replay {
  notes: { sessionId: string; text: string }[];
  stops: string[];
  lines: string[];
  warnings: string[];
  thrown: { callId: string; text: string }[];
  tracker: OpencodeTracker;
  guard: ReturnType<typeof createGuard>;
}

/** Feeds a recorded run through a tracker wired to a real in-memory guard, exactly as the plugin's hooks do. */
export async function replayFixture(
  entries: readonly FixtureEntry[],
  options: { interactive?: boolean; guard?: GuardOptions } = {},
): Promise<Replay> {
  let clock = 1_000_000;
  const guard = createGuard({ clock: () => (clock += 1000), classifyFailure: classifyOutput, ...options.guard });
  const replay: Omit<Replay, "tracker"> = { notes: [], stops: [], lines: [], warnings: [], thrown: [], guard };
  const delivery: OpencodeDelivery = {
    async note(sessionId, text) {
      replay.notes.push({ sessionId, text });
    },
    async stop(sessionId) {
      replay.stops.push(sessionId);
    },
    tell: (line) => replay.lines.push(line),
    warn: (message) => replay.warnings.push(message),
  };
  const tracker = new OpencodeTracker({
    openSession: (id, sessionOptions) => guard.session(id, sessionOptions),
    interactive: options.interactive ?? false,
    delivery,
  });
  for (const entry of entries) {
    // biome-ignore lint/suspicious/noExplicitAny: recorded JSON, shapes checked by the assertions that use it
    const data = entry.data as Record<string, any>;
    if (entry.kind.startsWith("event:")) await tracker.onEvent(data);
    else if (entry.kind === "hook:chat.message") {
      if (isRealUserMessage(data.output)) await tracker.onUserMessage(data.input.sessionID);
    } else if (entry.kind === "hook:tool.execute.before") {
      const text = await tracker.beforeTool({
        sessionId: data.input.sessionID,
        callId: data.input.callID,
        tool: data.input.tool,
        input: data.output.args,
      });
      if (text !== undefined) replay.thrown.push({ callId: data.input.callID, text });
    } else if (entry.kind === "hook:tool.execute.after") {
      const exit = data.output.metadata?.exit;
      await tracker.afterTool({
        sessionId: data.input.sessionID,
        callId: data.input.callID,
        tool: data.input.tool,
        input: data.input.args,
        output: String(data.output.output ?? ""),
        ...(typeof exit === "number" ? { exitCode: exit } : {}),
      });
    }
  }
  return { ...replay, tracker };
}
