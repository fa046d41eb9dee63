import * as z from "zod";
import { ToolgateError } from "../core/errors.js";
import { type ConfigIssue, formatConfigIssues } from "./format-config-issues.js";
import { configSchema, type ToolgateConfig } from "./schema.js";

export type ParseConfigResult = { ok: true; config: ToolgateConfig } | { ok: false; error: ToolgateError };

/**
 * Validates a parsed config value. On failure the error (code CONFIG_INVALID) names the file, every bad key path
 * and what to write instead; `error.data.issues` holds them as `{ path, message, suggestion? }`.
 */
export function parseConfig(value: unknown, options: { file: string }): ParseConfigResult {
  const result = configSchema.safeParse(value);
  if (result.success) return { ok: true, config: result.data };
  const issues = formatConfigIssues(result.error.issues, knownKeysAt);
  return { ok: false, error: configError(options.file, issues) };
}

export function configError(file: string, issues: ConfigIssue[]): ToolgateError {
  const lines = issues.map(
    (issue) =>
      `  - ${issue.path === "" ? "(root)" : issue.path}: ${issue.message}${issue.suggestion ? ` (${issue.suggestion})` : ""}`,
  );
  return new ToolgateError({
    code: "CONFIG_INVALID",
    message: `${file} is not a valid toolgate config:\n${lines.join("\n")}\nFix the keys above in ${file}, then run \`toolgate doctor\` to check it; the file's schema is schema.json in the toolgate package.`,
    data: { file, issues },
  });
}

/** The keys an object schema accepts at a path (for typo suggestions). */
function knownKeysAt(path: PropertyKey[]): string[] {
  let schema: z.ZodType = configSchema;
  for (const part of path) {
    schema = unwrap(schema);
    if (schema instanceof z.ZodObject) schema = (schema.shape as Record<string, z.ZodType>)[String(part)] ?? schema;
    else if (schema instanceof z.ZodArray) schema = schema.element as z.ZodType;
    else if (schema instanceof z.ZodRecord) schema = schema.valueType as z.ZodType;
  }
  schema = unwrap(schema);
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  while (current instanceof z.ZodOptional || current instanceof z.ZodDefault) current = current.unwrap() as z.ZodType;
  return current;
}
