import type { CompiledRule } from "./compile-rule.js";
import type { DefaultsPreset } from "./defaults/read-only-defaults.js";
import type { PathRuleIndex } from "./match/path-rule-index.js";
import type { PathSpecifierContext } from "./match/path-specifier.js";
import type { PermissionMode } from "./policy-types.js";
import type { Subcommand } from "./shell/analyze-shell-command.js";

/** Everything one evaluation needs besides the call; built by `compilePolicy` per call, never by users. */
export interface EvaluationContext {
  pathContext: PathSpecifierContext;
  /** absolute, normalised: the working directory and the additional directories */
  workingDirectories: readonly string[];
  defaults: DefaultsPreset;
  mode: PermissionMode;
  /** session grants that apply to the call's tool, compiled as allow rules */
  grants: readonly CompiledRule[];
  /** whether `neverGrant` forbids granting this shell subcommand */
  grantForbidden: (subcommand: Subcommand) => boolean;
  /** Read/Edit/Write deny and ask rules, applied to the paths shell readers and writers name */
  shellPathRules: readonly CompiledRule[];
  /** the Read-family rules of `shellPathRules` (tested on the paths a subcommand reads), indexed */
  shellReadRules: PathRuleIndex;
  /** the other rules of `shellPathRules` (tested on the paths a subcommand writes), indexed */
  shellWriteRules: PathRuleIndex;
  /** the absolute paths a shell subcommand reads and writes */
  fileTargets: (subcommand: Subcommand) => FileTargets;
}

export interface FileTargets {
  /** the program is a recognised file reader or writer */
  recognised: boolean;
  reads: readonly string[];
  writes: readonly string[];
}
