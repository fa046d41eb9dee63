import { describe, expect, test } from "vitest";
import { clineCommandFailed, clineResultText, clineToolCall, clineToolName, readClineCall } from "./cline-call.js";

const read = (toolName: string, input: unknown) => readClineCall({ toolCallId: "c", toolName, input });
const inputs = (toolName: string, input: unknown) => {
  const reading = read(toolName, input);
  return "calls" in reading ? reading.calls.map((call) => call.input) : reading;
};

describe("clineToolCall", () => {
  test("run_commands' commands are one shell script, one command a line", () => {
    expect(
      clineToolCall({ toolCallId: "call_1", toolName: "run_commands", input: { commands: ["ls", "rm -rf build"] } }),
    ).toEqual({ toolUseId: "call_1", tool: "run_commands", input: { command: "ls\nrm -rf build" } });
  });

  test("every run_commands shape Cline accepts is read; an argv is written as the line a shell would need", () => {
    const git = { command: "git", args: ["push", "--force", "a b", "it's"] };
    const line = "git push --force 'a b' 'it'\\''s'";
    const cases: [unknown, string][] = [
      [git, line],
      [[git, { command: "rm", args: [] }], `${line}\nrm`],
      [{ commands: ["ls", git, { command: "echo hi > x" }] }, `ls\n${line}\necho hi > x`],
      [{ commands: git }, line],
      [{ commands: "rm -rf /" }, "rm -rf /"],
      ["rm -rf /", "rm -rf /"],
      [["ls", "rm -rf /"], "ls\nrm -rf /"],
      [{ command: "rm -rf /" }, "rm -rf /"],
      [{ cmd: "rm -rf /" }, "rm -rf /"],
      // Cline keeps the first form its schema matches; toolgate reads every command field
      [{ commands: ["ls"], command: "rm -rf /" }, "ls\nrm -rf /"],
    ];
    for (const [input, command] of cases) expect(inputs("run_commands", input)).toEqual([{ command }]);
  });

  test("a run_commands input toolgate cannot read is unreadable, with the call as Cline sent it", () => {
    for (const input of [null, 7, {}, { commands: [7] }, { commands: [] }, { command: "git", args: [1] }, [""]]) {
      expect(read("run_commands", input)).toEqual({
        unreadable: expect.any(String),
        call: { toolUseId: "c", tool: "run_commands", input },
      });
      // a transcript keeps the call as Cline sent it
      expect(clineToolCall({ toolCallId: "c", toolName: "run_commands", input }).input).toEqual(input);
    }
  });

  test("read_files: one call per file, in every shape Cline accepts; the first keeps Cline's id", () => {
    const two = [{ path: "/a" }, { path: "/etc/shadow" }];
    expect(read("read_files", { files: [{ path: "/a", start_line: 1 }, { path: "/etc/shadow" }] })).toEqual({
      calls: [
        { toolUseId: "c", tool: "read_files", input: { path: "/a" } },
        { toolUseId: "c#2", tool: "read_files", input: { path: "/etc/shadow" } },
      ],
    });
    const cases: unknown[] = [
      ["/a", "/etc/shadow"],
      ["/a", { start_line: 2, end_line: 3 }, { file_path: "/etc/shadow" }],
      [{ filePath: "/a" }, { path: "/etc/shadow" }],
      { files: ["/a", { path: "/etc/shadow" }] },
      { file_paths: ["/a", "/etc/shadow"] },
      { paths: ["/a", "/etc/shadow"] },
      { files: "/a", paths: { path: "/etc/shadow" } },
    ];
    for (const input of cases) expect(inputs("read_files", input)).toEqual(two);
    expect(inputs("read_files", "/etc/shadow")).toEqual([{ path: "/etc/shadow" }]);
    expect(inputs("read_files", { file_path: "/etc/shadow" })).toEqual([{ path: "/etc/shadow" }]);
    for (const input of [null, {}, [], { files: [] }, { files: [7] }, { path: 7 }, { files: [{ line: 1 }] }, ""]) {
      expect(read("read_files", input)).toMatchObject({ unreadable: expect.any(String) });
    }
  });

  test("apply_patch: one call per file the patch adds, updates, deletes or moves to", () => {
    const patch = [
      "*** Begin Patch",
      "*** Add File: /etc/cron.d/x",
      "+* * * * * root sh",
      "*** Update File: src/a.ts\r",
      "*** Move to: /etc/b.ts",
      "@@",
      "-a",
      "+b",
      "*** Delete File:  old.txt ",
      "*** End Patch",
    ].join("\n");
    const paths = [{ path: "/etc/cron.d/x" }, { path: "src/a.ts" }, { path: "/etc/b.ts" }, { path: "old.txt" }];
    expect(inputs("apply_patch", { input: patch })).toEqual(paths);
    expect(inputs("apply_patch", patch)).toEqual(paths);
    for (const input of [null, {}, { input: 7 }, { input: "*** Begin Patch\n*** End Patch" }]) {
      expect(read("apply_patch", input)).toMatchObject({ unreadable: expect.any(String) });
    }
  });

  test("fetch_web_content: one call per request", () => {
    expect(
      inputs("fetch_web_content", {
        requests: [{ url: "https://a.example", prompt: "p" }, { url: "https://b.example" }],
      }),
    ).toEqual([{ url: "https://a.example", prompt: "p" }, { url: "https://b.example" }]);
    for (const input of [null, { url: "https://a.example" }, { requests: [] }, { requests: [{ prompt: "p" }] }]) {
      expect(read("fetch_web_content", input)).toMatchObject({ unreadable: expect.any(String) });
    }
  });

  test("an MCP tool (Cline's `<server>__<tool>`) is `mcp__<server>__<tool>`; Cline's own tools keep their names", () => {
    expect(clineToolName("github__delete_repo")).toBe("mcp__github__delete_repo");
    expect(clineToolName("my-server__tool_1a2b3c4d")).toBe("mcp__my-server__tool_1a2b3c4d");
    for (const name of ["run_commands", "read_files", "apply_patch", "spawn_agent", "team_run_task", "__x", "x__"]) {
      expect(clineToolName(name)).toBe(name);
    }
    expect(clineToolName("mcp__github__x")).toBe("mcp__github__x");
    expect(clineToolName(7)).toBe("");
    expect(read("github__delete_repo", { repo: "x/y" })).toEqual({
      calls: [{ toolUseId: "c", tool: "mcp__github__delete_repo", input: { repo: "x/y" } }],
    });
  });

  test("another tool's input is kept as it is", () => {
    expect(clineToolCall({ toolCallId: "c", toolName: "editor", input: { path: "/a" } }).input).toEqual({ path: "/a" });
    expect(clineToolCall({ toolCallId: 7, toolName: undefined, input: {} })).toMatchObject({ toolUseId: "", tool: "" });
  });
});

describe("run_commands results", () => {
  test("the text the model read, and whether a command failed", () => {
    const output = [
      { query: "echo hi", result: "hi\n", success: true },
      { query: "false", result: "[Command exited with code 1]", error: "Command exited with code 1", success: false },
    ];
    expect(clineResultText(output)).toBe("hi\n\n[Command exited with code 1]");
    expect(clineCommandFailed(output)).toBe(true);
    expect(clineCommandFailed(output.slice(0, 1))).toBe(false);
    expect(clineResultText({ error: "x" })).toBe('{"error":"x"}');
  });
});
