import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { ToolgateError } from "../../core/errors.js";
import { type DoctorCheck, type DoctorContext, fail, ok, warn } from "../common/doctor-check.js";
import { residentHookCommand } from "../common/hook-command.js";
import { probeHookCommand } from "../common/run-hook-command.js";
import { isTrusted, readClaudeSettings, readClaudeSettingsFile } from "./claude-settings-hierarchy.js";
import { claudeSettingsPath, defaultHookCommand, type InstallScope } from "./install-claude-code.js";
import { hasToolgateHooks, toolgateHookCommands } from "./settings-hooks.js";

const SCOPES: readonly InstallScope[] = ["user", "project", "local"];

/** The project Claude Code runs in: `CLAUDE_PROJECT_DIR` when set, else the current directory. */
function projectDirectory(context: DoctorContext): string {
  return resolve(context.env.CLAUDE_PROJECT_DIR || context.cwd);
}

/** Claude Code is set up here when its user or project settings directory exists. */
export function claudeCodeFound(context: DoctorContext): boolean {
  return existsSync(join(context.home, ".claude")) || existsSync(join(projectDirectory(context), ".claude"));
}

/** Where doctor looks for Claude Code (for the "no host found" line). */
export function claudeCodeLocations(context: DoctorContext): string[] {
  return [join(context.home, ".claude"), join(projectDirectory(context), ".claude")];
}

/**
 * toolgate's hooks in the user, project and local settings files: present for every event, and each distinct
 * hook command starts a working toolgate (run with `--version`, 5 s timeout). A command from a project file of a
 * workspace Claude Code has not trusted is not run (it could be anything a cloned repository put there), unless it
 * is exactly the command this toolgate installs.
 */
export function checkClaudeCode(context: DoctorContext): DoctorCheck[] {
  const checks: DoctorCheck[] = [...checkSettingsFiles(context)];
  const commands = new Map<string, string>();
  let installed = false;
  for (const scope of SCOPES) {
    const path = claudeSettingsPath({ scope, cwd: projectDirectory(context), home: context.home });
    if (!existsSync(path)) continue;
    const name = `claude-code hooks (${scope})`;
    let settings: Record<string, unknown>;
    try {
      const read = readClaudeSettingsFile(path);
      // a file Claude Code skips runs none of its hooks: checkSettingsFiles already failed on it
      if (read.value === undefined) continue;
      settings = read.value as Record<string, unknown>;
    } catch (error) {
      if (!ToolgateError.is(error)) throw error;
      continue;
    }
    const found = toolgateHookCommands(settings);
    if (found.length === 0) continue;
    installed = true;
    for (const command of found) commands.set(command, path);
    checks.push(
      hasToolgateHooks(settings)
        ? ok(name, `installed in ${path}`)
        : warn(name, `${path} has toolgate hooks for some events only`, {
            fix: `toolgate install claude-code --${scope}   # adds the missing events`,
          }),
    );
  }
  if (!installed) {
    checks.push(
      warn(
        "claude-code hooks",
        `no toolgate hooks in ${SCOPES.map((scope) => claudeSettingsPath({ scope, cwd: projectDirectory(context), home: context.home })).join(", ")}`,
        { fix: "toolgate install claude-code          # or --user for every project" },
      ),
    );
  }
  const trusted = isTrusted(projectDirectory(context), context.home);
  for (const [command, path] of commands) {
    const scope = scopeOf(path, context);
    if (scope !== "user" && !trusted && !isThisToolgate(command)) {
      checks.push(
        warn(
          "claude-code hook command",
          `not run: ${command} comes from ${path} and Claude Code has not trusted this workspace`,
          {
            fix: `Read the command in ${path}; once you trust it, run \`claude\` here and accept the trust dialog, or run \`toolgate install claude-code --${scope}\` to use this toolgate.`,
          },
        ),
      );
      continue;
    }
    const probe = probeHookCommand(command, context.env);
    checks.push(
      probe.ok
        ? ok("claude-code hook command", `${command} runs toolgate ${probe.version}`)
        : fail(
            "claude-code hook command",
            `the hook command in ${path} does not start toolgate (${probe.reason}); toolgate checks nothing in these sessions`,
            { fix: `toolgate install claude-code --${scope}   # rewrites the command for this toolgate and node` },
          ),
    );
  }
  return checks;
}

/**
 * Every Claude Code settings file the hook reads (managed and its drop-ins, local, project, user), read as Claude
 * Code reads them: one it skips (a comment, a trailing comma, broken JSON) or one that cannot be read fails, with
 * the fix. Claude Code runs none of such a file's hooks and applies none of its rules.
 */
function checkSettingsFiles(context: DoctorContext): DoctorCheck[] {
  try {
    const settings = readClaudeSettings({ cwd: projectDirectory(context), homeDir: context.home, env: context.env });
    return settings.skipped.map(({ file, why }) =>
      fail("claude-code settings", `Claude Code ignores ${file}: its permission rules and hooks do not apply`, {
        fix: `${why[0]?.toUpperCase() ?? ""}${why.slice(1)}, then run \`toolgate doctor\` again.`,
      }),
    );
  } catch (error) {
    if (!ToolgateError.is(error)) throw error;
    return [
      fail("claude-code settings", `${error.message} The hook denies every call while it cannot read it.`, {
        fix: "Make the file readable by you (or remove it), then run `toolgate doctor` again.",
      }),
    ];
  }
}

function scopeOf(path: string, context: DoctorContext): InstallScope {
  return (
    SCOPES.find(
      (scope) => claudeSettingsPath({ scope, cwd: projectDirectory(context), home: context.home }) === path,
    ) ?? "project"
  );
}

/** The command this toolgate installs: the Node hook, or the resident hook's client (`install --resident`). */
function isThisToolgate(command: string): boolean {
  if (command === defaultHookCommand()) return true;
  try {
    return command === residentHookCommand("claude-code");
  } catch {
    // no bash 4 or no bundled hook here: not a command this toolgate would write
    return false;
  }
}
