// types/opencode-plugin.d.ts against the installed @opencode-ai/plugin: compiled by declared-types.test.ts; a check
// that does not hold is a compile error on its line.
import type * as Real from "@opencode-ai/plugin";
import type * as Declared from "../../../types/opencode-plugin.js";
import type { Assert, Exactly, SameMembers, UnknownForAny, Within } from "./type-checks.js";

/** The input (0) or output (1) of a hook. */
type HookArgument<H, Name extends keyof H, Index extends 0 | 1> =
  NonNullable<H[Name]> extends (...args: infer Arguments) => unknown ? Arguments[Index] : never;

/** What opencode hands the plugin: whatever it sends fits, and each declared member is exactly the plugin's. */
export interface Received {
  pluginInput: Assert<Within<Real.PluginInput, Declared.PluginInput>>;
  pluginInputMembers: Assert<SameMembers<Real.PluginInput, Declared.PluginInput>>;
  pluginOptions: Assert<Exactly<Declared.PluginOptions, Real.PluginOptions>>;
}

/** What toolgate gives opencode: opencode accepts it, and each declared hook is exactly the plugin's. */
export interface Given {
  plugin: Assert<Within<Declared.Plugin, Real.Plugin>>;
  hooks: Assert<Within<Declared.Hooks, Real.Hooks>>;
  hooksMembers: Assert<SameMembers<Real.Hooks, Declared.Hooks>>;
}

/** The plugin's `any` members that toolgate reads are `unknown` here (exactly equal to anything, `any` proves nothing). */
export interface Untyped {
  argsBefore: Assert<
    UnknownForAny<
      HookArgument<Real.Hooks, "tool.execute.before", 1>["args"],
      HookArgument<Declared.Hooks, "tool.execute.before", 1>["args"]
    >
  >;
  argsAfter: Assert<
    UnknownForAny<
      HookArgument<Real.Hooks, "tool.execute.after", 0>["args"],
      HookArgument<Declared.Hooks, "tool.execute.after", 0>["args"]
    >
  >;
  metadataAfter: Assert<
    UnknownForAny<
      HookArgument<Real.Hooks, "tool.execute.after", 1>["metadata"],
      HookArgument<Declared.Hooks, "tool.execute.after", 1>["metadata"]
    >
  >;
}
