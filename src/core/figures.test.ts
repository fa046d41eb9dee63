import { describe, expect, it } from "vitest";
import {
  type FigureEvent,
  factsFromRecords,
  isSavedCall,
  retriesDenied,
  type SessionFacts,
  type SessionStatus,
  sessionFigures,
  totalFigures,
} from "./figures.js";

const denied = (signature: string, extra: Partial<{ source: string; agentId: string; pattern: string }> = {}) => ({
  sessionId: "s",
  tool: "Bash",
  signature,
  pattern: extra.pattern ?? signature.split(" ")[0] ?? signature,
  source: extra.source ?? "rule",
  ...(extra.agentId === undefined ? {} : { agentId: extra.agentId }),
});
const event = (kind: string, at: number, detail: Record<string, unknown> = {}, tool = "Bash") => ({
  sessionId: "s",
  kind,
  tool,
  at,
  detail,
});
const facts = (records: ReturnType<typeof denied>[], events: (FigureEvent & { sessionId: string })[] = []) =>
  factsFromRecords({ records, events })[0] as SessionFacts;

describe("one definition of the figures", () => {
  it.each<{
    name: string;
    records: ReturnType<typeof denied>[];
    events?: (FigureEvent & { sessionId: string })[];
    want: {
      denials: number;
      loops: string[];
      wasted: number;
      tokens: number | null;
      saved: number;
      status: SessionStatus;
    };
  }>([
    {
      name: "one denial: clean, nothing wasted",
      records: [denied("rm -rf build")],
      want: { denials: 1, loops: [], wasted: 0, tokens: null, saved: 0, status: "clean" },
    },
    {
      name: "two denials of one pattern: one wasted call, no loop yet",
      records: [denied("rm -rf a"), denied("rm -rf b")],
      want: { denials: 2, loops: [], wasted: 1, tokens: null, saved: 0, status: "clean" },
    },
    {
      name: "the host denied the same call 8 times, toolgate said nothing: a host loop",
      records: Array.from({ length: 8 }, () => denied("sh test.sh")),
      want: { denials: 8, loops: ["identical-call Bash host x8"], wasted: 7, tokens: null, saved: 0, status: "looped" },
    },
    {
      name: "toolgate's verdict at every level is one loop, merged with the repeated denials",
      records: Array.from({ length: 4 }, () => denied("sh test.sh")),
      events: ["observe", "steer"].map((level, index) =>
        event("loop.detected", index, { kind: "identical-call", repeats: 3 + index, level }),
      ),
      want: {
        denials: 4,
        loops: ["identical-call Bash toolgate x4"],
        wasted: 3,
        tokens: null,
        saved: 0,
        status: "looped",
      },
    },
    {
      name: "the same call denied for two subagents is two calls",
      records: [denied("ls", { agentId: "a" }), denied("ls", { agentId: "a" }), denied("ls", { agentId: "b" })],
      want: { denials: 3, loops: [], wasted: 1, tokens: null, saved: 0, status: "clean" },
    },
    {
      name: "toolgate's own refusals are saved calls; an abort wins over a loop",
      records: [
        ...Array.from({ length: 3 }, () => denied("curl x")),
        denied("curl x", { source: "loop" }),
        denied("curl x", { source: "aborted" }),
      ],
      events: [event("run.aborted", 9, { reason: "loop" })],
      want: {
        denials: 5,
        loops: ["identical-call Bash host x5"],
        wasted: 4,
        tokens: null,
        saved: 2,
        status: "aborted",
      },
    },
    {
      name: "an escalation nobody granted: blocked on a required call",
      records: [denied("git push"), denied("git push")],
      events: [event("escalation.reached", 5)],
      want: { denials: 2, loops: [], wasted: 1, tokens: null, saved: 0, status: "blocked-required-call" },
    },
    {
      name: "an escalation a person then granted is not blocked",
      records: [denied("git push"), denied("git push")],
      events: [event("escalation.reached", 5), event("grant.recorded", 6)],
      want: { denials: 2, loops: [], wasted: 1, tokens: null, saved: 0, status: "clean" },
    },
    {
      name: "a transcript's recorded waste and loops (toolgate analyze) win over what denials show",
      records: [denied("Write a.txt", { pattern: "a.txt" })],
      events: [
        event("loop.detected", 1, { kind: "intent-switch", by: "host", calls: 2, after: "Write" }),
        event("session.summary", 2, { wastedCalls: 3, wastedTokens: 1200 }),
      ],
      want: {
        denials: 1,
        loops: ["intent-switch Bash host x2 after Write"],
        wasted: 3,
        tokens: 1200,
        saved: 0,
        status: "looped",
      },
    },
    {
      name: "a session summary without the figure (the hooks') leaves the waste to the denials",
      records: [denied("rm a"), denied("rm b")],
      events: [event("session.summary", 2, { permissionDenialCount: 2 })],
      want: { denials: 2, loops: [], wasted: 1, tokens: null, saved: 0, status: "clean" },
    },
  ])("$name", ({ records, events, want }) => {
    const figures = sessionFigures(facts(records, events));
    expect({
      denials: figures.denials,
      loops: figures.loops.map(
        (loop) => `${loop.kind} ${loop.tool} ${loop.by} x${loop.calls}${loop.after ? ` after ${loop.after}` : ""}`,
      ),
      wasted: figures.wastedCalls,
      tokens: figures.wastedTokens,
      saved: figures.savedCalls,
      status: figures.status,
    }).toEqual(want);
  });

  it("a session with only a loop verdict of allowed calls is covered; totals add sessions up", () => {
    const sessions = factsFromRecords({
      records: [denied("rm x"), { ...denied("rm x"), sessionId: "t" }],
      events: [{ ...event("loop.detected", 1, { kind: "cycle", repeats: 3 }), sessionId: "u" }],
    }).map(sessionFigures);
    expect(totalFigures(sessions)).toEqual({
      sessions: 3,
      denials: 2,
      loops: 1,
      sessionsWithLoops: 1,
      wastedCalls: 0,
      wastedTokens: null,
      savedCalls: 0,
      status: { clean: 2, looped: 1, aborted: 0, "blocked-required-call": 0 },
    });
  });

  it("saved sources are toolgate's own", () => {
    expect(
      ["rule", "user", "hook", "headless", "mode", "classifier", "sandbox", "loop", "aborted"].filter(isSavedCall),
    ).toEqual(["loop", "aborted"]);
  });
});

