import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ToolgateError } from "../../core/errors.js";
import { type DoctorCheck, type DoctorContext, fail, ok, warn } from "../common/doctor-check.js";
import { isToolgateEntry, opencodeConfigPath, readConfig, toolgatePluginUrl } from "./install-opencode.js";

const SCOPES = ["user", "project"] as const;

function configPath(scope: (typeof SCOPES)[number], context: DoctorContext): string {
  return opencodeConfigPath({ scope, cwd: context.cwd, home: context.home });
}

/** opencode is set up here when its user config directory or a project opencode.json(c) exists. */
export function opencodeFound(context: DoctorContext): boolean {
  return existsSync(join(context.home, ".config", "opencode")) || existsSync(configPath("project", context));
}

/** Where doctor looks for opencode (for the "no host found" line). */
export function opencodeLocations(context: DoctorContext): string[] {
  return [join(context.home, ".config", "opencode"), configPath("project", context)];
}

/** toolgate's plugin entry in the user and project opencode.json, and the module file it points to exists. */
export function checkOpencode(context: DoctorContext): DoctorCheck[] {
  const checks: DoctorCheck[] = [];
  for (const scope of SCOPES) {
    const path = configPath(scope, context);
    if (!existsSync(path)) continue;
    const name = `opencode plugin (${scope})`;
    let config: Record<string, unknown>;
    try {
      config = readConfig(path, "toolgate").config;
    } catch (error) {
      if (!ToolgateError.is(error)) throw error;
      checks.push(fail(name, error.message, { fix: `Fix the JSON in ${path}, then run \`toolgate doctor\` again.` }));
      continue;
    }
    const plugins = Array.isArray(config.plugin) ? config.plugin : [];
    // this toolgate's own entry, or one that looks like toolgate's plugin from another install
    const ours = plugins.filter((item) => item === toolgatePluginUrl() || isToolgateEntry(item));
    for (const item of ours) {
      const spec = String(Array.isArray(item) ? item[0] : item);
      const file = spec.startsWith("file:") ? fileURLToPath(spec) : spec;
      checks.push(
        existsSync(file)
          ? ok(name, `${path} loads ${file}`)
          : fail(name, `${path} loads ${file}, which does not exist; opencode runs without toolgate`, {
              fix: `toolgate install opencode --${scope}   # points the entry at this toolgate`,
            }),
      );
    }
  }
  if (checks.length === 0) {
    checks.push(
      warn(
        "opencode plugin",
        `no toolgate plugin entry in ${SCOPES.map((scope) => configPath(scope, context)).join(", ")}`,
        { fix: "toolgate install opencode             # or --user for every project" },
      ),
    );
  }
  return checks;
}
