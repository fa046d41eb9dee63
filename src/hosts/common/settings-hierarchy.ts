import type { ClaudeSettingsRules } from "../../policy/claude-settings-rules.js";

/** Where a host's settings hierarchy is read from, as the composition root passes it (config `claudeSettings`). */
export interface SettingsHierarchyOptions {
  /** the project directory (the host's own project variable wins when set in `env`) */
  cwd: string;
  homeDir: string;
  env?: Readonly<Record<string, string | undefined>>;
  /** the managed (system-wide) settings file; its `managed-settings.d/*.json` drop-ins are read too */
  managedSettingsPath?: string;
  /** `auto` asks the host's own record of trusted workspaces (the default) */
  workspaceTrust?: "auto" | "trusted" | "untrusted";
}

/** A settings file the host itself skips (not plain JSON, not an object), so toolgate skips it too. */
export interface SkippedSettingsFile {
  file: string;
  why: string;
}

/** A settings hierarchy read and merged: its permission rules in toolgate's rule language, and what was read. */
export interface SettingsHierarchy extends ClaudeSettingsRules {
  /** the files that existed and were read, highest precedence first */
  files: string[];
  /** the files that exist but the host does not read (a comment, a trailing comma, broken JSON) */
  skipped: SkippedSettingsFile[];
  trusted: boolean;
  projectDirectory: string;
}

/**
 * A descriptor's `settingsHierarchy`: settings files whose permission rules are toolgate's own rule language, read
 * into the policy for every host unless the config turns it off (`claudeSettings.enabled: false`). Synchronous: the
 * policy reads it on every build, in the hook process too.
 */
export type ReadSettingsHierarchy = (options: SettingsHierarchyOptions) => SettingsHierarchy;
