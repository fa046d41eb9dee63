import type { RedactionOptions } from "../config/redaction-schema.js";
import { compileRedactionPatterns } from "../detect/compile-redaction-patterns.js";
import type { RedactOptions } from "../detect/redact.js";
import { keyedHashFromEnv } from "./keyed-hash.js";

/**
 * Turns the validated `redaction` config section into the pure redactor's options: compiled extension patterns,
 * the keyed hash port (key read from the named environment variable) and the bounds.
 */
export function createRedactOptions(
  config: RedactionOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): RedactOptions {
  const options: RedactOptions = {};
  if (config.patterns !== undefined && config.patterns.length > 0) {
    options.patterns = compileRedactionPatterns(config.patterns);
  }
  const hash = config.hashKeyEnv === undefined ? undefined : keyedHashFromEnv(config.hashKeyEnv, env);
  if (hash !== undefined) options.hash = hash;
  if (config.maxDepth !== undefined) options.maxDepth = config.maxDepth;
  if (config.maxTotalChars !== undefined) options.maxTotalChars = config.maxTotalChars;
  if (config.maxNodes !== undefined) options.maxNodes = config.maxNodes;
  return options;
}
