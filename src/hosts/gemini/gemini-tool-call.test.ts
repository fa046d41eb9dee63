import { describe, expect, it } from "vitest";
import { createGuard } from "../../guard/create-guard.js";
import { compilePolicy } from "../../policy/compile-policy.js";
import type { HookContext } from "../common/hook-host.js";
import { parseGeminiHookInput } from "./gemini-hook-input.js";
import { handleGeminiHook } from "./handle-gemini-hook.js";

const PROJECT = "/tmp/toolgate-fixture/proj";

/** A guard with deny rules for `./secrets/**`, `./@scoped/**` and `~/.ssh/**` beside toolgate's defaults. */
function context(): HookContext {
  const policy = compilePolicy({
    rules: [
      { rule: "Read(./secrets/**)", behavior: "deny" },
      { rule: "Edit(./secrets/**)", behavior: "deny" },
      { rule: "Read(./@scoped/**)", behavior: "deny" },
      { rule: "Read(~/.ssh/**)", behavior: "deny" },
    ],
    cwd: PROJECT,
    homeDir: "/tmp/toolgate-fixture/home",
  });
  const guard = createGuard({ policy, onError: () => undefined });
  const session = guard.session("s1", { interactive: false, host: "gemini" });
  return { session, interactive: false, readTranscript: () => undefined };
}

function beforeTool(tool_name: string, tool_input: unknown, cwd: string | null = PROJECT) {
  const event = { session_id: "g", hook_event_name: "BeforeTool", tool_name, tool_input, ...(cwd ? { cwd } : {}) };
  return parseGeminiHookInput(JSON.stringify(event));
}

async function decision(tool: string, input: unknown, hook = context()) {
  return (await handleGeminiHook(beforeTool(tool, input), hook)).output?.decision ?? "pass";
}

describe("regression: a Gemini file tool's path is decided as Gemini CLI 0.61.0 resolves it (`@`, percent escapes)", () => {
  it.each([
    ["read_file", { file_path: "@secrets/id_rsa" }],
    ["read_file", { file_path: "@/secrets/id_rsa" }],
    ["read_file", { file_path: "%73ecrets/id_rsa" }],
    ["read_file", { file_path: "a/%2e%2e/secrets/id_rsa" }],
    ["read_file", { file_path: "secr\0ets/id_rsa" }],
    ["read_file", { file_path: "~/../secrets/id_rsa" }],
    ["write_file", { file_path: "@secrets/id_rsa", content: "x" }],
    ["write_file", { file_path: `${PROJECT}/secret%73/id_rsa`, content: "x" }],
    ["replace", { file_path: "@secrets/id_rsa", old_string: "a", new_string: "b", instruction: "x" }],
    ["replace", { file_path: `${PROJECT}/secret%73/id_rsa`, old_string: "a", new_string: "b", instruction: "x" }],
    ["glob", { pattern: "*", dir_path: "secret%73" }],
    ["grep_search", { pattern: "KEY", dir_path: "secret%73" }],
    ["search_file_content", { pattern: "KEY", dir_path: `${PROJECT}/secret%73` }],
  ])("%s %j is denied", async (tool, input) => {
    expect(await decision(tool, input)).toBe("deny");
  });

  it("a path field Gemini does not read cannot hide the one it reads", async () => {
    expect(await decision("list_directory", { dir_path: "secrets", path: "src" })).toBe("deny");
    expect(await decision("glob", { pattern: "*", dir_path: "secrets", file_path: "src/a.ts" })).toBe("deny");
    expect(await decision("grep_search", { pattern: "KEY", dir_path: "secrets", absolute_path: "/tmp" })).toBe("deny");
  });

  it("a path Gemini may read with its `@` (when that exists on disk) is decided that way too, and `~` as before", async () => {
    expect(await decision("read_file", { file_path: "@scoped/x" })).toBe("deny");
    expect(await decision("read_file", { file_path: "~/.ssh/id_rsa" })).toBe("deny");
    expect(await decision("read_file", { file_path: "@~/.ssh/id_rsa" })).toBe("deny");
  });

  it("leaves other paths to Gemini, and decides an ordinary path on the input as Gemini sent it", async () => {
    for (const path of ["src/a.ts", "@src/a.ts", "%73rc/a.ts", "secrets%zz/a"]) {
      expect(await decision("read_file", { file_path: path }), path).toBe("pass");
    }
    expect(await decision("list_directory", { dir_path: "secret%73" })).toBe("pass");
    const hook = context();
    await handleGeminiHook(beforeTool("read_file", { file_path: "secrets/id_rsa" }), hook);
    await handleGeminiHook(beforeTool("read_file", { file_path: "@secrets/id_rsa" }), hook);
    const inputs = (await hook.session.state()).records.map((record) => record.input);
    expect(inputs).toEqual([
      { file_path: "secrets/id_rsa" },
      { file_path: `${PROJECT}/secrets/id_rsa`, paths: [`${PROJECT}/@secrets/id_rsa`] },
    ]);
  });

  it("refuses a path it cannot read as Gemini reads it, as a validation refusal", async () => {
    const cases: [string, unknown, string | null][] = [
      ["read_file", { file_path: "secrets/id_rsa%00" }, PROJECT],
      ["glob", { pattern: "*", dir_path: "a\0b" }, PROJECT],
      ["read_file", { file_path: 7 }, PROJECT],
      ["read_file", {}, PROJECT],
      ["read_file", { file_path: "@secrets/id_rsa" }, null],
    ];
    for (const [tool, input, cwd] of cases) {
      const hook = context();
      const answer = await handleGeminiHook(beforeTool(tool, input, cwd), hook);
      expect(answer.output?.decision, JSON.stringify(input)).toBe("deny");
      expect(answer.output?.reason).toMatch(/cannot read the input of this/);
      expect((await hook.session.state()).records.map((record) => record.source)).toEqual(["validation"]);
    }
  });
});
