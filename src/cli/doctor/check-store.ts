import { accessSync, constants, existsSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import type { StoreOptions } from "../../config/store-schema.js";
import { ToolgateError } from "../../core/errors.js";
import { type DoctorCheck, type DoctorContext, fail, ok } from "../../hosts/common/doctor-check.js";
import { INSTALL_PG_FIX } from "../../store/load-postgres-store.js";
import { openStore } from "../../store/open-store.js";
import { resolveStoreLocation, type StoreLocation } from "../../store/resolve-store-location.js";

/** How long doctor waits for the store (Postgres) to open. */
export const STORE_TIMEOUT_MS = 6_000;

/**
 * The store the environment and config select can be opened and written: a SQLite file that exists is opened and
 * closed (nothing written beyond its migrations) and its directory must be writable; one that does not exist yet
 * needs a writable directory to be created in. Postgres (TOOLGATE_DATABASE_URL or the config) must answer.
 */
export async function checkStore(context: DoctorContext, config: StoreOptions | undefined): Promise<DoctorCheck> {
  let location: StoreLocation;
  try {
    location = resolveStoreLocation({ env: { ...context.env }, ...(config ? { config } : {}), home: context.home });
  } catch (error) {
    if (!ToolgateError.is(error)) throw error;
    return fail("store", error.message, {
      fix: "Fix TOOLGATE_DATABASE_URL or the config's store section as said above.",
    });
  }
  if (location.engine === "memory") return ok("store", "in memory (TOOLGATE_DB=off): nothing is kept after a run");
  if (location.engine === "postgres") return checkOpen("postgres", location, config);
  const file = location.filename;
  if (file === ":memory:") return ok("store", "in memory (TOOLGATE_DB=:memory:)");
  if (existsSync(file) && statSync(file).isDirectory()) {
    return fail("store", `${file} is a directory, not a SQLite database file`, {
      fix: `Set TOOLGATE_DB to a file path such as ${join(file, "toolgate.db")}, or unset it for ~/.toolgate/toolgate.db.`,
    });
  }
  const directory = nearestExisting(dirname(file));
  if (!writable(directory)) {
    return fail("store", `${directory} is not writable, so toolgate cannot keep ${file}`, {
      fix: `Make ${directory} writable (chmod u+w "${directory}"), or set TOOLGATE_DB to a writable file path.`,
    });
  }
  if (!existsSync(file)) return ok("store", `${file} will be created on first use (${directory} is writable)`);
  return checkOpen("store", location, config);
}

async function checkOpen(
  name: string,
  location: StoreLocation,
  config: StoreOptions | undefined,
): Promise<DoctorCheck> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${STORE_TIMEOUT_MS / 1000} s`)), STORE_TIMEOUT_MS);
  });
  let timedOut = false;
  const opening = openStore({ location, ...(config ? { config } : {}) });
  // a store that opens after the timeout is closed again, so nothing keeps the process alive
  opening.then(
    (store) => {
      if (timedOut) void store.close();
    },
    () => undefined,
  );
  try {
    const store = await Promise.race([opening, timeout]);
    const where = store.location;
    await store.close();
    return ok(name, `${where} opens and is writable`);
  } catch (error) {
    timedOut = true;
    return fail(name, (error as Error).message, { fix: storeFix(location, error) });
  } finally {
    clearTimeout(timer);
  }
}

/** the fix line for a store that did not open: it answers the message's cause (a missing `pg` is no server problem) */
function storeFix(location: StoreLocation, error: unknown): string {
  if (ToolgateError.is(error) && error.data?.reason === "driver-missing") return INSTALL_PG_FIX;
  return location.engine === "postgres"
    ? "Start the server or correct TOOLGATE_DATABASE_URL (postgres://user@host:5432/db); unset it to use SQLite."
    : "Fix the cause above, or set TOOLGATE_DB to another file path (a new file is created).";
}

function nearestExisting(directory: string): string {
  let current = directory;
  while (!existsSync(current) && dirname(current) !== current) current = dirname(current);
  return current;
}

function writable(directory: string): boolean {
  try {
    accessSync(directory, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
