import type { DenialSource } from "./events.js";

/**
 * A permission decision is a value that explains itself (house invariant 7). Produced by `policy/` and by the
 * guard (grants, loop blocks); never thrown.
 */
export type Behavior = "allow" | "ask" | "deny";

export interface Decision {
  behavior: Behavior;
  /** the rule that decided, as written (`Bash(rm *)`), when one did */
  rule?: string;
  /** what decided: a policy rule, a session grant, the permission mode, toolgate itself, or the default */
  source: "policy" | "grant" | "mode" | "default" | "toolgate";
  /** for a deny: how it was recorded (`rule`, `mode`, `headless`, `loop`, `aborted`, `internal`, ...) */
  denialSource?: DenialSource;
  /** one sentence a person can read */
  reason: string;
}
