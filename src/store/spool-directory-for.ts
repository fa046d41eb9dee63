import { join } from "node:path";
import type { StoreOptions } from "../config/store-schema.js";
import { describeStoreLocation } from "./describe-store-location.js";
import { defaultDatabasePath, defaultSpoolDirectory, type StoreLocation } from "./resolve-store-location.js";

/**
 * The spool of one store: where records and events for it wait until a drain ships them there. `store.spoolDirectory`
 * when the config sets it; `~/.toolgate/spool` for the default SQLite file; otherwise a directory of its own under
 * it, `~/.toolgate/spool/<engine>-<hash of the location>` (the password is not part of the hash input), so a
 * drain only ever ships records into the store they were written for: `toolgate report` run without the hooks'
 * `TOOLGATE_DATABASE_URL` must not pull a Postgres fleet's records into the local SQLite file.
 */
export function spoolDirectoryFor(
  location: StoreLocation,
  options: { config?: StoreOptions; home?: string } = {},
): string {
  const base = defaultSpoolDirectory(options);
  if (options.config?.spoolDirectory) return base;
  if (location.engine === "sqlite" && location.filename === defaultDatabasePath(options.home)) return base;
  const key =
    location.engine === "postgres"
      ? `${describeStoreLocation(location)}#${location.schema ?? ""}`
      : describeStoreLocation(location);
  return join(base, `${location.engine}-${fnv1a64(key)}`);
}

/** FNV-1a, 64 bits, hex: a stable directory name without loading node:crypto on the hook's hot path */
function fnv1a64(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, "0");
}
