import { describe, expect, it } from "vitest";
import { callTargets } from "./call-targets.js";
import { compilePolicy } from "./compile-policy.js";

const policy = (deny: string[], allow: string[] = []) =>
  compilePolicy({
    rules: [
      ...deny.map((rule) => ({ rule, behavior: "deny" as const })),
      ...allow.map((rule) => ({ rule, behavior: "allow" as const })),
    ],
    cwd: "/work/project",
    homeDir: "/home/me",
  });

const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch", ""].join("\n");

describe("a call with several targets, or its target where rules do not look", () => {
  it("a patch is decided on every file it names (Codex's apply_patch: Edit rules missed it)", () => {
    const rules = policy(["Edit(./secrets/**)"]);
    const decide = (input: unknown) => rules.evaluate({ tool: "apply_patch", input }).behavior;
    expect(decide({ command: patch("*** Add File: secrets/x.txt", "+pwned") })).toBe("deny");
    expect(decide({ command: patch("*** Update File: src/a.ts", "*** Move to: secrets/a.ts") })).toBe("deny");
    expect(decide({ input: patch("*** Update File: src/a.ts", "*** Delete File: secrets/b") })).toBe("deny");
    expect(decide(patch("*** Add File: /work/project/secrets/c", "+x"))).toBe("deny");
    // opencode's and Kilo's apply_patch, and the AI SDK's OpenAI apply_patch
    expect(decide({ patchText: patch("*** Add File: secrets/d", "+x") })).toBe("deny");
    expect(decide({ callId: "c", operation: { type: "create_file", path: "secrets/e", diff: "+x" } })).toBe("deny");
    expect(decide({ callId: "c", operation: { type: "update_file", path: "src/e", diff: "+x" } })).not.toBe("deny");
    expect(decide({ command: patch("*** Update File: src/a.ts", "@@", "-a", "+b") })).not.toBe("deny");
    // a patch that names no file cannot be checked: it is not allowed unasked
    expect(decide({ command: patch("+nothing named") })).not.toBe("allow");
    expect(
      policy([], ["Edit(./src/**)"]).evaluate({ tool: "apply_patch", input: { command: patch() } }).behavior,
    ).not.toBe("allow");
  });

  it("a rule's deny on any target is the call's, also headless where another target only needs approval", () => {
    const rules = policy(["Edit(./secrets/**)"]);
    const decided = rules.evaluate(
      { tool: "apply_patch", input: { command: patch("*** Add File: /elsewhere/a", "*** Add File: secrets/b") } },
      { interactive: false },
    );
    expect(decided).toMatchObject({ behavior: "deny", rule: "Edit(./secrets/**)" });
  });

  it("an allow rule allows a patch only when it covers every file", () => {
    const rules = policy([], ["Edit(./src/**)"]);
    const decide = (input: unknown) => rules.evaluate({ tool: "apply_patch", input }, { interactive: true }).behavior;
    expect(decide({ command: patch("*** Update File: src/a.ts", "*** Add File: src/b.ts") })).toBe("allow");
    expect(decide({ command: patch("*** Update File: src/a.ts", "*** Add File: docs/b.md") })).toBe("ask");
  });

  it("`paths` is decided entry by entry, a string or strings (Copilot CLI's grep and glob)", () => {
    const rules = policy(["Read(//outside/**)"]);
    const decide = (tool: string, input: unknown) => rules.evaluate({ tool, input }).behavior;
    expect(decide("grep", { pattern: "x", paths: ["/work/project/src", "/outside/secret.txt"] })).toBe("deny");
    expect(decide("glob", { pattern: "*", paths: "/outside" })).not.toBe("allow");
    expect(decide("glob", { pattern: "*", paths: "/outside/a" })).toBe("deny");
    expect(decide("grep", { pattern: "x", path: "/outside/a", paths: ["/work/project"] })).toBe("deny");
    expect(decide("grep", { pattern: "x", paths: ["/work/project/src"] })).toBe("allow");
    expect(decide("grep", { pattern: "x", paths: [7] })).not.toBe("allow");
  });

  it("a web tool's URLs in its prompt are decided when it has no url (Gemini CLI's web_fetch)", () => {
    const rules = policy(["WebFetch(domain:evil.example)"]);
    const decide = (input: unknown) => rules.evaluate({ tool: "web_fetch", input }).behavior;
    expect(decide({ prompt: "Summarize https://ok.example/a and https://evil.example/x please" })).toBe("deny");
    expect(decide({ prompt: "Summarize https://ok.example/a" })).not.toBe("deny");
    expect(decide({ url: "https://ok.example/", prompt: "https://evil.example is mentioned only" })).not.toBe("deny");
  });

  it("leaves a call with one target where rules look to the usual path", () => {
    expect(callTargets("read", { file_path: "/a" })).toBeUndefined();
    expect(callTargets("web", { url: "https://a.example" })).toBeUndefined();
    expect(callTargets("edit", { file_path: "/a", content: "*** Begin" })).toBeUndefined();
    expect(callTargets("mcp", { paths: ["/a"] })).toBeUndefined();
    expect(callTargets("read", { paths: Array.from({ length: 100 }, (_, index) => `/a/${index}`) })).toHaveLength(65);
  });
});

describe("tool names the rules read as Claude Code's", () => {
  it("Copilot CLI's view and create, Qwen Code's monitor, notebook_edit and zoom_image, Codex's view_image, and more", () => {
    const bare = policy(["Read", "Write", "Bash(rm *)", "Edit(./secrets/**)", "Task(general)"]);
    expect(bare.evaluate({ tool: "Monitor", input: { command: "rm -rf x" } }).behavior).toBe("deny");
    expect(bare.evaluate({ tool: "send_file", input: { path: "/work/project/a" } }).behavior).toBe("deny");
    expect(bare.evaluate({ tool: "task", input: { subagent_type: "general", prompt: "x" } }).behavior).toBe("deny");
    expect(bare.evaluate({ tool: "view", input: { path: "/work/project/a" } }).behavior).toBe("deny");
    expect(bare.evaluate({ tool: "create", input: { path: "/work/project/a", file_text: "x" } }).behavior).toBe("deny");
    expect(bare.evaluate({ tool: "monitor", input: { command: "rm -rf x" } }).behavior).toBe("deny");
    expect(bare.evaluate({ tool: "notebook_edit", input: { notebook_path: "secrets/a.ipynb" } }).behavior).toBe("deny");
    expect(bare.evaluate({ tool: "zoom_image", input: { file_path: "/work/project/x.png" } }).behavior).toBe("deny");
    expect(bare.evaluate({ tool: "view_image", input: { path: "/work/project/x.png" } }).behavior).toBe("deny");
  });
});

describe("a shell command that applies a patch (Codex runs `apply_patch <<'EOF'` itself)", () => {
  it("decides every file the patch names as an Edit, in the command's folder", () => {
    const rules = policy(["Edit(./secrets/**)"]);
    const command = (...lines: string[]) => `apply_patch <<'EOF'\n${patch(...lines)}EOF`;
    const decide = (input: Record<string, unknown>) => rules.evaluate({ tool: "Bash", input }).behavior;
    expect(decide({ command: command("*** Add File: secrets/x", "+pwned") })).toBe("deny");
    expect(decide({ command: command("*** Add File: x", "+pwned"), workdir: "secrets" })).toBe("deny");
    expect(decide({ command: command("*** Add File: src/x", "+ok") })).not.toBe("deny");
    // the same command line again: never a decision cached without its patch
    expect(decide({ command: command("*** Add File: secrets/x", "+pwned") })).toBe("deny");
  });
});
