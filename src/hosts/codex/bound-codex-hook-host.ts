import { loadCodexExecpolicy } from "./codex-execpolicy.js";
import { createCodexHookHost } from "./codex-hook-host.js";

/** Codex's hook host bound to the node layer's reader of Codex's `.rules` files (`toolgate hook codex`). */
export const codexHookHost = createCodexHookHost({ loadExecpolicy: loadCodexExecpolicy, env: process.env });
