import { describe, expect, it } from "vitest";
import { startFakeHostProcess } from "../../../test/support/fake-host-process.js";
import { interactiveFromCopilot, isInteractiveCopilotSession } from "./copilot-environment.js";

describe("whether a person can answer in a Copilot CLI session", () => {
  it("-p and a piped prompt are headless; -i and ACP mode are interactive; else a terminal on stdin is", () => {
    const terminal = { stdinIsTerminal: true };
    expect(interactiveFromCopilot({ args: ["-p", "hi", "--allow-all-tools"], ...terminal })).toBe(false);
    expect(interactiveFromCopilot({ args: ["--prompt=hi"], ...terminal })).toBe(false);
    expect(interactiveFromCopilot({ args: ["-i", "hi"], stdinIsTerminal: false })).toBe(true);
    expect(interactiveFromCopilot({ args: ["--interactive=hi"], ...terminal })).toBe(true);
    expect(interactiveFromCopilot({ args: ["--acp"], stdinIsTerminal: false })).toBe(true);
    expect(interactiveFromCopilot({ args: ["--model", "x"], ...terminal })).toBe(true);
    // `echo task | copilot`
    expect(interactiveFromCopilot({ args: ["--model", "x"], stdinIsTerminal: false })).toBe(false);
    expect(interactiveFromCopilot({ args: [], stdinIsTerminal: undefined })).toBe(true);
  });

  it("obeys toolgate's own signals first, and reads the Copilot process the hook names", async () => {
    const prompt = () => ({ args: ["-p", "hi"], stdinIsTerminal: true });
    expect(isInteractiveCopilotSession({ TOOLGATE_INTERACTIVE: "1" }, prompt)).toBe(true);
    expect(isInteractiveCopilotSession({ CI: "true" }, () => ({ args: [], stdinIsTerminal: true }))).toBe(false);
    expect(isInteractiveCopilotSession({}, prompt)).toBe(false);
    expect(isInteractiveCopilotSession({}, () => undefined)).toBe(true);
    // the npm package's loader, as `copilot` on the PATH starts it
    const host = await startFakeHostProcess("node_modules/@github/copilot/npm-loader.js", ["-p", "hi"]);
    try {
      expect(isInteractiveCopilotSession({ TOOLGATE_HOOK_PARENT_PID: String(host.pid) })).toBe(false);
      expect(isInteractiveCopilotSession({})).toBe(true);
    } finally {
      host.stop();
    }
  });
});
