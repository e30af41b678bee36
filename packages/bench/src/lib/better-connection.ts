/**
 * The server's `Connection` interface (reference-server/src/store/sqlite/connection.ts: run, all,
 * get, exec, close, all promise-returning) over better-sqlite3, so the server's own store
 * functions and committer can run unchanged on the other driver for comparison. Statements are
 * cached like the server's.
 */
import type Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import type { Params, SqlConnection, SqlStatements } from './server-code.js';

/**
 * The server recognises errors as sqlite3 words them ("SQLITE_CONSTRAINT: UNIQUE constraint
 * failed: …", see isConstraint in store/sqlite/connection.ts); better-sqlite3 keeps the code apart.
 */
function asSqlite3Error(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const { code } = error as { code?: unknown };
  const prefix = typeof code === 'string' ? code.split('_').slice(0, 2).join('_') : undefined;
  if (prefix?.startsWith('SQLITE_') && !error.message.startsWith(prefix))
    error.message = `${prefix}: ${error.message}`;
  return error;
}

export interface Prepared {
  statement: Statement;
  /** The arguments of a call: spread positionally, or for `?N` parameters one object keyed by number. */
  args(params: Params): unknown[];
}

/** better-sqlite3's statements of `db`, each prepared once. */
export function preparer(db: Database): (sql: string) => Prepared {
  const cache = new Map<string, Prepared>();
  return (sql) => {
    let prepared = cache.get(sql);
    if (!prepared) {
      const numbered = /\?\d/.test(sql);
      prepared = {
        statement: db.prepare(sql),
        args: (params) => (numbered ? [Object.fromEntries(params.map((p, i) => [i + 1, p]))] : [...params]),
      };
      cache.set(sql, prepared);
    }
    return prepared;
  };
}

export class BetterConnection implements SqlConnection {
  readonly #db: Database;
  readonly #prepared: (sql: string) => Prepared;

  constructor(db: Database) {
    this.#db = db;
    this.#prepared = preparer(db);
  }

  async run(sql: string, params: Params = []) {
    try {
      const { statement, args } = this.#prepared(sql);
      const info = statement.run(...args(params));
      return { changes: info.changes, lastID: Number(info.lastInsertRowid) };
    } catch (error) {
      throw asSqlite3Error(error);
    }
  }

  async all<Row>(sql: string, params: Params = []): Promise<Row[]> {
    try {
      const { statement, args } = this.#prepared(sql);
      if (statement.reader) return statement.all<Row>(...args(params));
      statement.run(...args(params));
      return [];
    } catch (error) {
      throw asSqlite3Error(error);
    }
  }

  async get<Row>(sql: string, params: Params = []): Promise<Row | undefined> {
    return (await this.all<Row>(sql, params))[0];
  }

  async exec(sql: string) {
    this.#db.exec(sql);
  }

  async close() {
    this.#db.close();
  }
}

export interface Call {
  method: 'run' | 'all' | 'get';
  sql: string;
  params: unknown[];
}

/**
 * Statements that forward to `connection` and record every call (method, SQL, parameters): how
 * the benchmark learns which statements the server's store functions issue.
 */
export function recording(connection: SqlStatements): SqlStatements & { calls: Call[] } {
  const calls: Call[] = [];
  const note = (method: Call['method'], sql: string, params: Params) => {
    calls.push({ method, sql, params: [...params] });
  };
  return {
    calls,
    run: (sql, params = []) => {
      note('run', sql, params);
      return connection.run(sql, params);
    },
    all: (sql, params = []) => {
      note('all', sql, params);
      return connection.all(sql, params);
    },
    get: (sql, params = []) => {
      note('get', sql, params);
      return connection.get(sql, params);
    },
    exec: (sql) => connection.exec(sql),
  };
}
