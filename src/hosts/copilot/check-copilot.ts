import { existsSync } from "node:fs";
import { join } from "node:path";
import { ToolgateError } from "../../core/errors.js";
import { type DoctorCheck, type DoctorContext, fail, ok, warn } from "../common/doctor-check.js";
import { readSettingsFile } from "../common/settings-file.js";
import { COPILOT_HOOK_EVENTS } from "./copilot-hook-input.js";
import { toolgateCommandsOf } from "./copilot-hooks-file.js";
import { copilotHooksPath } from "./install-copilot.js";

const SCOPES = ["user", "project"] as const;

function environment(context: DoctorContext): Record<string, string | undefined> {
  return { ...(context.env ?? {}), HOME: context.home };
}

function hooksPath(scope: (typeof SCOPES)[number], context: DoctorContext): string {
  return copilotHooksPath({ scope, cwd: context.cwd, env: environment(context) });
}

/** Where doctor looks for Copilot CLI: its home folder and the project's hooks folder. */
export function copilotLocations(context: DoctorContext): string[] {
  const home = environment(context)["COPILOT_HOME"] || join(context.home, ".copilot");
  return [home, join(context.cwd, ".github", "hooks")];
}

/** Copilot CLI is set up here when its home folder or the project's toolgate hooks file exists. */
export function copilotFound(context: DoctorContext): boolean {
  return existsSync(copilotLocations(context)[0] as string) || existsSync(hooksPath("project", context));
}

/** The quoted paths of a hook command (`"<node>" "<toolgate entry>" hook copilot <event>`) that do not exist. */
function missingPaths(command: string): string[] {
  return [...command.matchAll(/"([^"]+)"/g)].map((match) => match[1] as string).filter((path) => !existsSync(path));
}

function checkScope(scope: (typeof SCOPES)[number], context: DoctorContext): DoctorCheck[] {
  const path = hooksPath(scope, context);
  if (!existsSync(path)) return [];
  const name = `copilot hooks (${scope})`;
  let settings: Record<string, unknown>;
  try {
    settings = readSettingsFile(path, { strict: "GitHub Copilot CLI reads its hooks files as plain JSON" }).settings;
  } catch (error) {
    if (!ToolgateError.is(error)) throw error;
    return [fail(name, error.message, { fix: `Fix the JSON in ${path}, then run \`toolgate doctor\` again.` })];
  }
  const commands = toolgateCommandsOf(settings);
  if (commands.size === 0) return [];
  const fix = `toolgate install copilot --${scope}   # rewrites toolgate's entries for this toolgate`;
  const missing = COPILOT_HOOK_EVENTS.filter((event) => !commands.has(event));
  if (missing.length > 0) {
    return [warn(name, `${path} has toolgate's hook but not for ${missing.join(", ")}`, { fix })];
  }
  const wrongEvent = [...commands].filter(([event, list]) =>
    list.some((command) => !command.trim().endsWith(` ${event}`)),
  );
  if (wrongEvent.length > 0) {
    return [
      fail(
        name,
        `${path} runs toolgate for ${wrongEvent.map(([event]) => event).join(", ")} without naming the event`,
        {
          fix,
        },
      ),
    ];
  }
  const absent = [...new Set([...commands.values()].flat().flatMap(missingPaths))];
  const checks: DoctorCheck[] = [
    absent.length > 0
      ? fail(name, `${path} runs ${absent.join(", ")}, which does not exist; Copilot CLI runs without toolgate`, {
          fix,
        })
      : ok(name, `${path}: toolgate answers ${COPILOT_HOOK_EVENTS.join(", ")}`),
  ];
  if (scope === "project") {
    checks.push(
      warn(`copilot trust (${scope})`, `${path} is loaded only in a folder Copilot CLI trusts`, {
        fix: "Trust the folder at Copilot's prompt (or add it to trustedFolders in ~/.copilot/config.json), or install with --user.",
      }),
    );
  }
  return checks;
}

/** toolgate's hooks in the user and project Copilot CLI hooks files. */
export function checkCopilot(context: DoctorContext): DoctorCheck[] {
  const checks = SCOPES.flatMap((scope) => checkScope(scope, context));
  if (!checks.some((check) => check.name.startsWith("copilot hooks"))) {
    checks.push(
      warn("copilot hooks", "GitHub Copilot CLI is set up here but toolgate's hooks are not installed", {
        fix: "toolgate install copilot --user   # or --project",
      }),
    );
  }
  return checks;
}
