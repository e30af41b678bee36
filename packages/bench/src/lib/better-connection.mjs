/**
 * The server's `Connection` interface (reference-server/src/store/sqlite/connection.ts: run, all, get, exec,
 * close, all promise-returning) over better-sqlite3, so the server's own store functions and
 * committer can run unchanged on the other driver for comparison. Statements are cached like the
 * server's. better-sqlite3 binds numbered parameters (`?1`) from an object keyed by number.
 */
/**
 * The server recognises errors as sqlite3 words them ("SQLITE_CONSTRAINT: UNIQUE constraint
 * failed: …", see isConstraint in store/sqlite/connection.ts); better-sqlite3 keeps the code apart.
 */
function asSqlite3Error(error) {
  const code = typeof error?.code === 'string' ? error.code.split('_').slice(0, 2).join('_') : undefined;
  if (code?.startsWith('SQLITE_') && !error.message.startsWith(code))
    error.message = `${code}: ${error.message}`;
  return error;
}

export class BetterConnection {
  #db;
  #statements = new Map();

  constructor(db) {
    this.#db = db;
  }

  #statement(sql) {
    let entry = this.#statements.get(sql);
    if (!entry) {
      entry = { statement: this.#db.prepare(sql), numbered: /\?\d/.test(sql) };
      this.#statements.set(sql, entry);
    }
    return entry;
  }

  /** The bound arguments of a call: spread positionally, or one object for `?N` parameters. */
  static args(numbered, params) {
    return numbered ? [Object.fromEntries(params.map((p, i) => [i + 1, p]))] : params;
  }

  async run(sql, params = []) {
    try {
      const { statement, numbered } = this.#statement(sql);
      const info = statement.run(...BetterConnection.args(numbered, params));
      return { changes: info.changes, lastID: Number(info.lastInsertRowid) };
    } catch (error) {
      throw asSqlite3Error(error);
    }
  }

  async all(sql, params = []) {
    try {
      const { statement, numbered } = this.#statement(sql);
      const args = BetterConnection.args(numbered, params);
      if (statement.reader) return statement.all(...args);
      statement.run(...args);
      return [];
    } catch (error) {
      throw asSqlite3Error(error);
    }
  }

  async get(sql, params = []) {
    return (await this.all(sql, params))[0];
  }

  async exec(sql) {
    this.#db.exec(sql);
  }

  async close() {
    this.#db.close();
  }
}

/**
 * A `Connection` that forwards to another and records every statement (method, SQL, parameters):
 * how the benchmark learns which statements the server's store functions issue.
 */
export function recording(connection) {
  const calls = [];
  const wrap =
    (method) =>
    (sql, params = []) => {
      calls.push({ method, sql, params: [...params] });
      return connection[method](sql, params);
    };
  return { calls, run: wrap('run'), all: wrap('all'), get: wrap('get'), exec: (sql) => connection.exec(sql) };
}
