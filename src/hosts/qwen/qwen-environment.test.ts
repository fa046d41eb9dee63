import { describe, expect, it } from "vitest";
import { startFakeHostProcess } from "../../../test/support/fake-host-process.js";
import { interactiveFromQwen, isInteractiveQwenSession } from "./qwen-environment.js";

describe("whether a person can answer in a Qwen Code session (Qwen 0.24.4's own rule)", () => {
  it("-i, ACP mode and stream-json input are interactive; a prompt, flagged or positional, is headless", () => {
    expect(interactiveFromQwen({ args: ["-p", "hi"], stdinIsTerminal: true })).toBe(false);
    expect(interactiveFromQwen({ args: ["--approval-mode", "yolo", "--prompt=hi"], stdinIsTerminal: true })).toBe(
      false,
    );
    expect(interactiveFromQwen({ args: ["fix the tests"], stdinIsTerminal: true })).toBe(false);
    expect(interactiveFromQwen({ args: ["-i", "fix the tests"], stdinIsTerminal: false })).toBe(true);
    expect(interactiveFromQwen({ args: ["fix it", "--prompt-interactive"], stdinIsTerminal: false })).toBe(true);
    for (const acp of ["--acp", "--experimental-acp"]) {
      expect(interactiveFromQwen({ args: [acp], stdinIsTerminal: false })).toBe(true);
    }
    // an SDK drives Qwen over stream-json: Qwen hands confirmations to it rather than declining them
    expect(interactiveFromQwen({ args: ["--input-format", "stream-json", "-p", "x"], stdinIsTerminal: false })).toBe(
      true,
    );
    expect(interactiveFromQwen({ args: ["--input-format=stream-json"], stdinIsTerminal: false })).toBe(true);
    expect(interactiveFromQwen({ args: ["--input-format", "text", "-p", "x"], stdinIsTerminal: true })).toBe(false);
  });

  it("reads a positional prompt after options with Qwen's option table, and leaves what it cannot tell to stdin", () => {
    const terminal = { stdinIsTerminal: true };
    for (const args of [
      ["--yolo", "fix it"],
      ["-m", "qwen3-coder", "fix it"],
      ["--model=qwen3-coder", "--approval-mode", "yolo", "fix it"],
      ["-yd", "fix it"],
      ["--no-sandbox", "fix it"],
      ["--", "fix it"],
    ]) {
      expect(interactiveFromQwen({ args, ...terminal }), args.join(" ")).toBe(false);
    }
    for (const args of [
      ["--approval-mode", "yolo"],
      ["-m", "qwen3-coder", "--yolo"],
      // a list option takes every following argument; an option of a newer Qwen is not known
      ["--allowed-tools", "run_shell_command", "fix it"],
      ["--future-option", "fix it"],
      ["-yq", "fix it"],
      ["--"],
    ]) {
      expect(interactiveFromQwen({ args, ...terminal }), args.join(" ")).toBe(true);
    }
  });

  it("without a prompt: its stdin decides, and a subcommand or an unreadable stdin counts as interactive", () => {
    expect(interactiveFromQwen({ args: [], stdinIsTerminal: true })).toBe(true);
    expect(interactiveFromQwen({ args: ["--approval-mode", "yolo"], stdinIsTerminal: false })).toBe(false);
    expect(interactiveFromQwen({ args: [], stdinIsTerminal: undefined })).toBe(true);
    expect(interactiveFromQwen({ args: ["serve", "--port", "8080"], stdinIsTerminal: false })).toBe(true);
  });

  it("obeys toolgate's own signals first, and reads the Qwen process the hook names", async () => {
    const prompt = () => ({ args: ["-p", "hi"], stdinIsTerminal: true });
    expect(isInteractiveQwenSession({ TOOLGATE_INTERACTIVE: "1" }, prompt)).toBe(true);
    expect(isInteractiveQwenSession({ CI: "true" }, () => ({ args: [], stdinIsTerminal: true }))).toBe(false);
    expect(isInteractiveQwenSession({ TOOLGATE_RUN: "1" }, () => ({ args: [], stdinIsTerminal: true }))).toBe(false);
    expect(isInteractiveQwenSession({}, prompt)).toBe(false);
    expect(isInteractiveQwenSession({}, () => undefined)).toBe(true);
    // the child Qwen's bin relaunches: `node --expose-gc .../@qwen-code/qwen-code/cli.js -p hi`
    const host = await startFakeHostProcess("node_modules/@qwen-code/qwen-code/cli.js", ["-p", "hi"]);
    try {
      expect(isInteractiveQwenSession({ TOOLGATE_HOOK_PARENT_PID: String(host.pid) })).toBe(false);
      expect(isInteractiveQwenSession({})).toBe(true);
    } finally {
      host.stop();
    }
  });
});
