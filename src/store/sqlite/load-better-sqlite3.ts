import { createRequire } from "node:module";
import type BetterSqlite3 from "better-sqlite3";

/**
 * better-sqlite3's constructor, required on first use (so importing the driver costs nothing, and Bun, which has
 * its own SQLite, never loads it), and the path of its installed package's main file (where its addon is found).
 * The hook's bundle puts better-sqlite3's JavaScript in its SQLite part instead of requiring it from node_modules
 * file by file (scripts/bundle/10-hook.mjs replaces this module there), so it loads through that part's code cache.
 */
export function loadBetterSqlite3(): { Database: typeof BetterSqlite3; main: string } {
  const require = createRequire(import.meta.url);
  const main = require.resolve("better-sqlite3");
  return { Database: require(main) as typeof BetterSqlite3, main };
}
