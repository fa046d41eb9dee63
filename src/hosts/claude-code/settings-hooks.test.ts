import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lineDiff } from "../common/line-diff.js";
import {
  addToolgateHooks,
  hasToolgateHooks,
  isToolgateHookCommand,
  removeToolgateHooks,
  TOOLGATE_HOOK_EVENTS,
} from "./settings-hooks.js";

const COMMAND = '"/usr/bin/node" "/opt/toolgate/dist/cli/main.js" hook claude-code';

const userSettings = {
  permissions: { deny: ["Bash(rm:*)"] },
  hooks: {
    PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./my-lint-hook.sh" }] }],
    Notification: [{ hooks: [{ type: "command", command: "notify-send hi" }] }],
  },
  model: "opus",
};

describe("addToolgateHooks / removeToolgateHooks", () => {
  it("adds one entry per event and keeps the user's hooks", () => {
    const installed = addToolgateHooks(userSettings, COMMAND);
    expect(hasToolgateHooks(installed)).toBe(true);
    const hooks = installed.hooks as Record<string, { matcher?: string; hooks: { command: string }[] }[]>;
    expect(hooks.PreToolUse).toHaveLength(2);
    expect(hooks.PreToolUse?.[0]?.hooks[0]?.command).toBe("./my-lint-hook.sh");
    expect(hooks.PreToolUse?.[1]).toEqual({
      matcher: "*",
      hooks: [{ type: "command", command: COMMAND, timeout: 30 }],
    });
    expect(hooks.Stop?.[0]).not.toHaveProperty("matcher");
    // a skill's inline shell command (Claude Code 2.1.331+) is a shell call: matched by tool name like the others
    expect(hooks.PreSkillShellCommand).toEqual([
      { matcher: "*", hooks: [{ type: "command", command: COMMAND, timeout: 30 }] },
    ]);
    expect(Object.keys(hooks).sort()).toEqual(
      [...TOOLGATE_HOOK_EVENTS.map((entry) => entry.event), "Notification"].sort(),
    );
  });

  it("is idempotent, replaces an older toolgate path, and uninstall restores the original", () => {
    const once = addToolgateHooks(userSettings, COMMAND);
    expect(addToolgateHooks(once, COMMAND)).toEqual(once);
    const moved = addToolgateHooks(once, "toolgate hook claude-code");
    expect(JSON.stringify(moved)).not.toContain("/opt/toolgate");
    expect(removeToolgateHooks(once)).toEqual(userSettings);
    expect(removeToolgateHooks(moved)).toEqual(userSettings);
  });

  it("removes the hooks key when only toolgate's entries were there", () => {
    const installed = addToolgateHooks({}, COMMAND);
    expect(removeToolgateHooks(installed)).toEqual({});
  });

  it("round-trips arbitrary settings (property)", () => {
    const hookEntry = fc.record({ type: fc.constant("command"), command: fc.string() });
    const group = fc.record({ matcher: fc.constantFrom("*", "Bash"), hooks: fc.array(hookEntry, { minLength: 1 }) });
    const settings = fc.record({
      // an empty `hooks: {}` comes back as no `hooks` key, which Claude Code reads the same way
      hooks: fc.dictionary(fc.constantFrom("PreToolUse", "Stop", "Notification"), fc.array(group, { minLength: 1 }), {
        minKeys: 1,
      }),
    });
    fc.assert(
      fc.property(settings, (value) => {
        fc.pre(!JSON.stringify(value).includes("claude-code"));
        expect(removeToolgateHooks(addToolgateHooks(value, COMMAND))).toEqual(value);
      }),
    );
  });

  it.each([
    ["toolgate hook claude-code", true],
    ['"/usr/bin/node" "/x/dist/cli/main.js" hook claude-code', true],
    ["npx toolgate hook claude-code ", true],
    ["./hook.sh", false],
    ["toolgate hook claude-code --other", false],
  ])("isToolgateHookCommand(%s) = %s", (command, expected) => {
    expect(isToolgateHookCommand(command)).toBe(expected);
  });
});

describe("lineDiff", () => {
  it("marks added and removed lines with context", () => {
    const diff = lineDiff({ before: "a\nb\nc\nd\ne\nf\n", after: "a\nb\nc\nX\ne\nf\n", context: 1 });
    expect(diff).toEqual(["  ...", "  c", "- d", "+ X", "  e", "  ..."]);
  });

  it("is empty when nothing changed", () => {
    expect(lineDiff({ before: "a\n", after: "a\n" })).toEqual([]);
  });
});
