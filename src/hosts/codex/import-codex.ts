import { existsSync, readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { ToolgateError } from "../../core/errors.js";
import type { ImportedConfig } from "../common/imported-config.js";
import { codexRulesFiles, rulesFiles } from "./codex-execpolicy.js";
import { type ParsedExecpolicy, parseExecpolicyRules } from "./execpolicy-rules.js";
import { importCodexRules } from "./import-codex-rules.js";

/**
 * Codex CLI: the execpolicy `.rules` files Codex loads here ($CODEX_HOME/rules/*.rules, then the project's
 * .codex/rules/*.rules once Codex trusts the project), or one file or folder given on the command line.
 */
export function importCodex(options: { cwd: string; homeDir: string; path?: string }): ImportedConfig {
  const env = { ...process.env, HOME: options.homeDir };
  let files: string[];
  if (options.path !== undefined) {
    const target = resolve(options.cwd, options.path);
    if (!existsSync(target)) {
      throw new ToolgateError({
        code: "CONFIG_NOT_FOUND",
        message: `${target} does not exist. Pass a .rules file or a folder of them.`,
      });
    }
    files = statSync(target).isDirectory() ? rulesFiles(target) : [target];
  } else {
    files = codexRulesFiles({ cwd: options.cwd, env }).files;
  }
  if (files.length === 0) {
    throw new ToolgateError({
      code: "CONFIG_NOT_FOUND",
      message:
        "No Codex .rules files found (looked in $CODEX_HOME/rules and the trusted project's .codex/rules). Pass the file's path: toolgate import codex <path>.",
    });
  }
  const parsed: ParsedExecpolicy = { rules: [], problems: [] };
  for (const file of files) {
    const one = parseExecpolicyRules(readFileSync(file, "utf8"), file);
    parsed.rules.push(...one.rules);
    parsed.problems.push(...one.problems);
  }
  const result = importCodexRules(parsed);
  return { permissions: { rules: result.rules }, files, unsupported: result.unsupported, notes: result.notes };
}
