/**
 * A small promise interface over the `sqlite3` driver. Statements are prepared once per
 * connection and reused; every call resolves after the driver's worker thread has run it.
 */
import { chmodSync, closeSync, existsSync, fstatSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import sqlite3 from 'sqlite3';
import { DomainError } from '../../domain/errors.js';

export type Params = readonly unknown[];

export interface RunResult {
  changes: number;
  lastID: number;
}

export class Connection {
  private readonly statements = new Map<string, Promise<sqlite3.Statement>>();

  private constructor(private readonly db: sqlite3.Database) {}

  static open(path: string, { readonly = false } = {}): Promise<Connection> {
    if (path !== ':memory:' && !readonly) ownerOnly(path);
    const mode = readonly ? sqlite3.OPEN_READONLY : sqlite3.OPEN_READWRITE | sqlite3.OPEN_CREATE;
    return new Promise((resolve, reject) => {
      const db = new sqlite3.Database(path, mode, (error) =>
        error ? reject(error) : resolve(new Connection(db)),
      );
    });
  }

  /**
   * The prepared statement for `sql`. Prepared with a callback: without one, the driver reports
   * a failing statement as an 'error' event, which would crash the process.
   */
  private statement(sql: string): Promise<sqlite3.Statement> {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = new Promise((resolve, reject) => {
        const prepared = this.db.prepare(sql, (error) => (error ? reject(error) : resolve(prepared)));
      });
      this.statements.set(sql, statement);
      statement.catch(() => this.statements.delete(sql));
    }
    return statement;
  }

  async run(sql: string, params: Params = []): Promise<RunResult> {
    const statement = await this.statement(sql);
    return new Promise((resolve, reject) => {
      statement.run(params as unknown[], function (this: sqlite3.RunResult, error: Error | null) {
        if (error) reject(translated(error));
        else resolve({ changes: this.changes, lastID: this.lastID });
      });
    });
  }

  async all<T>(sql: string, params: Params = []): Promise<T[]> {
    const statement = await this.statement(sql);
    return new Promise((resolve, reject) => {
      statement.all(params as unknown[], (error: Error | null, rows: T[]) =>
        error ? reject(translated(error)) : resolve(rows),
      );
    });
  }

  /** The first row, or undefined. Reads all rows of the statement: use it for single-row queries. */
  async get<T>(sql: string, params: Params = []): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }

  /** Runs several statements without parameters (pragmas, migrations). */
  exec(sql: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.db.exec(sql, (error) => (error ? reject(translated(error)) : resolve()));
    });
  }

  async close(): Promise<void> {
    const statements = await Promise.allSettled(this.statements.values());
    await Promise.all(
      statements.map((s) =>
        s.status === 'fulfilled'
          ? new Promise<void>((resolve) => s.value.finalize(() => resolve()))
          : undefined,
      ),
    );
    this.statements.clear();
    await new Promise<void>((resolve, reject) =>
      this.db.close((error) => (error ? reject(error) : resolve())),
    );
  }
}

/**
 * The database file holds webhook secrets and the token secret: it is created readable and
 * writable by its owner only, before SQLite opens it (SQLite gives its -wal and -shm files the
 * mode of the database file), and one left open to others by an older version is closed to them.
 * A folder made for it is the owner's only too.
 */
function ownerOnly(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const fd = openSync(path, 'a', 0o600);
  try {
    if ((fstatSync(fd).mode & 0o077) !== 0) {
      for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, 0o600);
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * SQLITE_BUSY and friends (the database was locked past the busy timeout) in the words every
 * door understands; other errors as the driver gave them.
 */
function translated(error: Error): Error {
  if (!/SQLITE_BUSY|SQLITE_LOCKED/.test(error.message)) return error;
  return new DomainError('database_busy', `The database stayed locked by another process: ${error.message}`);
}

export function isConstraint(error: unknown, index?: string): boolean {
  return (
    error instanceof Error &&
    /SQLITE_CONSTRAINT/.test(error.message) &&
    (index === undefined || error.message.includes(index))
  );
}
