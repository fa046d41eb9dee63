import { join } from "node:path";
import type { StoreOptions } from "../../config/store-schema.js";
import { ToolgateError } from "../../core/errors.js";
import { type DoctorCheck, type DoctorContext, fail, ok, warn } from "../../hosts/common/doctor-check.js";
import { CONFIG_FILE_NAMES, configFiles } from "../../root/config-files.js";
import { loadConfig } from "../../root/load-config.js";

export interface ConfigCheck {
  checks: DoctorCheck[];
  /** the config's store section, when the config loaded (the store check opens what it selects) */
  store: StoreOptions | undefined;
}

/**
 * The config files that apply load and validate. An invalid file fails with the ToolgateError's own message (the
 * file and every bad key path); env overrides that did not apply are warnings.
 */
export function checkConfig(context: DoctorContext): ConfigCheck {
  let files: string[];
  try {
    files = configFiles({ cwd: context.cwd, env: context.env, homeDir: context.home });
    const loaded = loadConfig({ cwd: context.cwd, env: context.env, homeDir: context.home, files });
    const checks: DoctorCheck[] = [
      ok(
        "config",
        files.length === 0
          ? `no config file, the defaults apply (looked for ${join(context.home, ".toolgate.json")} and ${CONFIG_FILE_NAMES.join(" or ")} from ${context.cwd} upwards)`
          : `valid: ${files.join(", ")}`,
      ),
    ];
    for (const warning of loaded.warnings) {
      checks.push(warn("config", warning.message, { fix: "Fix or unset the environment variable named above." }));
    }
    return { checks, store: loaded.config.store as StoreOptions | undefined };
  } catch (error) {
    if (!ToolgateError.is(error)) throw error;
    const file = typeof error.data?.file === "string" ? error.data.file : undefined;
    const fix =
      error.code === "CONFIG_NOT_FOUND"
        ? "Point TOOLGATE_CONFIG at an existing toolgate.config.json, or unset it."
        : `Edit ${file ?? "the file named above"} as the lines above say (until then toolgate's hooks deny every tool call), then run \`toolgate doctor\` again.`;
    return { checks: [fail("config", error.message, { fix: fix })], store: undefined };
  }
}
