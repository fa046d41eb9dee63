import { describe, expect, it } from "vitest";
import { startFakeHostProcess } from "../../../test/support/fake-host-process.js";
import { interactiveFromCopilot, isInteractiveCopilotSession } from "./copilot-environment.js";

describe("whether a person can answer in a Copilot CLI session", () => {
  it("-p is headless; -i and ACP mode are interactive; anything else is interactive", () => {
    expect(interactiveFromCopilot({ args: ["-p", "hi", "--allow-all-tools"] })).toBe(false);
    expect(interactiveFromCopilot({ args: ["--prompt=hi"] })).toBe(false);
    expect(interactiveFromCopilot({ args: ["-i", "hi"] })).toBe(true);
    expect(interactiveFromCopilot({ args: ["--interactive=hi"] })).toBe(true);
    expect(interactiveFromCopilot({ args: ["--acp"] })).toBe(true);
    expect(interactiveFromCopilot({ args: ["--model", "x"] })).toBe(true);
  });

  it("obeys toolgate's own signals first, and reads the Copilot process the hook names", async () => {
    expect(isInteractiveCopilotSession({ TOOLGATE_INTERACTIVE: "1" }, () => ({ args: ["-p", "hi"] }))).toBe(true);
    expect(isInteractiveCopilotSession({ CI: "true" }, () => ({ args: [] }))).toBe(false);
    expect(isInteractiveCopilotSession({}, () => ({ args: ["-p", "hi"] }))).toBe(false);
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
