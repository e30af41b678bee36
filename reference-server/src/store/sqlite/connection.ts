/**
 * A small promise interface over the `sqlite3` driver: the store's `Db` (../db.ts), so the
 * statements both stores share run on it. Statements are prepared once per connection and
 * reused; every call resolves after the driver's worker thread has run it.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import sqlite3 from 'sqlite3';
import { DatabaseFailure } from '../../domain/errors.js';
import type { Db, Params } from '../db.js';

export interface RunResult {
  changes: number;
  lastID: number;
}

function openHandle(path: string, mode: number): Promise<sqlite3.Database> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(path, mode, (error) => (error ? reject(error) : resolve(db)));
  });
}

/** The parameters as the driver binds them: a list (an array) as its JSON text, which `json_each` reads. */
const bound = (params: Params): unknown[] =>
  params.some(Array.isArray)
    ? params.map((p) => (Array.isArray(p) ? JSON.stringify(p) : p))
    : (params as unknown[]);

export class Connection implements Db {
  private readonly statements = new Map<string, Promise<sqlite3.Statement>>();
  /**
   * Set when a write was refused because the file is read-only. SQLite decides that once, when
   * it opens the file (a file it may not write is opened for reading), so only a connection
   * opened again can write once the file may be written: see `reopen`.
   */
  foundReadOnly = false;

  private constructor(
    private db: sqlite3.Database,
    private readonly path: string,
    private readonly mode: number,
  ) {}

  static async open(path: string, { readonly = false } = {}): Promise<Connection> {
    if (path !== ':memory:' && !readonly) ownerOnly(path);
    const mode = readonly ? sqlite3.OPEN_READONLY : sqlite3.OPEN_READWRITE | sqlite3.OPEN_CREATE;
    return new Connection(await openHandle(path, mode), path, mode);
  }

  /**
   * Opens the file again in place of the current handle (the object stays, so whatever is bound
   * to it stays bound); settings made with PRAGMA are the caller's to make again. Only between
   * transactions: one under way would be lost. An in-memory database is never reopened.
   */
  async reopen(): Promise<void> {
    if (this.path === ':memory:') return;
    const next = await openHandle(this.path, this.mode);
    const previous = this.db;
    await this.finalizeStatements();
    this.db = next;
    this.foundReadOnly = false;
    await new Promise<void>((resolve) => previous.close(() => resolve()));
  }

  /**
   * The prepared statement for `sql`. Prepared with a callback: without one, the driver reports
   * a failing statement as an 'error' event, which would crash the process.
   */
  private statement(sql: string): Promise<sqlite3.Statement> {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = new Promise((resolve, reject) => {
        const prepared = this.db.prepare(sql, (error) =>
          error ? reject(this.failed(error)) : resolve(prepared),
        );
      });
      this.statements.set(sql, statement);
      statement.catch(() => this.statements.delete(sql));
    }
    return statement;
  }

  async run(sql: string, params: Params = []): Promise<RunResult> {
    const statement = await this.statement(sql);
    const failed = (error: Error) => this.failed(error);
    return new Promise((resolve, reject) => {
      statement.run(bound(params), function (this: sqlite3.RunResult, error: Error | null) {
        if (error) reject(failed(error));
        else resolve({ changes: this.changes, lastID: this.lastID });
      });
    });
  }

  async all<T>(sql: string, params: Params = []): Promise<T[]> {
    const statement = await this.statement(sql);
    return new Promise((resolve, reject) => {
      statement.all(bound(params), (error: Error | null, rows: T[]) =>
        error ? reject(this.failed(error)) : resolve(rows),
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
      this.db.exec(sql, (error) => (error ? reject(this.failed(error)) : resolve()));
    });
  }

  async close(): Promise<void> {
    await this.finalizeStatements();
    await new Promise<void>((resolve, reject) =>
      this.db.close((error) => (error ? reject(error) : resolve())),
    );
  }

  private async finalizeStatements(): Promise<void> {
    const statements = await Promise.allSettled(this.statements.values());
    this.statements.clear();
    await Promise.all(
      statements.map((s) =>
        s.status === 'fulfilled'
          ? new Promise<void>((resolve) => s.value.finalize(() => resolve()))
          : undefined,
      ),
    );
  }

  private failed(error: Error): Error {
    const failure = translated(error);
    if (failure instanceof DatabaseFailure && failure.reason === 'SQLITE_READONLY') this.foundReadOnly = true;
    return failure;
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
  try {
    closeSync(openSync(path, 'wx', 0o600));
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // Only the others' bits are taken away: a file the operator made read-only stays read-only.
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    if (!existsSync(file)) continue;
    const mode = statSync(file).mode & 0o777;
    if ((mode & 0o077) === 0) continue;
    try {
      chmodSync(file, mode & 0o700);
    } catch {
      // Not ours to change (another owner, an immutable file): SQLite says what it can do with it.
    }
  }
}

/**
 * The file cannot be written or read: the disk or a quota is full (SQLite reports a write the
 * kernel cut short as SQLITE_FULL, and one it refused, EFBIG among them, as SQLITE_IOERR), the
 * file is read-only, or it cannot be opened. SQLite may have rolled back the transaction it
 * happened in (committer.ts).
 */
const UNAVAILABLE = /^(SQLITE_FULL|SQLITE_IOERR|SQLITE_READONLY|SQLITE_CANTOPEN)\b/;

/**
 * SQLITE_BUSY and friends (the database was locked past the busy timeout), and a file that
 * cannot be written, in the words every door understands; other errors as the driver gave them.
 */
export function translated(error: Error): Error {
  if (error instanceof DatabaseFailure) return error;
  const code = (error as { code?: unknown }).code;
  const reason = typeof code === 'string' ? code : (/^SQLITE_[A-Z]+/.exec(error.message)?.[0] ?? '');
  if (/^SQLITE_(BUSY|LOCKED)$/.test(reason))
    return new DatabaseFailure(
      'database_busy',
      `The database stayed locked by another process: ${error.message}`,
      reason,
    );
  if (UNAVAILABLE.test(reason))
    return new DatabaseFailure(
      'database_unavailable',
      `The database file cannot be used: ${error.message}`,
      reason,
    );
  return error;
}

export function isConstraint(error: unknown, index?: string): boolean {
  return (
    error instanceof Error &&
    /SQLITE_CONSTRAINT/.test(error.message) &&
    (index === undefined || error.message.includes(index))
  );
}
