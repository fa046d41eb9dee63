import { describe, expect, it } from "vitest";
import { addToolgateCodexHooks, isToolgateCodexCommand, removeToolgateCodexHooks } from "./codex-hooks-file.js";

const COMMAND = '"/usr/bin/node" "/opt/toolgate/dist/cli/main.js" hook codex';
const theirs = { type: "command", command: "node ~/bin/log.mjs" };

describe("codex hooks.json entries", () => {
  it("adds toolgate's entries once, keeps the user's, and is idempotent", () => {
    const file = { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [theirs] }] }, other: 1 };
    const once = addToolgateCodexHooks(file, COMMAND);
    const twice = addToolgateCodexHooks(once, COMMAND);
    expect(twice).toBe(once);
    const pre = (once.hooks as Record<string, unknown[]>).PreToolUse;
    expect(pre).toEqual([
      { matcher: "Bash", hooks: [theirs] },
      { matcher: ".*", hooks: [{ type: "command", command: COMMAND, timeout: 30 }] },
    ]);
    expect(Object.keys(once.hooks as object).sort()).toEqual(
      ["PostToolUse", "PreToolUse", "SessionEnd", "Stop", "UserPromptSubmit"].sort(),
    );
    expect(once.other).toBe(1);
  });

  it("replaces an older toolgate entry (another path) instead of adding a second", () => {
    const old = addToolgateCodexHooks({}, "node /old/main.js hook codex");
    const next = addToolgateCodexHooks(old, COMMAND);
    expect(JSON.stringify(next)).not.toContain("/old/main.js");
    expect((next.hooks as Record<string, unknown[]>).Stop).toHaveLength(1);
  });

  it("uninstall removes exactly toolgate's entries", () => {
    const file = { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [theirs] }] } };
    const removed = removeToolgateCodexHooks(addToolgateCodexHooks(file, COMMAND));
    expect(removed).toEqual(file);
    expect(removeToolgateCodexHooks(addToolgateCodexHooks({}, COMMAND))).toEqual({});
    expect(removeToolgateCodexHooks(file)).toBe(file);
  });

  it("recognises toolgate's command by its ending only", () => {
    expect(isToolgateCodexCommand(COMMAND)).toBe(true);
    expect(isToolgateCodexCommand("toolgate hook codex")).toBe(true);
    expect(isToolgateCodexCommand("toolgate hook claude-code")).toBe(false);
    expect(isToolgateCodexCommand("mycodex")).toBe(false);
  });
});
