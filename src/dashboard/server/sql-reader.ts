import type { JsonDecoder } from "../../store/denial-row.js";

export type SqlRow = Record<string, unknown>;
export type SqlParams = (string | number)[];

/**
 * The dashboard's read-only view of the store's database: one engine's query function, its parameter syntax and
 * how its JSON columns arrive. Every dashboard aggregation is one SQL statement run through `all`; the connection
 * behind it refuses writes (SQLite `query_only`, Postgres read-only transactions).
 */
export interface SqlReader {
  readonly engine: "sqlite" | "postgres";
  all(sql: string, params: SqlParams): Promise<SqlRow[]>;
  /** the n-th (1-based) parameter: `?` for SQLite, `$n` for Postgres */
  placeholder(index: number): string;
  decodeJson: JsonDecoder;
  close(): Promise<void>;
}

/** Collects parameters while a statement is written, numbering them for the engine. */
export class SqlBuilder {
  readonly params: SqlParams = [];
  constructor(private readonly reader: Pick<SqlReader, "placeholder">) {}

  /** adds a value and returns its placeholder */
  value(value: string | number): string {
    this.params.push(value);
    return this.reader.placeholder(this.params.length);
  }
}
