import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import type { SqliteDriver, SqliteStatement } from "./driver.js";
import { loadBetterSqlite3 } from "./load-better-sqlite3.js";

/** Opens a database with better-sqlite3 (loaded lazily, so importing this module costs nothing). */
export function openBetterSqlite3(filename: string, options: { busyTimeoutMs: number }): SqliteDriver {
  const { Database, main } = loadBetterSqlite3();
  // better-sqlite3 takes the addon's path or the loaded addon itself (its types name only the path)
  const nativeBinding = addonOf(main) as string;
  const database = new Database(filename, { timeout: options.busyTimeoutMs, nativeBinding });
  return wrapBetterSqlite3(database, filename);
}

/**
 * better-sqlite3's addon, named for it: the Release build npm made (`build/Release/better_sqlite3.node`) when the
 * package has no Debug build, else what the `bindings` package finds in the package, as better-sqlite3 would ask
 * it. Named directly, `bindings` need not read a stack trace and try a dozen paths (a few milliseconds of the hook
 * that drains at a session's end), and it works the same when better-sqlite3's JavaScript is bundled elsewhere.
 */
function addonOf(main: string): string | object {
  const release = releaseAddon(main);
  if (release !== undefined) return release;
  const bindings = createRequire(main)("bindings") as (options: { bindings: string; module_root: string }) => object;
  return bindings({ bindings: "better_sqlite3.node", module_root: join(dirname(main), "..") });
}

/** `build/Release/better_sqlite3.node` in the package whose main file is `main`, unless a Debug build is there too. */
export function releaseAddon(main: string): string | undefined {
  const build = join(dirname(main), "..", "build");
  const release = join(build, "Release", "better_sqlite3.node");
  return existsSync(release) && !existsSync(join(build, "Debug")) ? release : undefined;
}

export function wrapBetterSqlite3(database: BetterSqlite3.Database, filename: string): SqliteDriver {
  const statements = new Map<string, SqliteStatement>();
  return {
    filename,
    exec: (sql) => {
      database.exec(sql);
    },
    prepare(sql) {
      let statement = statements.get(sql);
      if (!statement) {
        const prepared = database.prepare(sql);
        const returnsRows = prepared.reader;
        statement = {
          run: (...params) => prepared.run(...params),
          all: (...params) => (returnsRows ? (prepared.all(...params) as Record<string, unknown>[]) : []),
          get: (...params) => prepared.get(...params) as Record<string, unknown> | undefined,
        };
        statements.set(sql, statement);
      }
      return statement;
    },
    transaction(fn, options) {
      const wrapped = database.transaction(fn);
      return options?.immediate ? wrapped.immediate() : wrapped();
    },
    close: () => database.close(),
  };
}
