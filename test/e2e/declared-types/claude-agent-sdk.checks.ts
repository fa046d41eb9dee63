// types/claude-agent-sdk.d.ts against the installed @anthropic-ai/claude-agent-sdk: compiled by
// declared-types.test.ts; a check that does not hold is a compile error on its line.
import type * as Real from "@anthropic-ai/claude-agent-sdk";
import type * as Declared from "../../../types/claude-agent-sdk.js";
import type { Assert, Exactly, SameMembers, Within } from "./type-checks.js";

/** Types toolgate both receives and gives: the same both ways. */
export interface Exact {
  permissionBehavior: Assert<Exactly<Declared.PermissionBehavior, Real.PermissionBehavior>>;
  permissionMode: Assert<Exactly<Declared.PermissionMode, Real.PermissionMode>>;
  permissionUpdateDestination: Assert<Exactly<Declared.PermissionUpdateDestination, Real.PermissionUpdateDestination>>;
  permissionRuleValue: Assert<Exactly<Declared.PermissionRuleValue, Real.PermissionRuleValue>>;
  permissionUpdate: Assert<Exactly<Declared.PermissionUpdate, Real.PermissionUpdate>>;
  permissionResult: Assert<Exactly<Declared.PermissionResult, Real.PermissionResult>>;
  canUseTool: Assert<Exactly<Declared.CanUseTool, Real.CanUseTool>>;
  hookEvent: Assert<Exactly<Declared.HookEvent, Real.HookEvent>>;
  settingSource: Assert<Exactly<Declared.SettingSource, Real.SettingSource>>;
  sdkPermissionDenial: Assert<Exactly<Declared.SDKPermissionDenial, Real.SDKPermissionDenial>>;
}

/** Types toolgate receives: whatever the SDK sends fits, and each declared member is exactly the SDK's. */
export interface Received {
  hookInput: Assert<Within<Real.HookInput, Declared.HookInput>>;
  hookEventNames: Assert<Exactly<Declared.HookInput["hook_event_name"], Real.HookInput["hook_event_name"]>>;
  hookInputAgent: Assert<SameMembers<Real.HookInput, Omit<Declared.HookInput, "hook_event_name">>>;
  sdkMessage: Assert<Within<Real.SDKMessage, Declared.SDKMessage>>;
  sdkMessageTypes: Assert<Exactly<Declared.SDKMessage["type"], Real.SDKMessage["type"]>>;
  sdkResultMessage: Assert<SameMembers<Real.SDKResultMessage, Declared.SDKResultMessage>>;
  resultInStream: Assert<
    SameMembers<Extract<Real.SDKMessage, { type: "result" }>, Extract<Declared.SDKMessage, { type: "result" }>>
  >;
  query: Assert<Within<typeof Real.query, typeof Declared.query>>;
  queryStream: Assert<Within<Real.Query, Declared.Query>>;
}

/** Types toolgate gives: the SDK accepts what toolgate declares, and each declared member is exactly the SDK's. */
export interface Given {
  hookJSONOutput: Assert<Within<Declared.HookJSONOutput, Real.HookJSONOutput>>;
  hookJSONOutputMembers: Assert<
    SameMembers<Real.SyncHookJSONOutput, Omit<Declared.HookJSONOutput, "hookSpecificOutput">>
  >;
  preToolUseOutput: Assert<SameMembers<Real.PreToolUseHookSpecificOutput, Declared.PreToolUseHookSpecificOutput>>;
  postToolUseOutput: Assert<SameMembers<Real.PostToolUseHookSpecificOutput, Declared.PostToolUseHookSpecificOutput>>;
  postToolUseFailureOutput: Assert<
    SameMembers<Real.PostToolUseFailureHookSpecificOutput, Declared.PostToolUseFailureHookSpecificOutput>
  >;
  hookCallback: Assert<Within<Declared.HookCallback, Real.HookCallback>>;
  hookCallbackMatcher: Assert<Within<Declared.HookCallbackMatcher, Real.HookCallbackMatcher>>;
  hookCallbackMatcherMembers: Assert<
    SameMembers<Real.HookCallbackMatcher, Omit<Declared.HookCallbackMatcher, "hooks">>
  >;
  options: Assert<Within<Declared.Options, Real.Options>>;
  optionsMembers: Assert<SameMembers<Real.Options, Omit<Declared.Options, "hooks">>>;
}
