import type { StoreLocation } from "./resolve-store-location.js";

/**
 * The store's location for messages, without opening it or loading a driver (`sqlite:/home/me/.toolgate/toolgate.db`,
 * `postgres://user:***@host/db`): what the hook's local-first path reports, since it opens no database.
 */
export function describeStoreLocation(location: StoreLocation): string {
  switch (location.engine) {
    case "memory":
      return "memory";
    case "sqlite":
      return `sqlite:${location.filename}`;
    case "postgres":
      return describeConnection(location.connectionString);
  }
}

/** the connection string without its password, for messages */
export function describeConnection(connectionString: string | undefined): string {
  if (!connectionString) return "postgres (pool)";
  try {
    const url = new URL(connectionString);
    if (url.password) url.password = "***";
    return url.toString();
  } catch {
    return "postgres (unparseable TOOLGATE_DATABASE_URL)";
  }
}
