import type { HookHost } from "../adapters/hook-host.js";

/**
 * Every command-hook host `toolgate hook <name>` answers, each loaded only when its name is given. One line per
 * host: a new host is an adapter folder with a `HookHost` and a line here (and in `toolgate install`'s table).
 */
export const HOOK_HOSTS: Readonly<Record<string, () => Promise<HookHost<unknown>>>> = {
  "claude-code": async () => (await import("../adapters/claude-code/claude-hook-host.js")).claudeHookHost,
  qwen: async () => (await import("../adapters/qwen/qwen-hook-host.js")).qwenHookHost as HookHost<unknown>,
  codex: async () => (await import("./codex-hook-host.js")).codexHookHost as HookHost<unknown>,
  gemini: async () => (await import("../adapters/gemini/gemini-hook-host.js")).geminiHookHost as HookHost<unknown>,
};

/** The names `toolgate hook` accepts, in the order above. */
export const HOOK_HOST_NAMES: readonly string[] = Object.keys(HOOK_HOSTS);
