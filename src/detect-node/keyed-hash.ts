import { createHmac } from "node:crypto";
import { ToolgateError } from "../core/errors.js";
import type { KeyedHash } from "../detect/redact.js";

/**
 * The keyed hash port for redaction markers: HMAC-SHA256 of `kind NUL secret` under a secret key, base64url, first
 * 10 characters. Without the key nobody can test a guess against the suffix (a plain hash of a short password could
 * be brute-forced), and the same secret always gets the same suffix, so repeated denials still group.
 */
export const MIN_HASH_KEY_LENGTH = 16;

export function createKeyedHash(key: string | Uint8Array): KeyedHash {
  if (key.length < MIN_HASH_KEY_LENGTH) {
    throw new ToolgateError({
      code: "CONFIG_INVALID",
      message: `The redaction hash key is too short (${key.length} characters); use at least ${MIN_HASH_KEY_LENGTH} random characters, e.g. from \`openssl rand -base64 32\`.`,
    });
  }
  return (kind, secret) => createHmac("sha256", key).update(`${kind}\u0000${secret}`).digest("base64url").slice(0, 10);
}

/** The keyed hash from an environment variable, or undefined when the variable is unset or empty. */
export function keyedHashFromEnv(name: string, env: NodeJS.ProcessEnv = process.env): KeyedHash | undefined {
  const key = env[name];
  if (key === undefined || key.length === 0) return undefined;
  return createKeyedHash(key);
}
