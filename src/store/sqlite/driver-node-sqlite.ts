import type { SqliteDriver, SqliteStatement, SqliteValue } from "./driver.js";

interface NodeStatement {
  run(...params: SqliteValue[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  all(...params: SqliteValue[]): Record<string, unknown>[];
  get(...params: SqliteValue[]): Record<string, unknown> | undefined;
}
interface NodeDatabase {
  exec(sql: string): void;
  prepare(sql: string): NodeStatement;
  close(): void;
}
type NodeSqlite = { DatabaseSync: new (filename: string, options?: { timeout?: number }) => NodeDatabase };

/** Node's built-in `node:sqlite` (Node 22.13+ without a flag), when this Node has it. */
function nodeSqlite(): NodeSqlite | undefined {
  const getBuiltin = (process as { getBuiltinModule?: (name: string) => unknown }).getBuiltinModule;
  try {
    return getBuiltin?.("node:sqlite") as NodeSqlite | undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether better-sqlite3's addon failed because it was built for another Node (`NODE_MODULE_VERSION`): a host that
 * loads toolgate in its own, newer Node (one that needs Node 22) while toolgate's dependencies were built for another.
 */
export function isAddonVersionMismatch(error: unknown): boolean {
  return error instanceof Error && /NODE_MODULE_VERSION/.test(error.message) && nodeSqlite() !== undefined;
}

/** Opens a database with `node:sqlite`: the store's fallback when better-sqlite3 was built for another Node. */
export function openNodeSqlite(filename: string, options: { busyTimeoutMs: number }): SqliteDriver {
  const sqlite = nodeSqlite();
  if (sqlite === undefined) throw new Error("node:sqlite is not available in this Node (it needs Node 22.13 or newer)");
  const database = new sqlite.DatabaseSync(filename, { timeout: Math.floor(options.busyTimeoutMs) });
  const statements = new Map<string, SqliteStatement>();
  let depth = 0;
  return {
    filename,
    exec: (sql) => database.exec(sql),
    prepare(sql) {
      let statement = statements.get(sql);
      if (!statement) {
        const prepared = database.prepare(sql);
        statement = {
          run: (...params) => {
            const result = prepared.run(...params);
            return { changes: Number(result.changes), lastInsertRowid: result.lastInsertRowid };
          },
          all: (...params) => prepared.all(...params).map((row) => ({ ...row })),
          get: (...params) => {
            const row = prepared.get(...params);
            return row === undefined ? undefined : { ...row };
          },
        };
        statements.set(sql, statement);
      }
      return statement;
    },
    transaction(fn, transactionOptions) {
      // nested calls join the outer transaction, as better-sqlite3's do (savepoints are not needed here)
      if (depth > 0) return fn();
      database.exec(transactionOptions?.immediate ? "BEGIN IMMEDIATE" : "BEGIN");
      depth += 1;
      try {
        const result = fn();
        database.exec("COMMIT");
        return result;
      } catch (error) {
        database.exec("ROLLBACK");
        throw error;
      } finally {
        depth -= 1;
      }
    },
    close: () => database.close(),
  };
}
