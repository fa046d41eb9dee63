import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { parse as parseToml } from "smol-toml";
import { ToolgateError } from "../../core/errors.js";
import { type ImportedConfig, type ImportSourceOptions, importSourceNotFound } from "../common/imported-config.js";
import { type GEMINI_TIERS, importGeminiPolicy } from "./gemini-policy-import.js";

/** Gemini CLI: `*.toml` policies in .gemini/policies (workspace tier) and ~/.gemini/policies (user tier). */
export function importGemini(options: ImportSourceOptions): ImportedConfig {
  const sources: { path: string; tier: keyof typeof GEMINI_TIERS }[] =
    options.path !== undefined
      ? [{ path: resolve(options.cwd, options.path), tier: "user" }]
      : [
          { path: join(options.cwd, ".gemini/policies"), tier: "workspace" },
          { path: join(options.homeDir, ".gemini/policies"), tier: "user" },
        ];
  const files: { file: string; tier: keyof typeof GEMINI_TIERS }[] = [];
  for (const source of sources) {
    if (!existsSync(source.path)) continue;
    if (statSync(source.path).isDirectory()) {
      for (const name of readdirSync(source.path)
        .filter((entry) => entry.endsWith(".toml"))
        .sort()) {
        files.push({ file: join(source.path, name), tier: source.tier });
      }
    } else {
      files.push({ file: source.path, tier: source.tier });
    }
  }
  if (files.length === 0)
    throw importSourceNotFound(
      "Gemini CLI policy files",
      sources.map((source) => source.path),
    );
  const merged: ImportedConfig = { permissions: { rules: [] }, files: [], unsupported: [], notes: [] };
  let ruleCount = 0;
  for (const { file, tier } of files) {
    let parsed: unknown;
    try {
      parsed = parseToml(readFileSync(file, "utf8"));
    } catch (error) {
      throw new ToolgateError({
        code: "CONFIG_INVALID",
        message: `${file} is not valid TOML: ${(error as Error).message}`,
      });
    }
    const result = importGeminiPolicy(parsed, { tier, file, firstIndex: ruleCount });
    const tables = (parsed as { rule?: unknown }).rule;
    ruleCount += Array.isArray(tables) ? tables.length : 0;
    (merged.permissions.rules as unknown[]).push(...result.rules);
    merged.files.push(file);
    merged.unsupported.push(...result.unsupported);
    merged.notes.push(...result.notes);
  }
  merged.notes.push("Gemini picks the highest tier + priority/1000; each rule keeps that number as its priority.");
  return merged;
}
