import { describe, expect, it } from "vitest";
import { removeHookStateTables, toolgateHookStateKeys } from "./codex-hook-state.js";
import { addToolgateCodexHooks } from "./codex-hooks-file.js";

const HOOKS = "/home/you/.codex/hooks.json";
const COMMAND = '"/usr/bin/node" "/opt/toolgate/dist/hook/toolgate-hook.cjs" hook codex';
const BEFORE = 'model = "x"\n\n[analytics]\nenabled = false\n';

/** config.toml as Codex 0.169.0 writes it after `toolgate install codex --user` trusted toolgate's five hooks. */
function trusted(keys: readonly string[], before = BEFORE): string {
  const tables = keys.map((key, index) => `\n[hooks.state.${JSON.stringify(key)}]\ntrusted_hash = "sha256:${index}"\n`);
  return `${before}\n[hooks.state]\n${tables.join("")}`;
}

describe("Codex hook trust records", () => {
  it("names toolgate's entries as Codex keys them: <hooks.json>:<event>:<group>:<hook>", () => {
    const file = addToolgateCodexHooks(
      { hooks: { Stop: [{ hooks: [{ type: "command", command: "mine" }] }] } },
      COMMAND,
    );
    expect(toolgateHookStateKeys(HOOKS, file)).toEqual([
      `${HOOKS}:stop:1:0`,
      `${HOOKS}:pre_tool_use:0:0`,
      `${HOOKS}:post_tool_use:0:0`,
      `${HOOKS}:user_prompt_submit:0:0`,
      `${HOOKS}:session_end:0:0`,
    ]);
  });

  it("removes exactly toolgate's tables, and the [hooks.state] table they leave empty: config.toml as it was", () => {
    const keys = toolgateHookStateKeys(HOOKS, addToolgateCodexHooks({}, COMMAND));
    const edited = removeHookStateTables(trusted(keys), keys);
    expect(edited).toEqual({ text: BEFORE, removed: 5 });
  });

  it("keeps another hook's trust and every other table", () => {
    const keys = toolgateHookStateKeys(HOOKS, addToolgateCodexHooks({}, COMMAND));
    const mine = "/project/.codex/hooks.json:stop:0:0";
    const text = `${trusted([mine, ...keys])}\n[projects."/p"]\ntrust_level = "trusted"\n`;
    const edited = removeHookStateTables(text, keys);
    expect(edited.removed).toBe(5);
    expect(edited.text).toBe(
      `${BEFORE}\n[hooks.state]\n\n[hooks.state.${JSON.stringify(mine)}]\ntrusted_hash = "sha256:0"\n\n[projects."/p"]\ntrust_level = "trusted"\n`,
    );
    expect(removeHookStateTables(BEFORE, keys)).toEqual({ text: BEFORE, removed: 0 });
  });
});
