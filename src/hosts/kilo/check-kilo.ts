import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type DoctorCheck, type DoctorContext, fail, ok, warn } from "../common/doctor-check.js";
import { readSettingsFile } from "../common/settings-file.js";
import { isToolgateKiloEntry, kiloConfigPath, kiloPluginUrl } from "./install-kilo.js";

const SCOPES = ["user", "project"] as const;

function configPath(scope: (typeof SCOPES)[number], context: DoctorContext): string {
  return kiloConfigPath({ scope, cwd: context.cwd, home: context.home });
}

/** Kilo is set up here when its user config folder or a project kilo.json(c) exists. */
export function kiloFound(context: DoctorContext): boolean {
  return existsSync(join(context.home, ".config", "kilo")) || existsSync(configPath("project", context));
}

export function kiloLocations(context: DoctorContext): string[] {
  return [join(context.home, ".config", "kilo"), configPath("project", context)];
}

/** toolgate's plugin entry in the user and project kilo.json, the module file it names exists, and it is Kilo's. */
export function checkKilo(context: DoctorContext): DoctorCheck[] {
  const checks: DoctorCheck[] = [];
  for (const scope of SCOPES) {
    const path = configPath(scope, context);
    if (!existsSync(path)) continue;
    const name = `kilo plugin (${scope})`;
    let settings: Record<string, unknown>;
    try {
      settings = readSettingsFile(path).settings;
    } catch (error) {
      checks.push(
        fail(name, (error as Error).message, { fix: `Fix the JSON in ${path}, then run \`toolgate doctor\` again.` }),
      );
      continue;
    }
    const plugins = Array.isArray(settings["plugin"]) ? settings["plugin"] : [];
    for (const item of plugins.filter((entry) => isToolgateKiloEntry(entry) || entry === kiloPluginUrl())) {
      const spec = String(Array.isArray(item) ? item[0] : item);
      const file = spec.startsWith("file:") ? fileURLToPath(spec) : spec;
      const named = Array.isArray(item) && (item[1] as { host?: unknown } | undefined)?.host === "kilo";
      if (!existsSync(file)) {
        checks.push(
          fail(name, `${path} loads ${file}, which does not exist; Kilo runs without toolgate`, {
            fix: `toolgate install kilo --${scope}   # points the entry at this toolgate`,
          }),
        );
      } else if (!named) {
        checks.push(
          warn(
            name,
            `${path} loads ${file} without { "host": "kilo" }: Kilo's sessions are recorded under the plugin's default host`,
            {
              fix: `toolgate install kilo --${scope}`,
            },
          ),
        );
      } else checks.push(ok(name, `${path} loads ${file}`));
    }
  }
  if (checks.length === 0) {
    checks.push(
      warn(
        "kilo plugin",
        `no toolgate plugin entry in ${SCOPES.map((scope) => configPath(scope, context)).join(", ")}`,
        {
          fix: "toolgate install kilo               # or --user for every project",
        },
      ),
    );
  }
  return checks;
}
