import { readFileSync } from "node:fs";
import { ToolgateError } from "../core/errors.js";

/**
 * Reads and parses a JSON file. Returns undefined when the file does not exist; throws CONFIG_INVALID (naming the
 * file and the position) when it is not valid JSON or cannot be read.
 */
export function readJsonFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw new ToolgateError({
      code: "CONFIG_INVALID",
      message: `Cannot read ${file} (${code ?? String(error)}). Check the file's permissions.`,
      data: { file },
      cause: error,
    });
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new ToolgateError({
      code: "CONFIG_INVALID",
      message: `${file} is not valid JSON: ${(error as Error).message}. Fix the syntax (comments and trailing commas are not allowed).`,
      data: { file },
      cause: error,
    });
  }
}
