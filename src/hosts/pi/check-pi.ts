import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type DoctorCheck, type DoctorContext, fail, ok, warn } from "../common/doctor-check.js";
import { readSettingsFile } from "../common/settings-file.js";
import { isToolgateExtension, piAgentDirectory, piSettingsPath, toolgateExtensionPath } from "./install-pi.js";

const SCOPES = ["user", "project"] as const;

function settingsPath(scope: (typeof SCOPES)[number], context: DoctorContext): string {
  return piSettingsPath({ scope, cwd: context.cwd, home: context.home, env: context.env });
}

/** pi is set up here when its agent folder (`~/.pi/agent`, `PI_CODING_AGENT_DIR`) or a project `.pi` exists. */
export function piFound(context: DoctorContext): boolean {
  return existsSync(piAgentDirectory({ home: context.home, env: context.env })) || existsSync(join(context.cwd, ".pi"));
}

export function piLocations(context: DoctorContext): string[] {
  return [piAgentDirectory({ home: context.home, env: context.env }), join(context.cwd, ".pi")];
}

/** Whether pi trusts the project (a saved decision in trust.json for it or a parent; pi's own rule, roughly). */
function projectTrusted(context: DoctorContext): boolean | undefined {
  const file = join(piAgentDirectory({ home: context.home, env: context.env }), "trust.json");
  if (!existsSync(file)) return undefined;
  try {
    const text = readFileSync(file, "utf8");
    return text.includes(JSON.stringify(context.cwd).slice(1, -1)) ? true : undefined;
  } catch {
    return undefined;
  }
}

/** toolgate's entry in pi's user and project settings, the file it names exists, and the project's trust. */
export function checkPi(context: DoctorContext): DoctorCheck[] {
  const checks: DoctorCheck[] = [];
  for (const scope of SCOPES) {
    const path = settingsPath(scope, context);
    if (!existsSync(path)) continue;
    const name = `pi extension (${scope})`;
    let settings: Record<string, unknown>;
    try {
      settings = readSettingsFile(path).settings;
    } catch (error) {
      checks.push(
        fail(name, (error as Error).message, { fix: `Fix the JSON in ${path}, then run \`toolgate doctor\` again.` }),
      );
      continue;
    }
    const extensions = Array.isArray(settings["extensions"]) ? settings["extensions"] : [];
    for (const item of extensions.filter((entry) => entry === toolgateExtensionPath() || isToolgateExtension(entry))) {
      const file = String(item);
      if (!existsSync(file)) {
        checks.push(
          fail(name, `${path} loads ${file}, which does not exist; pi runs without toolgate`, {
            fix: `toolgate install pi --${scope}   # points the entry at this toolgate`,
          }),
        );
      } else if (scope === "project" && projectTrusted(context) !== true) {
        checks.push(
          warn(name, `${path} loads ${file}, but pi reads project settings only in a trusted project`, {
            fix: "pi --approve (or /trust in pi), or: toolgate install pi --user",
          }),
        );
      } else checks.push(ok(name, `${path} loads ${file}`));
    }
  }
  if (checks.length === 0) {
    checks.push(
      warn(
        "pi extension",
        `no toolgate extension in ${SCOPES.map((scope) => settingsPath(scope, context)).join(", ")}`,
        {
          fix: "toolgate install pi                 # ~/.pi/agent/settings.json, every project",
        },
      ),
    );
  }
  return checks;
}
