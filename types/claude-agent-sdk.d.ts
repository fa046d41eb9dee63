// The part of `@anthropic-ai/claude-agent-sdk` (0.3.332) that toolgate compiles against, written by hand: the names
// toolgate imports and the members it touches, with the SDK's own types. tsconfig.json maps the package name here;
// test/e2e/declared-types.test.ts compiles test/e2e/declared-types/claude-agent-sdk.checks.ts against the installed
// package to prove they agree. Consumers compile against the real package (dist/*.d.ts import it by name).

export type PermissionBehavior = "allow" | "deny" | "ask";

export type PermissionMode = "default" | "acceptEdits" | "bypassPermissions" | "plan" | "dontAsk" | "auto";

export type PermissionUpdateDestination = "userSettings" | "projectSettings" | "localSettings" | "session" | "cliArg";

export interface PermissionRuleValue {
  toolName: string;
  ruleContent?: string;
}

/** A permission change that `canUseTool` returns with an allow (toolgate's grants: one session-only `addRules`). */
export type PermissionUpdate =
  | {
      type: "addRules" | "replaceRules" | "removeRules";
      rules: PermissionRuleValue[];
      behavior: PermissionBehavior;
      destination: PermissionUpdateDestination;
    }
  | { type: "setMode"; mode: PermissionMode; destination: PermissionUpdateDestination }
  | { type: "addDirectories" | "removeDirectories"; directories: string[]; destination: PermissionUpdateDestination };

export type PermissionResult =
  | { behavior: "allow"; updatedInput?: Record<string, unknown>; updatedPermissions?: PermissionUpdate[] }
  | { behavior: "deny"; message: string; interrupt?: boolean };

/** `Options.canUseTool`: asked before a call that no rule allows. */
export type CanUseTool = (
  toolName: string,
  input: Record<string, unknown>,
  options: { signal: AbortSignal; toolUseID: string; agentID?: string; requestId: string },
) => Promise<PermissionResult | null>;

export type HookEvent =
  | "PreToolUse"
  | "PostToolUse"
  | "PostToolUseFailure"
  | "PostToolBatch"
  | "Notification"
  | "UserPromptSubmit"
  | "UserPromptExpansion"
  | "SessionStart"
  | "SessionEnd"
  | "Stop"
  | "StopFailure"
  | "SubagentStart"
  | "SubagentStop"
  | "PreCompact"
  | "PostCompact"
  | "PreModelSwitch"
  | "PostModelSwitch"
  | "PermissionRequest"
  | "PermissionDenied"
  | "Setup"
  | "TeammateIdle"
  | "TaskCreated"
  | "TaskCompleted"
  | "Elicitation"
  | "ElicitationResult"
  | "ConfigChange"
  | "WorktreeCreate"
  | "WorktreeRemove"
  | "InstructionsLoaded"
  | "CwdChanged"
  | "FileChanged"
  | "DirectoryAdded"
  | "MessageDisplay"
  | "PreSkillShellCommand";

/**
 * What every hook callback receives. The event's own fields (`tool_name`, `tool_input`, `tool_response`, `error`,
 * `reason`, ...) are read and checked at runtime, so they are not declared here.
 */
export interface HookInput {
  hook_event_name: HookEvent;
  agent_id?: string;
  agent_type?: string;
}

export interface PreToolUseHookSpecificOutput {
  hookEventName: "PreToolUse";
  permissionDecision?: "allow" | "deny" | "ask" | "defer";
  permissionDecisionReason?: string;
  additionalContext?: string;
}

export interface PostToolUseHookSpecificOutput {
  hookEventName: "PostToolUse";
  additionalContext?: string;
}

export interface PostToolUseFailureHookSpecificOutput {
  hookEventName: "PostToolUseFailure";
  additionalContext?: string;
}

/** A hook's answer; toolgate answers synchronously and only for the tool events. */
export interface HookJSONOutput {
  continue?: boolean;
  stopReason?: string;
  hookSpecificOutput?:
    | PreToolUseHookSpecificOutput
    | PostToolUseHookSpecificOutput
    | PostToolUseFailureHookSpecificOutput;
}

export type HookCallback = (
  input: HookInput,
  toolUseID: string | undefined,
  options: { signal: AbortSignal },
) => Promise<HookJSONOutput>;

export interface HookCallbackMatcher {
  matcher?: string;
  hooks: HookCallback[];
}

export interface SDKPermissionDenial {
  tool_name: string;
  tool_use_id: string;
  tool_input: Record<string, unknown>;
}

export interface SDKResultMessage {
  type: "result";
  subtype:
    | "success"
    | "error_during_execution"
    | "error_max_turns"
    | "error_max_budget_usd"
    | "error_max_structured_output_retries";
  permission_denials: SDKPermissionDenial[];
}

/**
 * A message of the `query()` stream. toolgate passes every message through and reads their fields at runtime; only
 * the result's denials are declared, and the other messages by their `type`.
 */
export type SDKMessage =
  | SDKResultMessage
  | {
      type:
        | "assistant"
        | "user"
        | "system"
        | "stream_event"
        | "tool_progress"
        | "auth_status"
        | "tool_use_summary"
        | "rate_limit_event"
        | "prompt_suggestion"
        | "conversation_reset";
    };

export type SettingSource = "user" | "project" | "local";

/** The `query()` options the examples and end-to-end tests set. */
export interface Options {
  canUseTool?: CanUseTool;
  cwd?: string;
  env?: { [envVar: string]: string | undefined };
  hooks?: Partial<Record<HookEvent, HookCallbackMatcher[]>>;
  maxTurns?: number;
  pathToClaudeCodeExecutable?: string;
  permissionMode?: PermissionMode;
  settingSources?: SettingSource[];
}

export type Query = AsyncGenerator<SDKMessage, void>;

export declare function query(params: { prompt: string; options?: Options }): Query;
