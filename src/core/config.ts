import type { GrantScope } from "./effects.js";
import type { ToolFamily } from "./tool-families.js";

/**
 * The reducer's configuration after compilation: plain matchers and functions, nothing parsed on the hot path.
 * Built from validated options by `compileCoreConfig` (core/compile-config.ts); the zod layer in `config/` turns
 * files and env into `CoreOptions` first.
 */

/** What a headless session does when a pattern reaches its threshold. */
export type HeadlessStrategy = "fallback" | "skip" | "abort";

/** Plain-data options: what a config file or `createGuard` may set. Every field is optional. */
export interface CoreOptions {
  /** denials of one pattern since the tool's last allowed call that trigger escalation; per tool-name glob */
  thresholds?: ToolThresholdOption[];
  /** default threshold when no glob matches (3) */
  defaultThreshold?: number;
  /**
   * threshold per tool family (core/tool-families.ts), replacing the defaults' shell 2, read 5, search 5; a
   * `thresholds` glob that matches the tool still comes first
   */
  familyThresholds?: Partial<Record<ToolFamily, number>>;
  /** the hard stage, as a multiple of the threshold (2) */
  hardMultiplier?: number;
  /**
   * denials of one pattern in a session, allowed calls in between or not, that count as reaching the threshold
   * (20, Claude Code's auto-mode total): a model that alternates allowed and denied calls still escalates
   */
  totalThreshold?: number;
  /** headless strategy when no per-tool one applies ("abort") */
  headlessStrategy?: HeadlessStrategy;
  /** alternatives to name in fallback text, per tool-name glob */
  alternatives?: Record<string, string[]>;
  /** whether a grant may cover the whole tool rather than the minimum pattern (false) */
  grantWholeTool?: boolean;
  /** how many denial records a session keeps (100, at most 10000) */
  recordBufferSize?: number;
  /** cap on denials across a session and its subagents; reaching it aborts (off) */
  sessionTreeBudget?: number;
  nudge?: NudgeOptions;
  loop?: LoopOptions;
  /** replacement texts, keyed by template name; see core/templates.ts for names and placeholders */
  templates?: Partial<Record<TemplateName, string>>;
}

export interface ToolThresholdOption {
  /** tool-name glob: `*` matches any run of characters, `?` one character; case-sensitive */
  tool: string;
  threshold?: number;
  headlessStrategy?: HeadlessStrategy;
}

export interface NudgeOptions {
  /** consecutive denials or OS-permission failures before a nudge (2) */
  threshold?: number;
  /** minimum time between nudges in a session, ms (300000) */
  cooldownMs?: number;
  /** nudges per session per rolling hour (3; 0: none) */
  hourlyCap?: number;
  enabled?: boolean;
}

export interface LoopOptions {
  /** repeats at which each level fires; `false` turns a level off. `stop` cannot be turned off. */
  observe?: number | false;
  steer?: number | false;
  block?: number | false;
  /** at most 1000 */
  stop?: number;
  /** same normalised error from the same tool this many times in a row steers (3) */
  sameErrorSteer?: number;
  /** longest A-B-...-A-B cycle looked for (5, at most 20) */
  maxCycleLength?: number;
  /** tool-name globs exempt from identical-call and cycle detection (legitimately repetitive tools) */
  exemptTools?: string[];
}

export type TemplateName =
  | "soft.rule"
  | "soft.user"
  | "soft.headless"
  | "soft.mode"
  | "soft.hook"
  | "soft.sandbox"
  | "soft.loop"
  | "soft.other"
  | "escalated.rule"
  | "escalated.offer"
  | "hard"
  | "offer"
  | "fallback"
  | "declined"
  | "skip"
  | "abort.model"
  | "abort.error"
  | "nudge.denials"
  | "nudge.os"
  | "loop.steer"
  | "loop.block"
  | "loop.stop"
  | "tree-budget";

/** A value, or a function computed only when a template actually uses the placeholder. */
export type TemplateValue = string | number | (() => string);
export type TemplateVariables = Record<string, TemplateValue>;
export type CompiledTemplate = (variables: TemplateVariables) => string;

/** Facts the edge derives from a call once; the reducer uses them when an event does not carry them. */
export interface CallFacts {
  signature: string;
  pattern: string;
  summary: string;
  /** the input with every secret redacted: what records keep */
  redactedInput: unknown;
}

/** The pure functions the reducer needs from `detect/` and `policy/`, injected so the core stays independent. */
export interface CorePorts {
  /** signature, escalation pattern and redacted summary of a call */
  describeCall: (tool: string, input: unknown) => CallFacts;
  /** redact every string in a value (keys included); must be idempotent */
  redactValue: (value: unknown) => unknown;
  /** redact free text (reasons, errors) */
  redactText: (text: string) => string;
  /**
   * the minimum scope that covers the repeated requests (exact call first); undefined when no grant may cover
   * them (a deny rule or `neverGrant` would override it), so nothing is offered
   */
  grantScope: (request: {
    tool: string;
    /** the streak's calls, oldest first: earlier ones redacted, the newest (the call being denied) as sent */
    inputs: unknown[];
    pattern: string;
    wholeTool: boolean;
  }) => GrantScope | undefined;
  /** the narrowest allow rule that would let this call through (for abort errors and reports) */
  suggestRule: (tool: string, input: unknown) => string;
}

export interface CompiledThreshold {
  matches: (tool: string) => boolean;
  threshold: number | undefined;
  headlessStrategy: HeadlessStrategy | undefined;
}

export interface CompiledConfig {
  thresholds: CompiledThreshold[];
  defaultThreshold: number;
  hardMultiplier: number;
  totalThreshold: number;
  headlessStrategy: HeadlessStrategy;
  alternatives: { matches: (tool: string) => boolean; names: string[] }[];
  grantWholeTool: boolean;
  recordBufferSize: number;
  /**
   * how many wasted calls may wait for their tokens (core/call-tokens.ts; MAX_PENDING_TOKEN_CALLS when absent); 0
   * keeps none: `analyze`'s replay counts wasted tokens itself and never names them to the core
   */
  pendingTokenCalls?: number;
  /**
   * whether the ids of records that leave the buffer are kept (core/evicted-ids.ts; kept when absent); false keeps
   * none: `analyze`'s replay never asks which calls a session recorded
   */
  keepEvictedIds?: boolean;
  sessionTreeBudget: number | undefined;
  nudge: { enabled: boolean; threshold: number; cooldownMs: number; hourlyCap: number };
  loop: {
    observe: number | false;
    steer: number | false;
    block: number | false;
    stop: number;
    sameErrorSteer: number;
    maxCycleLength: number;
    windowSize: number;
    isExempt: (tool: string) => boolean;
  };
  templates: Record<TemplateName, CompiledTemplate>;
  ports: CorePorts;
  /** problems found while compiling (e.g. a non-numeric env value); emitted once per session as warnings */
  warnings: { code: string; message: string }[];
}
