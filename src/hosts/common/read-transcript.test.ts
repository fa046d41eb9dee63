import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import {
  classifyTranscriptDenial,
  findTranscriptDenialsIn,
  type TranscriptDenial,
} from "../claude-code/transcript-denials.js";
import { transcriptLinesOf } from "./hook-host.js";
import { openTranscript, readTranscript, transcriptOpenerForOneEvent } from "./read-transcript.js";
import { usageTokens } from "./usage-tokens.js";

const root = mkdtempSync(join(tmpdir(), "toolgate-transcript-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * The straightforward parser the search replaced: every line decoded and parsed, tool_use blocks kept in a map, each
 * with the line it came from (`place`: a line's position counted in lines, as in text, or in bytes, as in a file).
 */
function referenceDenials(text: string, place: "line" | "byte" = "line"): TranscriptDenial[] {
  const uses = new Map<string, { tool: string; input: unknown; callLine: NonNullable<TranscriptDenial["callLine"]> }>();
  const denials: TranscriptDenial[] = [];
  let offset = 0;
  for (const [index, raw] of text.split("\n").entries()) {
    const at = place === "line" ? index : offset;
    offset += Buffer.byteLength(raw) + 1;
    if (!raw.includes('"tool_use"') && !raw.includes('"tool_result"')) continue;
    // biome-ignore lint/suspicious/noExplicitAny: a reference parser over whatever JSON a line holds
    let line: Record<string, any>;
    try {
      line = JSON.parse(raw);
    } catch {
      continue;
    }
    // biome-ignore lint/suspicious/noExplicitAny: as above
    const blocks: Record<string, any>[] = Array.isArray(line?.message?.content) ? line.message.content : [];
    if (line.type === "assistant") {
      const calls = blocks.filter((block) => block.type === "tool_use").map((block) => String(block.id));
      const messageId = typeof line.message?.id === "string" ? line.message.id : undefined;
      const callLine = { at, messageId, usage: usageTokens(line.message?.usage), calls };
      for (const block of blocks)
        if (block.type === "tool_use" && typeof block.id === "string")
          uses.set(block.id, { tool: String(block.name), input: block.input, callLine });
      continue;
    }
    if (line.type !== "user") continue;
    for (const block of blocks) {
      if (block.type !== "tool_result" || block.is_error !== true || typeof block.tool_use_id !== "string") continue;
      const text =
        typeof block.content === "string"
          ? block.content
          : Array.isArray(block.content)
            ? block.content.map((part: { text?: unknown }) => (typeof part.text === "string" ? part.text : "")).join("")
            : "";
      const rejected = line.permissionDecision?.decision === "reject" || line.toolDenialKind !== undefined;
      const source = classifyTranscriptDenial({
        text,
        toolDenialKind: line.toolDenialKind,
        reasonType: rejected ? line.permissionDecision?.reasonType : undefined,
        decisionSource: rejected ? line.permissionDecision?.source : undefined,
      });
      if (source === undefined) continue;
      const use = uses.get(block.tool_use_id);
      const denial: TranscriptDenial = {
        toolUseId: block.tool_use_id,
        tool: use?.tool ?? /No such tool available: ([\w.-]+)/.exec(text)?.[1] ?? "unknown",
        input: use?.input ?? {},
        text,
        source,
      };
      if (rejected && line.permissionDecision?.reasonType)
        denial.decisionReasonType = line.permissionDecision.reasonType;
      if (rejected && line.permissionDecision?.ruleSource) denial.ruleSource = line.permissionDecision.ruleSource;
      if (line.agentId) denial.agentId = line.agentId;
      if (use !== undefined) denial.callLine = use.callLine;
      // when Claude Code wrote the refusal
      const written = typeof line.timestamp === "string" ? Date.parse(line.timestamp) : Number.NaN;
      if (Number.isFinite(written) && written > 0) denial.at = written;
      denials.push(denial);
    }
  }
  return denials;
}

/** Every Claude Code transcript the repository holds (recorded from the real binary). */
function fixtureTranscripts(): string[] {
  const found: string[] = [];
  const walk = (directory: string) => {
    for (const name of readdirSync(directory)) {
      const path = join(directory, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".jsonl")) found.push(path);
    }
  };
  walk(join(import.meta.dirname, "..", "..", "..", "test", "fixtures", "claude-code"));
  walk(join(import.meta.dirname, "..", "..", "..", "test", "fixtures", "transcripts", "claude-code"));
  return found;
}

const user = (blocks: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: "user", message: { content: blocks }, ...extra });
const assistant = (blocks: unknown[]) => JSON.stringify({ type: "assistant", message: { content: blocks } });
const use = (id: string, command: string) => ({ type: "tool_use", id, name: "Bash", input: { command } });
const denied = (id: string) => ({
  type: "tool_result",
  tool_use_id: id,
  is_error: true,
  content: "Permission to use Bash with command rm -rf x has been denied.",
});

/** Transcripts that probe the pairing: reused ids, uses after results, ids in other lines, partial lines, UTF-8. */
const EDGES: Record<string, string> = {
  "a tool_use written twice: the newer one before the result wins": [
    assistant([use("toolu_1", "rm -rf old")]),
    assistant([use("toolu_1", "rm -rf new")]),
    user([denied("toolu_1")]),
  ].join("\n"),
  "a tool_use only after its result: not paired": [user([denied("toolu_2")]), assistant([use("toolu_2", "late")])].join(
    "\n",
  ),
  "the id in lines between (progress, text): skipped for the tool_use": [
    assistant([use("toolu_3", "rm -rf ünïcødé ✓")]),
    JSON.stringify({ type: "progress", toolUseID: "toolu_3", data: "…" }),
    assistant([{ type: "text", text: 'about "toolu_3" and "tool_use"' }]),
    user([denied("toolu_3")], { toolDenialKind: "permission-rule" }),
  ].join("\n"),
  "is_error false, a non-denial error, and a cut last line": [
    assistant([use("toolu_4", "ls"), use("toolu_5", "cat x")]),
    user([{ type: "tool_result", tool_use_id: "toolu_4", is_error: false, content: "ok" }]),
    user([{ type: "tool_result", tool_use_id: "toolu_5", is_error: true, content: "cat: x: No such file" }]),
    user([denied("toolu_5")]).slice(0, 40),
  ].join("\n"),
  "several results in one line, one of them twice": [
    assistant([use("toolu_6", "a"), use("toolu_7", "b")]),
    user([denied("toolu_6"), denied("toolu_7"), denied("toolu_6")], { agentId: "sub-1" }),
  ].join("\n"),
};

describe("finding a transcript's denials by searching its lines", () => {
  const cases: [string, string][] = [
    ...fixtureTranscripts().map((path): [string, string] => [
      path.split("/test/fixtures/")[1]!,
      readFileSync(path, "utf8"),
    ]),
    ...Object.entries(EDGES),
  ];

  it.each(cases)("equals the line-by-line parser, from text and from the file's bytes: %s", (name, text) => {
    const expected = referenceDenials(text);
    expect(findTranscriptDenialsIn(transcriptLinesOf(text))).toEqual(expected);
    const file = join(root, `${name.replace(/[^A-Za-z0-9]+/g, "-")}.jsonl`);
    writeFileSync(file, text);
    expect(findTranscriptDenialsIn(openTranscript(file)!)).toEqual(referenceDenials(text, "byte"));
  });

  it("finds denials in the recorded fixtures (the comparison above is not over empty lists)", () => {
    const total = cases.reduce((sum, [, text]) => sum + referenceDenials(text).length, 0);
    expect(total).toBeGreaterThan(20);
    expect(
      referenceDenials(EDGES["a tool_use written twice: the newer one before the result wins"]!)[0]?.input,
    ).toEqual({ command: "rm -rf new" });
  });

  it("reads the same text as readTranscript, and nothing from what is not a regular file", () => {
    const file = join(root, "plain.jsonl");
    writeFileSync(file, `${assistant([use("toolu_8", "x")])}\n${user([denied("toolu_8")])}\n`);
    expect(
      openTranscript(file)!
        .linesWith(['"is_error"'])
        .map(({ line }) => line),
    ).toEqual(
      readTranscript(file)!
        .split("\n")
        .filter((line) => line.includes('"is_error"')),
    );
    expect(openTranscript(root)).toBeUndefined();
    expect(openTranscript(join(root, "missing.jsonl"))).toBeUndefined();
  });
});

describe("openTranscript's linesWith, many needles with a common prefix", () => {
  const root = mkdtempSync(join(tmpdir(), "toolgate-lines-with-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("finds the lines every needle's own search finds (one prefix search, each hit compared)", () => {
    const file = join(root, "ids.jsonl");
    const part = fc.constantFrom("toolu_01", "toolu_012", "toolu_02", "toolu_0", "tool", "é", "x", " ", "\n", '"');
    const needle = fc.constantFrom("toolu_01", "toolu_012", "toolu_02", "toolu_0é", "toolu_03");
    fc.assert(
      fc.property(
        fc.array(part, { maxLength: 40 }),
        fc.array(needle, { minLength: 4, maxLength: 6 }),
        (parts, needles) => {
          const text = parts.join("");
          writeFileSync(file, text);
          const expected = text.split("\n").filter((line) => needles.some((each) => line.includes(each)));
          expect(
            openTranscript(file)!
              .linesWith(needles)
              .map(({ line }) => line),
          ).toEqual(expected);
        },
      ),
      { numRuns: 1500 },
    );
  });
});

describe("openTranscript's linesWith, one needle searched by its part from a `_` on", () => {
  const root = mkdtempSync(join(tmpdir(), "toolgate-lines-with-anchor-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("finds the lines that hold the needle, and only those (each place its anchor occurs compared whole)", () => {
    const file = join(root, "anchored.jsonl");
    // pieces that hold the anchor (`_error"`, `_use"`) without the needle, the needle split, and both at the file's ends
    const part = fc.constantFrom(
      '"is_error"',
      'is_error"',
      '_error"',
      '"is_err',
      '"tool_use"',
      'tool_use"',
      '_use"',
      "_",
      "é",
      "x",
      "\n",
      '"',
    );
    const needle = fc.constantFrom('"is_error"', '"tool_use"', "_error", '_use"', 'x_"', "no_such");
    fc.assert(
      fc.property(fc.array(part, { maxLength: 40 }), needle, (parts, each) => {
        const text = parts.join("");
        writeFileSync(file, text);
        const expected = text.split("\n").filter((line) => line.includes(each));
        expect(
          openTranscript(file)!
            .linesWith([each])
            .map(({ line }) => line),
        ).toEqual(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it("searches only after a cursor that still holds, however the anchor straddles it", () => {
    const file = join(root, "cursor.jsonl");
    writeFileSync(file, '{"is_error":true,"a":1}\n{"b":"_error\\""}\n');
    const first = openTranscript(file)!;
    writeFileSync(file, `${readFileSync(file, "utf8")}{"is_error":false}\n{"c":2}\n`);
    const lines = openTranscript(file, first.next)!.linesWith(['"is_error"']);
    expect(lines.map(({ line }) => line)).toEqual(['{"is_error":false}']);
  });
});

describe("transcriptOpenerForOneEvent", () => {
  it("reads a transcript once per event: every open sees the bytes of the first read; a new event reads anew", () => {
    const file = join(root, "one-event.jsonl");
    writeFileSync(file, '{"id":"call_1"}\n');
    const open = transcriptOpenerForOneEvent();
    expect(
      open(file)
        ?.linesWith(["call_1"])
        .map((line) => line.line),
    ).toEqual(['{"id":"call_1"}']);
    // the host appends while the event runs: the event keeps the view it started with
    writeFileSync(file, '{"id":"call_1"}\n{"id":"call_2"}\n');
    expect(open(file)?.linesWith(["call_2"])).toEqual([]);
    expect(open(file)?.next?.offset).toBe('{"id":"call_1"}\n'.length);
    // another path is read for itself, and the next event sees the file as it is now
    const other = join(root, "other-event.jsonl");
    writeFileSync(other, '{"id":"call_9"}\n');
    expect(open(other)?.linesWith(["call_9"])).toHaveLength(1);
    expect(
      transcriptOpenerForOneEvent()(file)
        ?.linesWith(["call_2"])
        .map((line) => line.line),
    ).toEqual(['{"id":"call_2"}']);
    expect(transcriptOpenerForOneEvent()(join(root, "missing.jsonl"))).toBeUndefined();
  });
});

/**
 * What `openTranscript` answers, computed the plain way over the file's bytes held whole (as it was read before
 * the searches read through a window): the reference the windowed reads are compared with at every chunk size.
 */
function referenceLines(bytes: Buffer, cursor?: { offset: number; check: string }) {
  const lines: { at: number; end: number }[] = [];
  for (let at = 0; at < bytes.length; ) {
    const newline = bytes.indexOf(10, at);
    const end = newline < 0 ? bytes.length : newline;
    lines.push({ at, end });
    at = end + 1;
  }
  const lastNewline = bytes.lastIndexOf(10);
  const checkOf = (offset: number) => {
    const lineStart = offset >= 2 ? bytes.lastIndexOf(10, offset - 2) + 1 : 0;
    return bytes.toString("base64", Math.max(lineStart, offset - 1024), offset);
  };
  const holds =
    cursor !== undefined &&
    cursor.offset > 0 &&
    cursor.offset <= bytes.length &&
    bytes[cursor.offset - 1] === 10 &&
    checkOf(cursor.offset) === cursor.check;
  const start = holds ? cursor.offset : 0;
  const text = (line: { at: number; end: number }) => bytes.toString("utf8", line.at, line.end);
  return {
    next: lastNewline < 0 ? undefined : { offset: lastNewline + 1, check: checkOf(lastNewline + 1) },
    linesWith: (needles: readonly string[]) =>
      lines
        .filter((line) => line.at >= start)
        .filter((line) => needles.some((needle) => bytes.subarray(line.at, line.end).includes(needle)))
        .map((line) => ({ line: text(line), at: line.at })),
    lastWith: (needle: string, before: number, pick: (line: string, at: number) => string | undefined) => {
      const pattern = Buffer.from(needle);
      for (const line of [...lines].reverse()) {
        // a match must end at or before `before`
        const end = Math.min(line.end, before);
        if (end <= line.at || !bytes.subarray(line.at, end).includes(pattern)) continue;
        const value = pick(text(line), line.at);
        if (value !== undefined) return value;
      }
      return undefined;
    },
  };
}

describe("openTranscript reads through a window: the same answers as the bytes held whole, at every window size", () => {
  const root = mkdtempSync(join(tmpdir(), "toolgate-transcript-window-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const part = fc.constantFrom(
    '"is_error"',
    '_error"',
    '"tool_use"',
    "toolu_01",
    "toolu_012",
    "toolu_02",
    "é✓",
    "x",
    "y",
    " ",
    "\n",
    "\n",
    '"',
    "a".repeat(40),
  );
  const needles = fc.constantFrom(
    ['"is_error"'],
    ['"tool_use"'],
    ["x"],
    ["é✓"],
    ["toolu_01", "toolu_012", "toolu_02", "toolu_03"],
    ['"is_error"', "y"],
    ["absent_needle"],
  );

  it("linesWith, lastWith and the next cursor, with and without a cursor, windows of 1 to 24 bytes and the default", () => {
    const file = join(root, "window.jsonl");
    fc.assert(
      fc.property(
        fc.array(part, { maxLength: 60 }),
        fc.array(part, { maxLength: 20 }),
        needles,
        fc.integer({ min: 1, max: 24 }),
        fc.nat(),
        fc.constantFrom('"is_error"', "x", "toolu_0", "é"),
        (parts, appended, each, chunkBytes, beforeSeed, backNeedle) => {
          const first = Buffer.from(parts.join(""));
          writeFileSync(file, first);
          const window = openTranscript(file, undefined, { chunkBytes })!;
          const reference = referenceLines(first);
          expect(window.next).toEqual(reference.next);
          expect(window.linesWith(each)).toEqual(reference.linesWith(each));
          const before = beforeSeed % (first.length + 2);
          // pick only lines holding a `y`: the search goes on past the lines it declines (each with its position)
          const pick = (line: string, at: number) => (line.includes("y") ? `${at} ${line}` : undefined);
          expect(window.lastWith(backNeedle, before, pick)).toEqual(reference.lastWith(backNeedle, before, pick));
          expect(openTranscript(file, undefined, {})!.linesWith(each)).toEqual(reference.linesWith(each));
          // every line, in order, each decoded only when kept by its bytes (the bytes handed over are the line's)
          const handed: string[] = [];
          const keep = (bytes: Buffer) => {
            handed.push(bytes.toString("utf8"));
            return !bytes.includes("y");
          };
          const everyLine = first
            .toString("utf8")
            .split("\n")
            .filter((line) => line !== "");
          expect([...window.eachLine(keep)]).toEqual(everyLine.filter((line) => !line.includes("y")));
          expect(handed).toEqual(everyLine);
          // the host appends; the next event reads after the cursor when it holds
          const grown = Buffer.concat([first, Buffer.from(appended.join(""))]);
          writeFileSync(file, grown);
          const cursor = window.next;
          const after = openTranscript(file, cursor, { chunkBytes })!;
          const expected = referenceLines(grown, cursor);
          expect(after.linesWith(each)).toEqual(expected.linesWith(each));
          expect(after.next).toEqual(expected.next);
          if (cursor !== undefined) {
            const stale = openTranscript(file, { ...cursor, check: "bm90IGl0" }, { chunkBytes })!;
            expect(stale.linesWith(each)).toEqual(referenceLines(grown).linesWith(each));
          }
        },
      ),
      { numRuns: 2500 },
    );
  });

  it("a transcript over 32 MiB: only its last 32 MiB from a line boundary, offsets counted from there, no cursor", () => {
    const file = join(root, "large.jsonl");
    const filler = `${"z".repeat(1023)}\n`;
    const head = filler.repeat(33 * 1024);
    const tail = '{"is_error":true,"id":"last"}\n{"tail":1}';
    writeFileSync(file, `${head}${tail}`);
    const size = statSync(file).size;
    const view = openTranscript(file)!;
    expect(view.next).toBeUndefined();
    const found = view.linesWith(['"is_error"']);
    expect(found.map(({ line }) => line)).toEqual(['{"is_error":true,"id":"last"}']);
    // the view starts after the first newline at or after size - 32 MiB: offsets count from there
    const viewStart = size - 32 * 1024 * 1024 + (filler.length - ((size - 32 * 1024 * 1024) % filler.length));
    expect(found[0]!.at).toBe(head.length - viewStart);
    expect(view.lastWith('"tail"', Number.MAX_SAFE_INTEGER, (line) => line)).toBe('{"tail":1}');
    expect(view.lastWith("z", 5000, (line) => line.length)).toBe(1023);
  });

  it("a transcript replaced or cut between an event's searches fails the next read; one appended to is read as it was", async () => {
    const file = join(root, "changing.jsonl");
    writeFileSync(file, '{"is_error":true,"n":1}\n{"n":2}\n');
    const open = transcriptOpenerForOneEvent();
    open(file);
    writeFileSync(file, '{"is_error":true,"n":1}\n{"n":2}\n{"is_error":true,"n":3}\n');
    expect(
      open(file)!
        .linesWith(['"is_error"'])
        .map(({ line }) => line),
    ).toEqual(['{"is_error":true,"n":1}']);
    // a small window, so the next search reads the file again (a window holds what it read as it was read); the
    // descriptor of one synchronous search is closed once it ends (a search in progress reads the file it opened)
    const cut = openTranscript(file, undefined, { chunkBytes: 8 })!;
    await new Promise((resolve) => setImmediate(resolve));
    writeFileSync(file, '{"n":0}\n');
    expect(() => cut.linesWith(['"is_error"'])).toThrow(/replaced or cut/);
    writeFileSync(file, '{"is_error":true,"n":1}\n{"n":2}\n');
    const replaced = openTranscript(file, undefined, { chunkBytes: 8 })!;
    await new Promise((resolve) => setImmediate(resolve));
    const other = join(root, "other.jsonl");
    writeFileSync(other, '{"is_error":true,"n":9}\n{"n":8}\n');
    renameSync(other, file);
    expect(() => replaced.linesWith(['"is_error"'])).toThrow(/replaced or cut/);
  });
});

describe("a search reads each window of the file once", () => {
  /** bytes this process read from files and pipes while `run` ran (Linux: /proc/self/io; synchronous searches) */
  const bytesRead = (run: () => unknown): number => {
    const rchar = () => Number(/^rchar: (\d+)$/m.exec(readFileSync("/proc/self/io", "utf8"))?.[1]);
    const before = rchar();
    run();
    return rchar() - before;
  };
  // the recorded stubborn session 14 times over (2.1 MB), each copy's ids its own: refusals all through the file
  const text = readFileSync(
    fixtureTranscripts().find((path) => path.endsWith("transcripts/claude-code/stubborn.session.jsonl"))!,
    "utf8",
  ).trimEnd();
  const file = join(root, "long.jsonl");
  writeFileSync(
    file,
    `${Array.from({ length: 14 }, (_, copy) => text.replaceAll("toolu_", `toolu_${copy}x`)).join("\n")}\n`,
  );
  const size = statSync(file).size;
  const readable = process.platform === "linux";

  it.runIf(readable)("linesWith decodes each line it finds while the window holds it: one pass over the file", () => {
    let lines: { line: string }[] = [];
    const read = bytesRead(() => {
      lines = openTranscript(file)!.linesWith(['"is_error"']);
    });
    expect(lines.length).toBe(42);
    // before, the lines were decoded after the search, in file order: the file was read a second time
    expect(read).toBeLessThan(1.3 * size);
  });

  it.runIf(readable)("a Stop's refusals are paired with their calls newest first, in the windows already read", () => {
    let found = 0;
    const read = bytesRead(() => {
      found = findTranscriptDenialsIn(openTranscript(file)!).filter((denial) => denial.tool === "Bash").length;
    });
    expect(found).toBe(42);
    // before: 7 times the file (a window read again for each refusal, and every line found read twice)
    expect(read).toBeLessThan(2.3 * size);
  });
});
