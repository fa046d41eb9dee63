import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { openTranscript } from "../common/read-transcript.js";
import { classifyTranscriptDenial, findToolUseId, findTranscriptDenials } from "./transcript-denials.js";

const fixtures = join(import.meta.dirname, "..", "..", "..", "test", "fixtures", "claude-code");
const mainTranscript = readFileSync(join(fixtures, "transcript-denials.jsonl"), "utf8");
const subagentTranscript = readFileSync(join(fixtures, "transcript-subagent.jsonl"), "utf8");

describe("findTranscriptDenials (recorded 2.1.330 transcript)", () => {
  it("finds the rule, path and headless-ask denials, and not the failed or successful calls", () => {
    const denials = findTranscriptDenials(mainTranscript);
    expect(denials.map((denial) => [denial.tool, denial.source])).toEqual([
      ["Bash", "rule"],
      ["Read", "rule"],
      ["Bash", "headless"],
    ]);
    const read = denials[1];
    expect(read?.text).toContain("File is in a directory that is denied");
    expect(read?.input).toEqual({ file_path: "/tmp/toolgate-fixture/project/secret.env" });
    expect(read?.decisionReasonType).toBe("rule");
    expect(read?.ruleSource).toBe("projectSettings");
    expect(denials[0]?.input).toMatchObject({ command: "rm -rf ./build" });
    // when Claude Code wrote each refusal, from its result line: a denial found at Stop keeps its place in time
    const times = denials.map((denial) => denial.at);
    expect(times.every((at) => typeof at === "number" && at > Date.UTC(2025, 0, 1))).toBe(true);
    expect(times).toEqual([...times].sort((a, b) => (a as number) - (b as number)));
  });

  it("attributes a subagent transcript's denials to the subagent", () => {
    const denials = findTranscriptDenials(subagentTranscript);
    expect(denials).toHaveLength(1);
    expect(denials[0]?.agentId).toMatch(/^a[0-9a-f]+$/);
    expect(denials[0]?.source).toBe("rule");
  });

  it("reads a person's No (an SDK canUseTool deny) as source user", () => {
    const denials = findTranscriptDenials(readFileSync(join(fixtures, "transcript-user-reject.jsonl"), "utf8"));
    expect(denials).toEqual([expect.objectContaining({ toolUseId: "toolu_main_000_0", tool: "Bash", source: "user" })]);
  });

  it("skips a partial last line", () => {
    const cut = mainTranscript.slice(0, mainTranscript.length - 40);
    expect(() => findTranscriptDenials(cut)).not.toThrow();
  });
});

describe("classifyTranscriptDenial", () => {
  it.each([
    [{ text: "PreToolUse:Bash hook error: nope" }, "hook"],
    [
      {
        text: "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file).",
      },
      "user",
    ],
    [{ text: "<tool_use_error>Error: No such tool available: Bash. Bash is disabled</tool_use_error>" }, "rule"],
    [{ text: "Permission to use Bash with command rm -rf x has been denied." }, "rule"],
    [{ text: "whatever", toolDenialKind: "automode-blocked" }, "classifier"],
    [{ text: "whatever", reasonType: "mode" }, "mode"],
    [{ text: "touch in '/x' needs approval.", toolDenialKind: "user-rejected" }, "headless"],
    [{ text: "Exit code 1\ncat: x: No such file or directory" }, undefined],
  ] as const)("%o -> %s", (input, expected) => {
    expect(classifyTranscriptDenial(input)).toBe(expected);
  });
});

describe("findToolUseId", () => {
  const root = mkdtempSync(join(tmpdir(), "toolgate-tool-use-id-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("finds the newest matching tool_use", () => {
    const id = findToolUseId({
      transcript: mainTranscript,
      tool: "Bash",
      input: { command: "touch new-file.txt", description: "touch new-file.txt" },
    });
    expect(id).toBe("toolu_main_004_0");
  });

  it("returns undefined when nothing matches", () => {
    expect(findToolUseId({ transcript: mainTranscript, tool: "Bash", input: { command: "nope" } })).toBeUndefined();
  });

  it("searched back through the file (a PermissionRequest): the same id as the text gives, for every call shown", () => {
    let compared = 0;
    for (const [name, text] of Object.entries({ main: mainTranscript, subagent: subagentTranscript })) {
      const file = join(root, `${name}.jsonl`);
      writeFileSync(file, text);
      const calls = text
        .split("\n")
        .filter((line) => line.includes('"tool_use"'))
        .flatMap(
          (line) => (JSON.parse(line).message?.content ?? []) as { type?: string; name?: string; input?: unknown }[],
        )
        .filter((block) => block.type === "tool_use");
      for (const call of [...calls, { name: "Bash", input: { command: "nope" } }]) {
        const expected = findToolUseId({ transcript: text, tool: String(call.name), input: call.input });
        for (const chunkBytes of [64, 256 * 1024]) {
          const transcript = openTranscript(file, undefined, { chunkBytes })!;
          expect(findToolUseId({ transcript, tool: String(call.name), input: call.input })).toBe(expected);
        }
        if (expected !== undefined) compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(5);
  });
});

describe("findTranscriptDenials parses only the result lines that can hold a denial", () => {
  it("a line whose results are all marked is_error false is not parsed; spacing after the key does not hide one", () => {
    const ran = (id: string) =>
      JSON.stringify({
        type: "user",
        message: { content: [{ type: "tool_result", tool_use_id: id, is_error: false, content: "ok" }] },
      });
    const use = (id: string) =>
      JSON.stringify({
        type: "assistant",
        message: { content: [{ type: "tool_use", id, name: "Bash", input: { command: "rm -rf x" } }] },
      });
    const refused =
      '{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_r","is_error": true,"content":"Permission to use Bash with command rm -rf x has been denied."}]}}';
    const text = [
      ...Array.from({ length: 20 }, (_, index) => [use(`toolu_${index}`), ran(`toolu_${index}`)]).flat(),
      use("toolu_r"),
      refused,
    ].join("\n");
    const parse = vi.spyOn(JSON, "parse");
    try {
      const denials = findTranscriptDenials(text);
      expect(denials.map((denial) => [denial.toolUseId, denial.input])).toEqual([["toolu_r", { command: "rm -rf x" }]]);
      // the refused result and its call's line: none of the 20 results that ran
      expect(parse).toHaveBeenCalledTimes(2);
    } finally {
      parse.mockRestore();
    }
  });
});
