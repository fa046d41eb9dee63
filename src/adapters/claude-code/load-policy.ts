import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { PolicyEvaluator } from "../../guard/create-guard.js";
import { type ClaudeSettingsScope, mergeClaudeSettings } from "../../policy/claude-settings-rules.js";
import { compilePolicy } from "../../policy/compile-policy.js";

function readJson(path: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(readFileSync(path, "utf8")) as unknown;
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function scope(name: ClaudeSettingsScope["scope"], file: string): ClaudeSettingsScope {
  const settings = readJson(file);
  const result: ClaudeSettingsScope = {
    scope: name,
    file,
    permissions: settings?.permissions as ClaudeSettingsScope["permissions"],
  };
  if (settings?.allowManagedPermissionRulesOnly === true) result.allowManagedPermissionRulesOnly = true;
  return result;
}

function isTrusted(options: { home: string; projectRoot: string }): boolean {
  const state = readJson(join(options.home, ".claude.json"));
  const projects = state?.projects as Record<string, { hasTrustDialogAccepted?: boolean }> | undefined;
  return projects?.[options.projectRoot]?.hasTrustDialogAccepted === true;
}

/**
 * The live Claude Code settings hierarchy of a project as a toolgate policy: managed, local, project and user
 * `permissions` merged the way Claude Code merges them (a deny anywhere wins; project allow entries only in a
 * trusted workspace). Command-line rules (`--disallowedTools`) are not visible to a hook process.
 */
export async function loadClaudeCodePolicy(
  cwd: string,
  environment: NodeJS.ProcessEnv = process.env,
): Promise<PolicyEvaluator> {
  const home = environment.HOME ?? homedir();
  const projectRoot = environment.CLAUDE_PROJECT_DIR ?? cwd;
  const managedFile = environment.TOOLGATE_CLAUDE_MANAGED_SETTINGS ?? "/etc/claude-code/managed-settings.json";
  const merged = mergeClaudeSettings({
    scopes: [
      scope("managed", managedFile),
      scope("local", join(projectRoot, ".claude", "settings.local.json")),
      scope("project", join(projectRoot, ".claude", "settings.json")),
      scope("user", join(home, ".claude", "settings.json")),
    ],
    trusted: isTrusted({ home, projectRoot }),
  });
  return compilePolicy({
    rules: merged.rules,
    cwd,
    homeDir: home,
    projectRoot,
    additionalDirectories: merged.additionalDirectories,
    ...(merged.defaultMode === undefined ? {} : { defaultMode: merged.defaultMode }),
  });
}
