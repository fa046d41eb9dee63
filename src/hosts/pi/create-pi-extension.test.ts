import { describe, expect, it } from "vitest";
import { createGuard } from "../../guard/create-guard.js";
import { compilePolicy } from "../../policy/compile-policy.js";
import { createPiExtension } from "./create-pi-extension.js";

/**
 * The pi extension around an in-memory guard, driven as pi 1.6.0 drives it (`tool_call`, `tool_result`,
 * `before_agent_start`): what the model reads, and what the guard counts from each event.
 */
type Handler = (event: Record<string, unknown>, context: Record<string, unknown>) => Promise<unknown>;

function piWith(options: { deny: RegExp }) {
  const guard = createGuard({
    policy: {
      evaluate: (call) =>
        options.deny.test(String((call.input as { command?: unknown }).command))
          ? { behavior: "deny", source: "policy", rule: "Bash(rm *)", reason: "rm is denied" }
          : { behavior: "allow", source: "policy", rule: "Bash(*)", reason: "allowed" },
    },
    onError: () => undefined,
  });
  const handlers = new Map<string, Handler>();
  createPiExtension({ open: async () => ({ guard, close: async () => undefined }), onStop: () => undefined })({
    on: (event: string, handler: Handler) => handlers.set(event, handler),
  } as never);
  const context = { hasUI: false, cwd: "/", sessionManager: { getSessionId: () => "s1" } };
  const fire = (event: string, payload: Record<string, unknown>) =>
    (handlers.get(event) as Handler)({ type: event, ...payload }, context);
  let id = 0;
  /** one bash call: its `tool_call` answer, and when it ran, the `tool_result` patch for `output` */
  const call = async (command: string, output = "ok", isError = false) => {
    id += 1;
    const toolCallId = `c${id}`;
    const answer = (await fire("tool_call", { toolName: "bash", toolCallId, input: { command } })) as
      | { block: true; reason: string; terminate?: boolean }
      | undefined;
    if (answer !== undefined) return { answer };
    const patch = await fire("tool_result", {
      toolName: "bash",
      toolCallId,
      input: { command },
      content: [{ type: "text", text: output }],
      isError,
    });
    return { patch: patch as { content: { text: string }[] } | undefined };
  };
  const state = () => guard.session("s1", { interactive: false, host: "pi" }).state();
  return { call, fire, state };
}

describe("the pi extension", () => {
  it("an allowed call ends the streak of denials", async () => {
    const pi = piWith({ deny: /^rm / });
    expect((await pi.call("rm -rf a")).answer?.reason).toContain("[toolgate]");
    expect((await pi.state()).agents["main"]?.consecutive).toBe(1);
    expect((await pi.call("ls")).patch).toBeUndefined();
    expect((await pi.state()).agents["main"]?.consecutive).toBe(0);
  });

  it("an OS refusal in a call's output counts as a denial, and the model reads toolgate's guidance with it", async () => {
    const pi = piWith({ deny: /^rm / });
    const { patch } = await pi.call("cat /etc/shadow", "cat: /etc/shadow: Permission denied", true);
    expect((await pi.state()).agents["main"]?.total).toBe(1);
    expect(patch?.content.at(-1)?.text.length).toBeGreaterThan(0);
  });

  it("a real user prompt starts a turn; a message an extension sent does not", async () => {
    const pi = piWith({ deny: /^rm / });
    await pi.fire("before_agent_start", { messageType: "user", prompt: "hi" });
    const turn = (await pi.state()).turn;
    await pi.fire("before_agent_start", { messageType: "custom" });
    expect((await pi.state()).turn).toBe(turn);
    await pi.fire("before_agent_start", { messageType: "user", prompt: "again" });
    expect((await pi.state()).turn).toBe(turn + 1);
  });
});

