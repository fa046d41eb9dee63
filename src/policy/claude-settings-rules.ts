import type { PermissionMode, PolicyRule } from "./policy-types.js";
import { PERMISSION_MODES } from "./policy-types.js";

/** The `permissions` block of a Claude Code settings file (unknown keys ignored). */
export interface ClaudePermissions {
  allow?: readonly string[];
  ask?: readonly string[];
  deny?: readonly string[];
  defaultMode?: string;
  additionalDirectories?: readonly string[];
  disableBypassPermissionsMode?: string;
}

export interface ClaudeSettingsScope {
  /** `managed`, `cli`, `local`, `project`, `user` (highest precedence first) */
  scope: "managed" | "cli" | "local" | "project" | "user";
  /** the file, for explanations */
  file?: string;
  permissions: ClaudePermissions | undefined;
  /** managed settings only: only managed allow/ask/deny rules apply */
  allowManagedPermissionRulesOnly?: boolean;
}

export interface ClaudeSettingsRules {
  rules: PolicyRule[];
  defaultMode: PermissionMode | undefined;
  additionalDirectories: string[];
  /** rules that were skipped, with the reason (untrusted workspace, managed-only) */
  ignored: { rule: string; scope: string; why: string }[];
  bypassDisabled: boolean;
}

const ORDER = ["managed", "cli", "local", "project", "user"] as const;

/** Why a rule is skipped, and how to fix it (the text ends up in `toolgate check` and hook warnings). */
const UNTRUSTED =
  "this workspace is not trusted in Claude Code; to trust it, run `claude` in this project once and accept the trust dialog (Claude Code then records hasTrustDialogAccepted for it in ~/.claude.json)";
const MANAGED_ONLY =
  "managed settings set allowManagedPermissionRulesOnly, so only managed rules apply; ask whoever manages this machine's Claude Code settings to add the rule there";
const LABEL: Record<ClaudeSettingsScope["scope"], string> = {
  managed: "managed settings",
  cli: "command-line arguments",
  local: "local project settings",
  project: "project settings",
  user: "user settings",
};

/**
 * Merges Claude Code settings scopes the documented way: rules from every scope are concatenated (they never
 * override each other, so a deny anywhere beats an allow anywhere), the highest-precedence `defaultMode` wins, and
 * additional directories are united. In an untrusted workspace the project's `.claude/settings.json` allow entries
 * are ignored (deny and ask entries still apply), as the real CLI does.
 */
export function mergeClaudeSettings(options: {
  scopes: readonly ClaudeSettingsScope[];
  /** whether the workspace is trusted; when false, project allow entries are ignored */
  trusted: boolean;
}): ClaudeSettingsRules {
  const scopes = [...options.scopes].sort((a, b) => ORDER.indexOf(a.scope) - ORDER.indexOf(b.scope));
  const managedOnly = scopes.some(
    (scope) => scope.scope === "managed" && scope.allowManagedPermissionRulesOnly === true,
  );
  const rules: PolicyRule[] = [];
  const ignored: ClaudeSettingsRules["ignored"] = [];
  let defaultMode: PermissionMode | undefined;
  let bypassDisabled = false;
  const additionalDirectories: string[] = [];
  for (const scope of scopes) {
    const permissions = scope.permissions;
    if (permissions === undefined) continue;
    const origin = scope.file === undefined ? LABEL[scope.scope] : `${LABEL[scope.scope]} (${scope.file})`;
    for (const behavior of ["deny", "ask", "allow"] as const) {
      for (const rule of permissions[behavior] ?? []) {
        if (typeof rule !== "string") continue;
        if (managedOnly && scope.scope !== "managed") {
          ignored.push({ rule, scope: scope.scope, why: MANAGED_ONLY });
        } else if (!options.trusted && scope.scope === "project" && behavior === "allow") {
          ignored.push({ rule, scope: scope.scope, why: UNTRUSTED });
        } else {
          rules.push({ rule, behavior, origin });
        }
      }
    }
    const mode = normalizeMode(permissions.defaultMode);
    if (defaultMode === undefined && mode !== undefined) defaultMode = mode;
    if (permissions.disableBypassPermissionsMode === "disable") bypassDisabled = true;
    for (const directory of permissions.additionalDirectories ?? []) {
      if (typeof directory === "string") additionalDirectories.push(directory);
    }
  }
  return { rules, defaultMode, additionalDirectories, ignored, bypassDisabled };
}

/** Accepts Claude Code's mode names, including `manual` as an alias of `default`. */
export function normalizeMode(mode: string | undefined): PermissionMode | undefined {
  if (mode === undefined) return undefined;
  if (mode === "manual") return "default";
  return (PERMISSION_MODES as readonly string[]).includes(mode) ? (mode as PermissionMode) : undefined;
}
