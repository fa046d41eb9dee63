import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type DoctorCheck, type DoctorContext, fail, ok, warn } from "../common/doctor-check.js";
import { clinePluginPath, isToolgatePluginFile, toolgatePluginModule } from "./install-cline.js";

const SCOPES = ["user", "project"] as const;

function pluginPath(scope: (typeof SCOPES)[number], context: DoctorContext): string {
  return clinePluginPath({ scope, cwd: context.cwd, home: context.home });
}

/** Cline is set up here when `~/.cline` or a project `.cline` folder exists. */
export function clineFound(context: DoctorContext): boolean {
  return existsSync(join(context.home, ".cline")) || existsSync(join(context.cwd, ".cline"));
}

export function clineLocations(context: DoctorContext): string[] {
  return [join(context.home, ".cline"), join(context.cwd, ".cline")];
}

/** The plugin file toolgate wrote into each plugins folder, and the module it imports exists. */
export function checkCline(context: DoctorContext): DoctorCheck[] {
  const checks: DoctorCheck[] = [];
  for (const scope of SCOPES) {
    const path = pluginPath(scope, context);
    if (!existsSync(path)) continue;
    const name = `cline plugin (${scope})`;
    const text = readFileSync(path, "utf8");
    if (!isToolgatePluginFile(text)) {
      checks.push(
        warn(name, `${path} is not toolgate's plugin file; Cline loads it, toolgate does not check it`, {
          fix: `toolgate install cline --${scope}   # sets that file aside and writes toolgate's`,
        }),
      );
      continue;
    }
    const url = toolgatePluginModule(text) ?? "";
    const file = url.startsWith("file:") ? fileURLToPath(url) : url;
    checks.push(
      existsSync(file)
        ? ok(name, `${path} loads ${file}`)
        : fail(name, `${path} loads ${file}, which does not exist; Cline runs without toolgate`, {
            fix: `toolgate install cline --${scope}   # points the file at this toolgate`,
          }),
    );
  }
  if (checks.length === 0) {
    checks.push(
      warn("cline plugin", `no toolgate plugin in ${SCOPES.map((scope) => pluginPath(scope, context)).join(", ")}`, {
        fix: "toolgate install cline                # --project for this project only",
      }),
    );
  }
  return checks;
}
