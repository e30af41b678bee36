/**
 * Where SQLite's and PostgreSQL's SQL differ, for the statements both stores share: lists and
 * rows passed as one parameter, row locks, hints to SQLite's planner, booleans, JSON aggregation,
 * and the one outbox statement each engine writes its own way. Everything else in `statements/`
 * is the same text on both (with `?` placeholders: see db.ts). The two dialects are
 * sqlite/dialect.ts and postgres/dialect.ts.
 */

/** The column types a parameter's values are read as. */
export type SqlType = 'text' | 'bigint';

export type LockClause = 'UPDATE' | 'NO KEY UPDATE' | 'SHARE' | 'KEY SHARE' | `UPDATE OF ${string}`;

export interface Dialect {
  readonly name: 'sqlite' | 'postgres';
  /**
   * Whether several writers run at once and order themselves with row locks (PostgreSQL, any
   * number of processes on one database). SQLite's single writer applies the writes one after
   * another: nothing is locked there, and `lock` is empty.
   */
  readonly concurrentWriters: boolean;
  /** Boolean literals, as a partial index on a boolean column is written (SQLite matches `= 0`, not `NOT`). */
  readonly true: string;
  readonly false: string;
  /** `column` is one of the values of the list parameter `param` (a JavaScript array). */
  anyOf(column: string, type?: SqlType, param?: string): string;
  /**
   * A FROM item named `alias` with `columns`, in order: the rows of the parameter `param`, a JSON
   * array of arrays (one parameter, so the statement's text is the same for any number of rows).
   */
  rows(alias: string, columns: Readonly<Record<string, SqlType>>, param?: string): string;
  /** ` FOR <clause>` where rows are locked; nothing where one writer orders every write. */
  lock(clause: LockClause): string;
  /**
   * ` INDEXED BY <index>` on SQLite, which has no statistics (the server never runs ANALYZE) and
   * is told which index a statement reads; nothing on PostgreSQL, whose planner has them.
   */
  indexedBy(index: string): string;
  /**
   * `column` as a plain value on SQLite (`+column`), which keeps its planner off the indexes that
   * start with it: without statistics it takes `waitlist_id = ?` for a handful of rows and walks
   * the whole waitlist, where looking ids up by primary key reads only their rows.
   */
  unindexed(column: string): string;
  /** A JSON array, as text, of one object per row of `from` (`fields`: name → SQL expression), in `order`. */
  jsonArrayOf(fields: Readonly<Record<string, string>>, from: string, order: string): string;
  /**
   * Due deliveries of each live destination, its first few by the index (parameters: now, the
   * deliveries under way by destination as a JSON object, the most per destination): SQLite
   * ranks them in a window over its expression index; PostgreSQL skips, and locks, those another
   * process is claiming (`FOR UPDATE SKIP LOCKED`).
   */
  readonly dueDeliveries: string;
}

/** A statement whose text depends on the dialect, built once for each: `TEXT(db.dialect)`. */
export function perDialect(build: (d: Dialect) => string): (d: Dialect) => string {
  const built = new Map<Dialect, string>();
  return (d) => {
    let text = built.get(d);
    if (text === undefined) {
      text = build(d);
      built.set(d, text);
    }
    return text;
  };
}
