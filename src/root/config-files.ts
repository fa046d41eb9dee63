import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ToolgateError } from "../core/errors.js";

/** The project config file names, nearest directory first; the user config is `~/.toolgate.json`. */
export const CONFIG_FILE_NAMES = ["toolgate.config.json", ".toolgate.json"] as const;

export interface ConfigFilesOptions {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  homeDir: string;
}

/**
 * The config files that apply, lowest precedence first: `$TOOLGATE_CONFIG` alone when set (it must exist);
 * otherwise `~/.toolgate.json` then the nearest project file from `cwd` upwards. Reads no file, loads no schema:
 * an empty list is the no-config fast path.
 */
export function configFiles(options: ConfigFilesOptions): string[] {
  const explicit = options.env.TOOLGATE_CONFIG;
  if (explicit !== undefined && explicit !== "") {
    const file = resolve(options.cwd, explicit);
    if (!existsSync(file)) {
      throw new ToolgateError({
        code: "CONFIG_NOT_FOUND",
        message: `TOOLGATE_CONFIG names ${file}, which does not exist. Point it at a toolgate.config.json or unset it.`,
        data: { file },
      });
    }
    return [file];
  }
  const files: string[] = [];
  const user = join(options.homeDir, ".toolgate.json");
  const project = findProjectConfig(options.cwd);
  if (existsSync(user) && user !== project) files.push(user);
  if (project !== undefined) files.push(project);
  return files;
}

/** The nearest toolgate.config.json or .toolgate.json from `cwd` upwards. */
export function findProjectConfig(cwd: string): string | undefined {
  let directory = resolve(cwd);
  for (;;) {
    for (const name of CONFIG_FILE_NAMES) {
      const file = join(directory, name);
      if (existsSync(file)) return file;
    }
    const parent = dirname(directory);
    if (parent === directory) return undefined;
    directory = parent;
  }
}