describe("a toolgate ask rule in pi", () => {
  function askingPi(options: { hasUI: boolean; answer?: boolean }) {
    const guard = createGuard({
      policy: {
        evaluate: () => ({
          behavior: "ask",
          source: "policy",
          rule: "Bash(git push *)",
          reason: "pushing needs a yes",
        }),
      },
      onError: () => undefined,
    });
    const handlers = new Map<string, Handler>();
    createPiExtension({ open: async () => ({ guard, close: async () => undefined }), onStop: () => undefined })({
      on: (event: string, handler: Handler) => handlers.set(event, handler),
    } as never);
    const asked: string[] = [];
    const ui = {
      confirm: async (title: string) => {
        asked.push(title);
        return options.answer === true;
      },
    };
    const context = { hasUI: options.hasUI, ui, cwd: "/", sessionManager: { getSessionId: () => "s2" } };
    const call = () =>
      (handlers.get("tool_call") as Handler)(
        { type: "tool_call", toolName: "bash", toolCallId: "c1", input: { command: "git push origin main" } },
        context,
      ) as Promise<{ block: true; reason: string } | undefined>;
    const state = () => guard.session("s2", { interactive: options.hasUI, host: "pi" }).state();
    return { call, asked, state };
  }

  it("with a person at pi's UI: asked through pi's dialog; yes runs the call", async () => {
    const pi = askingPi({ hasUI: true, answer: true });
    expect(await pi.call()).toBeUndefined();
    expect(pi.asked).toEqual(["toolgate: allow bash?"]);
  });

  it("with a person at pi's UI: no is a person's refusal the model reads", async () => {
    const pi = askingPi({ hasUI: true, answer: false });
    expect((await pi.call())?.reason).toContain("declined at toolgate's prompt");
    expect((await pi.state()).records.map((record) => record.source)).toEqual(["user"]);
  });

  it("headless (print or JSON mode): nobody is asked, the ask is a headless denial", async () => {
    const pi = askingPi({ hasUI: false, answer: true });
    expect((await pi.call())?.reason).toContain("[toolgate]");
    expect(pi.asked).toEqual([]);
    expect((await pi.state()).records.map((record) => record.source)).toEqual(["headless"]);
  });
});

describe("pi's own path forms and shell tools under toolgate's deny rules", () => {
  /** the extension around toolgate's compiled policy, with pi's working directory `/work/p` */
  function deniedPi() {
    const policy = compilePolicy({
      rules: ["Read(//etc/**)", "Edit(//etc/**)", "Read(~/.ssh/**)", "Read(//srv/a b/**)", "Bash(rm *)"].map(
        (rule) => ({
          rule,
          behavior: "deny" as const,
        }),
      ),
      cwd: "/work/p",
      homeDir: "/home/u",
    });
    const guard = createGuard({ policy, onError: () => undefined });
    const handlers = new Map<string, Handler>();
    createPiExtension({
      open: async () => ({ guard, close: async () => undefined }),
      onStop: () => undefined,
      paths: { platform: "linux", homeDir: "/home/u" },
    })({ on: (event: string, handler: Handler) => handlers.set(event, handler) } as never);
    const context = { hasUI: false, cwd: "/work/p", sessionManager: { getSessionId: () => "s3" } };
    let id = 0;
    return async (toolName: string, input: Record<string, unknown>) => {
      id += 1;
      const answer = (await (handlers.get("tool_call") as Handler)(
        { type: "tool_call", toolName, toolCallId: `p${id}`, input },
        context,
      )) as { block: true; reason: string } | undefined;
      return answer?.reason ?? "runs";
    };
  }

  it.each([
    ["read", { path: "@/etc/shadow" }, "Read(//etc/**)"],
    ["read", { path: "file:///etc/shadow" }, "Read(//etc/**)"],
    ["read", { path: "/srv/a\u00A0b/key" }, "Read(//srv/a b/**)"],
    ["read", { path: "@~/.ssh/id_rsa" }, "Read(~/.ssh/**)"],
    ["read", { path: "/etc/shadow", file_path: "notes.txt" }, "Read(//etc/**)"],
    ["write", { path: "@/etc/cron.d/x", content: "x" }, "Edit(//etc/**)"],
    ["edit", { path: "file:///etc/hosts", edits: [{ oldText: "a", newText: "b" }] }, "Edit(//etc/**)"],
    ["ls", { path: "@/etc" }, "Read(//etc/**)"],
    ["grep", { pattern: "root", path: "file:///etc" }, "Read(//etc/**)"],
    ["find", { pattern: "*", path: "@../../etc" }, "Read(//etc/**)"],
  ])("%s %j is denied by %s (pi reads the path as that file)", async (tool, input, rule) => {
    expect(await deniedPi()(tool, input)).toContain(`Denied by rule ${rule}`);
  });

  it("a path pi cannot read as a file (a malformed file URL) is refused, never passed", async () => {
    const call = deniedPi();
    expect(await call("read", { path: "file://host/etc/shadow" })).toContain("This call was refused");
    expect(await call("write", { path: "file:///etc/%E0%A4%A", content: "x" })).toContain("This call was refused");
    expect(await call("read", { path: 7 })).toContain("This call was refused");
  });

  it("a path inside the project still runs", async () => {
    expect(await deniedPi()("read", { path: "@src/a.ts" })).toBe("runs");
    expect(await deniedPi()("ls", {})).toBe("runs");
  });

  it("pi's powershell tool is a shell tool: Bash(...) rules apply to it as to bash", async () => {
    const call = deniedPi();
    expect(await call("powershell", { command: "rm -rf x" })).toContain("Denied by rule Bash(rm *)");
    expect(await call("powershell", { command: "Get-ChildItem" })).toBe("runs");
    expect(await call("powershell", { command: 7 })).toContain("This call was refused");
  });
});
