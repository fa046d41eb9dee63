import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type DoctorCheck, type DoctorContext, fail, ok, warn } from "../common/doctor-check.js";
import { parseJsonc } from "../common/json-file-edit.js";
import { GEMINI_INSTALLED_EVENTS } from "./gemini-hook-input.js";
import { geminiPolicyRules } from "./gemini-policy-rules.js";
import { isToolgateGeminiCommand } from "./gemini-settings-hooks.js";
import { geminiSettingsPath } from "./install-gemini.js";

const SCOPES = ["user", "project"] as const;

function settingsPath(scope: (typeof SCOPES)[number], context: DoctorContext): string {
  return geminiSettingsPath({ scope, cwd: context.cwd, home: context.home });
}

/** Gemini CLI is set up here when ~/.gemini or a project .gemini/settings.json exists. */
export function geminiFound(context: DoctorContext): boolean {
  return existsSync(join(context.home, ".gemini")) || existsSync(settingsPath("project", context));
}

/** Where doctor looks for Gemini CLI (for the "no host found" line). */
export function geminiLocations(context: DoctorContext): string[] {
  return [join(context.home, ".gemini"), settingsPath("project", context)];
}

/** The quoted paths of a hook command (`"<node>" "<toolgate entry>" hook gemini`) that do not exist. */
function missingPaths(command: string): string[] {
  return [...command.matchAll(/"([^"]+)"/g)].map((match) => match[1] as string).filter((path) => !existsSync(path));
}

function checkHooks(scope: (typeof SCOPES)[number], context: DoctorContext): DoctorCheck | undefined {
  const path = settingsPath(scope, context);
  if (!existsSync(path)) return undefined;
  const name = `gemini hooks (${scope})`;
  let settings: { hooks?: Record<string, { hooks?: { command?: unknown }[] }[]> };
  try {
    settings = parseJsonc(readFileSync(path, "utf8")) as typeof settings;
  } catch (error) {
    return fail(name, `${path} is not valid JSON (${(error as Error).message})`, { fix: `Fix the JSON in ${path}.` });
  }
  const commandsFor = (event: string) =>
    (settings?.hooks?.[event] ?? [])
      .flatMap((group) => group.hooks ?? [])
      .map((entry) => entry.command)
      .filter(isToolgateGeminiCommand) as string[];
  const installed = GEMINI_INSTALLED_EVENTS.filter((event) => commandsFor(event).length > 0);
  if (installed.length === 0) return undefined;
  const fix = `toolgate install gemini --${scope}   # rewrites toolgate's entries for this toolgate`;
  if (installed.length < GEMINI_INSTALLED_EVENTS.length) {
    const missing = GEMINI_INSTALLED_EVENTS.filter((event) => !installed.includes(event));
    return warn(name, `${path} has toolgate's hook for ${installed.join(", ")} but not ${missing.join(", ")}`, {
      fix: fix,
    });
  }
  const missing = [...new Set(GEMINI_INSTALLED_EVENTS.flatMap((event) => commandsFor(event).flatMap(missingPaths)))];
  if (missing.length > 0) {
    return fail(name, `${path} runs ${missing.join(", ")}, which does not exist; Gemini runs without toolgate`, {
      fix: fix,
    });
  }
  return ok(name, `${path}: toolgate answers ${GEMINI_INSTALLED_EVENTS.join(", ")}`);
}

/** toolgate's hooks in the user and project Gemini settings, and the user's Gemini policies as toolgate reads them. */
export function checkGemini(context: DoctorContext): DoctorCheck[] {
  const checks: DoctorCheck[] = [];
  for (const scope of SCOPES) {
    const check = checkHooks(scope, context);
    if (check !== undefined) checks.push(check);
  }
  if (checks.length === 0) {
    checks.push(
      warn("gemini hooks", `no toolgate hook in ${SCOPES.map((scope) => settingsPath(scope, context)).join(", ")}`, {
        fix: "toolgate install gemini --user        # or without --user for this project only",
      }),
    );
  }
  try {
    const policy = geminiPolicyRules({ homeDir: context.home, cwd: context.cwd });
    const rules = policy.rules.length;
    const files = policy.sources;
    if (policy.warnings.length > 0) {
      checks.push(
        warn(
          "gemini policies",
          `${rules} rules from ${files.length} files; ${policy.warnings.length} toolgate cannot express:\n${policy.warnings.map((warning) => warning.message).join("\n")}`,
          {
            fix: "Rewrite those rules with toolName/commandPrefix, or accept that toolgate will not deny those calls first.",
          },
        ),
      );
    } else {
      checks.push(ok("gemini policies", `${rules} rules from ${files.length} files in ~/.gemini/policies`));
    }
  } catch (error) {
    checks.push(
      fail("gemini policies", (error as Error).message, {
        fix: "Fix the policy file; until then toolgate's Gemini hook refuses every call.",
      }),
    );
  }
  return checks;
}
