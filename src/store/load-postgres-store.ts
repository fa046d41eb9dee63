import { ToolgateError } from "../core/errors.js";

/**
 * Loads the Postgres store module, which imports `pg`: an optional peer dependency, installed only by those who
 * select Postgres (TOOLGATE_DATABASE_URL or `store.url` in the config). A missing driver becomes STORE_UNAVAILABLE
 * with the install command, never a bare "Cannot find package" stack.
 */
export async function loadPostgresStore(): Promise<typeof import("./postgres/postgres-store.js")> {
  try {
    return await import("./postgres/postgres-store.js");
  } catch (error) {
    if (isMissingPackage(error, "pg")) throw missingPostgresDriver(error);
    throw error;
  }
}

/** What to do when `pg` is missing: `doctor` prints it as the fix line, so message and fix say the same. */
export const INSTALL_PG_FIX =
  "Run `npm install pg` where toolgate is installed, or unset TOOLGATE_DATABASE_URL (and the config's store url) to use the default SQLite store.";

/** The Postgres store is selected but `pg` is not installed: STORE_UNAVAILABLE, `data.reason` "driver-missing". */
export function missingPostgresDriver(cause: unknown): ToolgateError {
  return new ToolgateError({
    code: "STORE_UNAVAILABLE",
    message: `The Postgres store is selected (TOOLGATE_DATABASE_URL or the config's store url), but its driver \`pg\` is not installed. ${INSTALL_PG_FIX}`,
    data: { reason: "driver-missing", driver: "pg" },
    cause,
  });
}

/** Node's error for an import of a package that is not installed (ESM: ERR_MODULE_NOT_FOUND; CJS: MODULE_NOT_FOUND). */
export function isMissingPackage(error: unknown, name: string): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") return false;
  return typeof message === "string" && (message.includes(`'${name}'`) || message.includes(`"${name}"`));
}
