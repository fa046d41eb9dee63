import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ToolgateError } from "../../core/errors.js";
import { stripJsonComments } from "../../root/strip-json-comments.js";
import { type ImportedConfig, type ImportSourceOptions, importSourceNotFound } from "../common/imported-config.js";
import { importOpencodePermission } from "./opencode-permission-import.js";

/** opencode: the `permission` key of opencode.json(c) in the directory or ~/.config/opencode/. */
export function importOpencode(options: ImportSourceOptions): ImportedConfig {
  const candidates =
    options.path !== undefined
      ? [resolve(options.cwd, options.path)]
      : [
          join(options.cwd, "opencode.json"),
          join(options.cwd, "opencode.jsonc"),
          join(options.homeDir, ".config/opencode/opencode.json"),
          join(options.homeDir, ".config/opencode/opencode.jsonc"),
        ];
  const file = candidates.find((candidate) => existsSync(candidate));
  if (file === undefined) throw importSourceNotFound("opencode config", candidates);
  let parsed: { permission?: unknown };
  try {
    parsed = JSON.parse(stripJsonComments(readFileSync(file, "utf8")));
  } catch (error) {
    throw new ToolgateError({
      code: "CONFIG_INVALID",
      message: `${file} is not valid JSON(C): ${(error as Error).message}.`,
    });
  }
  const result = importOpencodePermission(parsed.permission ?? {});
  return { permissions: { rules: result.rules }, files: [file], unsupported: result.unsupported, notes: result.notes };
}
