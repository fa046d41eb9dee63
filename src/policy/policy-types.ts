import type { Behavior, Decision } from "../core/decision.js";
import type { ShellAnalysis } from "./shell/analyze-shell-command.js";

/**
 * The internal form every rule source is imported into: Claude Code settings, toolgate config, and each host's own
 * rule files through its importer (src/hosts/<host>/: a "last match wins" order becomes rising priorities, priority
 * tiers become tier + priority/1000).
 */
export interface PolicyRule {
  /** the rule in Claude Code syntax, as written: `Bash(rm *)`, `Read(./.env)`, `mcp__github` */
  rule: string;
  behavior: Behavior;
  /**
   * Higher wins before behavior is compared; rules of equal priority resolve deny > ask > allow. Claude-style
   * rules all have priority 0 (so a deny anywhere beats an allow anywhere). Default 0.
   */
  priority?: number;
  /** where the rule came from, for explanations: `project settings (.claude/settings.json)` */
  origin?: string;
  /** only in interactive (true) or only in headless (false) sessions; both when absent (a host rule's `interactive` flag) */
  interactive?: boolean;
  /** only in these permission modes (a host rule's `modes`); all when absent */
  modes?: PermissionMode[];
  /**
   * A host's argv-prefix rule (a `prefix_rule` of its own rule files): the rule matches a shell call when the argv of one of its
   * commands starts with these words, each given as the word or the list of words it may be (no wildcards, no
   * quoting: words compare after quote removal). `rule` is then only the rule's name, as the host writes it.
   */
  argvPrefix?: readonly (string | readonly string[])[];
  /** the host's own sentence for a call this rule decides (recorded and shown as the decision's reason) */
  reason?: string;
}

export type PermissionMode = "default" | "acceptEdits" | "plan" | "dontAsk" | "bypassPermissions";

export const PERMISSION_MODES: readonly PermissionMode[] = [
  "default",
  "acceptEdits",
  "plan",
  "dontAsk",
  "bypassPermissions",
];

/** What a policy decision adds to the core's `Decision`: how the guard must record a deny. */
export interface PolicyDecision extends Decision {
  /**
   * for a deny: the denial source the guard records (`rule`, `mode`, `headless` for an ask nobody can answer, or
   * `validation` for a call whose input toolgate cannot read)
   */
  denialSource?: "rule" | "mode" | "headless" | "validation";
  /** a bare deny (`Bash`, `mcp__server`) removes the tool from the model's tool list in Claude Code */
  removesTool?: boolean;
  /** where the deciding rule came from */
  origin?: string;
}

export interface EvaluateOptions {
  /** permission mode; `default` when absent */
  mode?: PermissionMode;
  /** whether a person can answer a prompt; when false an ask becomes a deny with denialSource `headless` */
  interactive?: boolean;
  /** session grants as allow rules in Claude Code syntax; they never override a deny */
  grants?: readonly string[];
}

export interface ToolCallInput {
  tool: string;
  input: unknown;
  /**
   * the shell command's analysis, when the caller already has it (`analyzeShellCommand(commandOf(input))`): a call
   * is parsed once and the analysis passed to every function that needs it
   */
  shell?: ShellAnalysis;
}

export interface CompileWarning {
  code: string;
  message: string;
}