describe("a retry after a denial", () => {
  const denied = (signatures: string[], targets: string[]) => ({ signatures: new Set(signatures), targets });
  it.each<{
    name: string;
    call: { signature: string; targets: string[] };
    of: ReturnType<typeof denied>;
    retry: boolean;
  }>([
    { name: "the same call", call: { signature: "p1", targets: ["a.ts"] }, of: denied(["p1"], ["a.ts"]), retry: true },
    {
      name: "a variant on the same file",
      call: { signature: "rm2", targets: ["build"] },
      of: denied(["rm1"], ["build"]),
      retry: true,
    },
    {
      name: "another file (two rejected patches)",
      call: { signature: "p2", targets: ["b.ts"] },
      of: denied(["p1"], ["a.ts"]),
      retry: false,
    },
    {
      name: "no file after a denial on a file",
      call: { signature: "rg", targets: [] },
      of: denied(["p1"], ["a.ts"]),
      retry: false,
    },
    {
      name: "denied calls on no file: the pattern says",
      call: { signature: "curl2", targets: [] },
      of: denied(["curl1"], []),
      retry: true,
    },
  ])("$name: $retry", ({ call, of, retry }) => {
    expect(retriesDenied({ call, denied: of })).toBe(retry);
  });

  it("targets compare with the given sameTarget", () => {
    const call = { signature: "x", targets: ["/repo/a.ts"] };
    expect(retriesDenied({ call, denied: denied([], ["a.ts"]) })).toBe(false);
    expect(retriesDenied({ call, denied: denied([], ["a.ts"]), sameTarget: (a, b) => a.endsWith(b) })).toBe(true);
  });
});

describe("wasted tokens a live hook recorded", () => {
  it("a session summary with wastedTokens alone: tokens from it, wasted calls still from the denials", () => {
    const session = facts(
      [denied("rm a", { pattern: "rm" }), denied("rm b", { pattern: "rm" }), denied("rm c", { pattern: "rm" })],
      [event("session.summary", 10, { permissionDenialCount: 3, wastedTokens: 240 })],
    );
    expect(sessionFigures(session)).toMatchObject({ wastedCalls: 2, wastedTokens: 240 });
    expect(sessionFigures(facts([denied("rm a", { pattern: "rm" })]))).toMatchObject({ wastedTokens: null });
  });
});
