/**
 * What the statements both stores share (`statements/`) ask of a connection: three calls, with
 * SQLite's placeholders (`?`, or `?2` for a numbered one), which PostgreSQL's connection numbers
 * `$1`, `$2` itself. Where the two engines' SQL differs, the statements take the store's
 * `Dialect` (dialect.ts) beside the connection. A list parameter (`Dialect.anyOf`) is a
 * JavaScript array: PostgreSQL binds it as an array, SQLite as its JSON text, which `json_each`
 * reads.
 */

export type Params = readonly unknown[];

export interface Db {
  run(sql: string, params?: Params): Promise<{ changes: number }>;
  all<T>(sql: string, params?: Params): Promise<T[]>;
  /** The first row, or undefined. */
  get<T>(sql: string, params?: Params): Promise<T | undefined>;
}
