import { existsSync } from "node:fs";
import { join } from "node:path";
import { ToolgateError } from "../../core/errors.js";
import { type DoctorCheck, type DoctorContext, fail, ok, warn } from "../common/doctor-check.js";
import { qwenSettingsPath, readQwenSettings } from "./install-qwen.js";
import { isToolgateQwenCommand, QWEN_TOOLGATE_HOOK_EVENTS, qwenAskRules } from "./qwen-settings-hooks.js";

const SCOPES = ["user", "project"] as const;
const EVENTS = QWEN_TOOLGATE_HOOK_EVENTS.map(({ event }) => event);

function settingsPath(scope: (typeof SCOPES)[number], context: DoctorContext): string {
  return qwenSettingsPath({ scope, cwd: context.cwd, home: context.home });
}

/** Qwen Code is set up here when ~/.qwen or a project .qwen/settings.json exists. */
export function qwenFound(context: DoctorContext): boolean {
  return existsSync(join(context.home, ".qwen")) || existsSync(settingsPath("project", context));
}

/** The quoted paths of a hook command (`"<node>" "<toolgate entry>" hook qwen`) that do not exist. */
function missingPaths(command: string): string[] {
  return [...command.matchAll(/"([^"]+)"/g)].map((match) => match[1] as string).filter((path) => !existsSync(path));
}

function checkScope(scope: (typeof SCOPES)[number], context: DoctorContext): DoctorCheck[] {
  const path = settingsPath(scope, context);
  if (!existsSync(path)) return [];
  const name = `qwen hooks (${scope})`;
  let settings: Record<string, unknown>;
  try {
    settings = readQwenSettings(path).settings;
  } catch (error) {
    if (!ToolgateError.is(error)) throw error;
    return [fail(name, error.message, { fix: `Fix the JSON in ${path}, then run \`toolgate doctor\` again.` })];
  }
  const checks: DoctorCheck[] = [];
  const asks = qwenAskRules(settings);
  if (asks.length > 0) {
    checks.push(
      warn(
        `qwen ask rules (${scope})`,
        `${path} has ask rules (${asks.join(", ")}): Qwen Code's yolo mode (--yolo, --approval-mode yolo) runs these calls without asking`,
        {
          fix: "Run Qwen without yolo where these must ask, or make them deny rules (in Qwen's settings or toolgate.config.json: toolgate's PreToolUse hook enforces its deny rules in every mode).",
        },
      ),
    );
  }
  const hooks = (settings["hooks"] ?? {}) as Record<string, { hooks?: { command?: unknown }[] }[]>;
  const commandsFor = (event: string) =>
    (Array.isArray(hooks[event]) ? hooks[event] : [])
      .flatMap((group) => group.hooks ?? [])
      .map((entry) => entry.command)
      .filter(isToolgateQwenCommand) as string[];
  const installed = EVENTS.filter((event) => commandsFor(event).length > 0);
  if (installed.length === 0) return checks;
  const fix = `toolgate install qwen --${scope}   # rewrites toolgate's entries for this toolgate`;
  if (installed.length < EVENTS.length) {
    const missing = EVENTS.filter((event) => !installed.includes(event));
    checks.push(
      warn(name, `${path} has toolgate's hook for ${installed.join(", ")} but not ${missing.join(", ")}`, { fix: fix }),
    );
    return checks;
  }
  const missing = [...new Set(EVENTS.flatMap((event) => commandsFor(event).flatMap(missingPaths)))];
  checks.push(
    missing.length > 0
      ? fail(name, `${path} runs ${missing.join(", ")}, which does not exist; Qwen Code runs without toolgate`, {
          fix: fix,
        })
      : ok(name, `${path}: toolgate answers ${EVENTS.join(", ")}`),
  );
  return checks;
}

/** toolgate's hooks in the user and project Qwen Code settings, and ask rules that yolo mode would ignore. */
export function checkQwen(context: DoctorContext): DoctorCheck[] {
  const checks = SCOPES.flatMap((scope) => checkScope(scope, context));
  if (!checks.some((check) => check.name.startsWith("qwen hooks"))) {
    checks.push(
      warn("qwen hooks", "Qwen Code is set up here but toolgate's hooks are not installed", {
        fix: "toolgate install qwen --user   # or --project",
      }),
    );
  }
  return checks;
}
