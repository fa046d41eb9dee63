import { describe, expect, it } from "vitest";
import { startFakeHostProcess } from "../../../test/support/fake-host-process.js";
import { interactiveFromParent, isGeminiInteractive } from "./gemini-environment.js";

describe("whether a person can answer in a Gemini CLI session (Gemini 0.61.0's own rule)", () => {
  const terminals = { stdinIsTerminal: true, stdoutIsTerminal: true };

  it("-i and ACP mode are interactive; -p is headless; else both terminals are needed", () => {
    expect(interactiveFromParent({ args: ["-m", "x", "-p", "hi"], ...terminals })).toBe(false);
    expect(interactiveFromParent({ args: ["--prompt=hi"], ...terminals })).toBe(false);
    expect(interactiveFromParent({ args: ["-i", "hi"], stdinIsTerminal: false, stdoutIsTerminal: false })).toBe(true);
    expect(interactiveFromParent({ args: ["--prompt-interactive=hi"], stdinIsTerminal: false })).toBe(true);
    // ACP: an editor speaks JSON-RPC on its stdio and asks the person itself
    for (const acp of ["--acp", "--experimental-acp"]) {
      expect(interactiveFromParent({ args: [acp], stdinIsTerminal: false, stdoutIsTerminal: false })).toBe(true);
    }
    expect(interactiveFromParent({ args: [], ...terminals })).toBe(true);
    // a positional prompt runs interactively on a terminal in 0.61.0, headless without one
    expect(interactiveFromParent({ args: ["fix the tests"], ...terminals })).toBe(true);
    expect(interactiveFromParent({ args: ["fix the tests"], stdinIsTerminal: false, stdoutIsTerminal: true })).toBe(
      false,
    );
    // stdout to a file or a pipe is headless too (`gemini > log.txt`)
    expect(interactiveFromParent({ args: [], stdinIsTerminal: true, stdoutIsTerminal: false })).toBe(false);
    // terminals that cannot be read count as terminals
    expect(interactiveFromParent({ args: [], stdinIsTerminal: undefined })).toBe(true);
  });

  it("obeys TOOLGATE_INTERACTIVE, TOOLGATE_RUN and CI before the process; assumes interactive when none is found", () => {
    const terminal = () => ({ args: [], ...terminals });
    expect(isGeminiInteractive({ TOOLGATE_INTERACTIVE: "0" }, terminal)).toBe(false);
    expect(isGeminiInteractive({ TOOLGATE_RUN: "1" }, terminal)).toBe(false);
    expect(isGeminiInteractive({ CI: "true" }, terminal)).toBe(false);
    expect(isGeminiInteractive({ CI: "true", TOOLGATE_INTERACTIVE: "1" }, terminal)).toBe(true);
    expect(isGeminiInteractive({ TOOLGATE_INTERACTIVE: "1" }, () => ({ args: ["-p", "hi"], ...terminals }))).toBe(true);
    expect(isGeminiInteractive({}, () => ({ args: ["-p", "hi"], ...terminals }))).toBe(false);
    expect(isGeminiInteractive({}, () => undefined)).toBe(true);
  });

  it("reads the command line of the process the resident hook server names (TOOLGATE_HOOK_PARENT_PID), not its own parent's", async () => {
    const host = await startFakeHostProcess("gemini.js", ["-p", "hi"]);
    try {
      expect(isGeminiInteractive({ TOOLGATE_HOOK_PARENT_PID: String(host.pid) })).toBe(false);
      // this test's own parent is no Gemini: unknown, so interactive
      expect(isGeminiInteractive({})).toBe(true);
      expect(isGeminiInteractive({ TOOLGATE_HOOK_PARENT_PID: "not a pid" })).toBe(true);
    } finally {
      host.stop();
    }
    // an ACP session: its stdio is no terminal, and still the editor asks the person
    const acp = await startFakeHostProcess("gemini.js", ["--acp"]);
    try {
      expect(isGeminiInteractive({ TOOLGATE_HOOK_PARENT_PID: String(acp.pid) })).toBe(true);
    } finally {
      acp.stop();
    }
  });
});
