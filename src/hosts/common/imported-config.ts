import { ToolgateError } from "../../core/errors.js";
import type { ImportResult } from "../../policy/import/imported-rules.js";

/** What `toolgate import <host>` makes of a host's permission files. */
export interface ImportedConfig {
  /** the toolgate `permissions` section */
  permissions: Record<string, unknown>;
  files: string[];
  unsupported: ImportResult["unsupported"];
  notes: string[];
}

/** Where `toolgate import <host>` reads from. */
export interface ImportSourceOptions {
  cwd: string;
  homeDir: string;
  /** a file or directory given on the command line */
  path?: string;
}

/** The error when none of a host's usual files exists. */
export function importSourceNotFound(what: string, where: string[]): ToolgateError {
  return new ToolgateError({
    code: "CONFIG_NOT_FOUND",
    message: `No ${what} found (looked at ${where.join(", ")}). Pass the file's path: toolgate import <host> <path>.`,
  });
}
