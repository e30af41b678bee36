/**
 * A small interface over `pg`: the store's `Db` (../db.ts), so the statements both stores share
 * run on it, numbering their `?` placeholders as PostgreSQL's `$1`, `$2`. One is bound either to
 * the pool (each statement on whichever connection is free) or to one client inside a transaction.
 */
import pg from 'pg';
import { DatabaseFailure } from '../../domain/errors.js';
import type { Db, Params } from '../db.js';

export interface RunResult {
  changes: number;
}

/**
 * Every integer column is bigint (join times are microseconds), which `pg` returns as a string
 * to be safe beyond 2^53; ours stay far below it, so they come back as numbers, as from SQLite.
 */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

/**
 * How long a request waits for a connection (a new one, or a free one of the pool) before it
 * is answered 503: a database that is down refuses at once, but one behind a dead network
 * answers nothing, and without a bound every request would hang on it.
 */
const CONNECT_TIMEOUT_MS = 5_000;

export function openPool(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    types,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // An idle connection whose peer vanished without a word (a host gone, a firewall's dropped
    // state) is found out by the kernel's probes instead of failing the request that uses it next.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  // An idle connection the server ended (a restart, an operator's pg_terminate_backend) is
  // dropped from the pool and replaced on demand; unhandled, its error would end the process.
  // A checked-out one is database.ts's to listen to.
  pool.on('error', () => undefined);
  return pool;
}

export class Connection implements Db {
  /**
   * `database`: what stays the same for every connection to one database (its pool), for what is
   * kept per database rather than per connection (../trigram-samples.ts).
   */
  constructor(
    private readonly client: pg.Pool | pg.PoolClient,
    readonly database: object = client,
  ) {}

  async run(sql: string, params: Params = []): Promise<RunResult> {
    const result = await this.query(sql, params);
    return { changes: result.rowCount ?? 0 };
  }

  async all<T>(sql: string, params: Params = []): Promise<T[]> {
    return (await this.query(sql, params)).rows as T[];
  }

  async get<T>(sql: string, params: Params = []): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }

  /** Runs several statements without parameters (migrations). */
  async exec(sql: string): Promise<void> {
    await this.query(sql, undefined);
  }

  /**
   * Several statements in one round trip: sent as one text, their parameters written into it as
   * literals (`inlined`), each statement seeing what the ones before it did and committed (each
   * takes its own snapshot under READ COMMITTED). The rows of each, in order. The first error
   * stops the rest; inside a transaction, it is then aborted.
   */
  async batch(statements: readonly Statement[]): Promise<unknown[][]> {
    const text = statements.map(([sql, params = []]) => inlined(sql, params)).join(';\n');
    const result: pg.QueryResult | pg.QueryResult[] = await this.query(text, undefined);
    return (Array.isArray(result) ? result : [result]).map((r) => r.rows);
  }

  private async query(sql: string, params: Params | undefined): Promise<pg.QueryResult> {
    try {
      return await this.client.query(params === undefined ? sql : numbered(sql), params?.map(representable));
    } catch (error) {
      throw translated(error);
    }
  }
}

/** A statement written for PostgreSQL (`$1`, `$2`) and its parameters. */
export type Statement = readonly [sql: string, params?: Params];

/** A value as an SQL literal: text quoted, numbers as written, arrays as array literals (typed by the statement's casts). */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
    return String(value);
  }
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return pg.escapeLiteral(representable(value) as string);
  if (Array.isArray(value)) {
    const items = value.map((item: unknown) =>
      item === null || item === undefined
        ? 'NULL'
        : typeof item === 'number'
          ? literal(item)
          : `"${String(representable(item)).replace(/[\\"]/g, (c) => `\\${c}`)}"`,
    );
    return pg.escapeLiteral(`{${items.join(',')}}`);
  }
  throw new Error(`no literal for a ${typeof value}`);
}

/** `sql` with its `$n` parameters written in as literals; quoted text, names and comments left alone. */
export function inlined(sql: string, params: Params): string {
  return sql.replace(/'(?:[^']|'')*'|"[^"]*"|--[^\n]*|\/\*[\s\S]*?\*\/|\$(\d+)/g, (match, n?: string) =>
    n === undefined ? match : literal(params[Number(n) - 1]),
  );
}

/** Each statement's text numbered once; the cache is emptied should it ever grow past this. */
const NUMBERED_MOST = 2_000;
const numberedTexts = new Map<string, string>();

/**
 * `sql` with SQLite's placeholders as PostgreSQL's: `?2` becomes `$2`, and a bare `?` the number
 * after the highest one so far, which is SQLite's own rule, so one text means the same on both.
 * Quoted text, quoted names and comments are left alone; a statement written for PostgreSQL
 * alone (`$1`) passes unchanged. (No statement uses jsonb's `?` operators.)
 */
export function numbered(sql: string): string {
  let text = numberedTexts.get(sql);
  if (text === undefined) {
    let highest = 0;
    text = sql.replace(
      /'(?:[^']|'')*'|"[^"]*"|--[^\n]*|\/\*[\s\S]*?\*\/|\?(\d*)/g,
      (match, digits?: string) => {
        if (digits === undefined) return match;
        const n = digits === '' ? highest + 1 : Number(digits);
        highest = Math.max(highest, n);
        return `$${n}`;
      },
    );
    if (numberedTexts.size >= NUMBERED_MOST) numberedTexts.clear();
    numberedTexts.set(sql, text);
  }
  return text;
}

/**
 * A value as PostgreSQL's text can hold it. U+0000 it cannot (SQLite can): it becomes U+FFFD, as
 * the driver's UTF-8 encoding already makes of a lone surrogate. No stored value holds U+0000, so
 * a lookup or a search with one finds nothing, as it finds nothing on SQLite, instead of failing;
 * the only text stored from a visitor, the email, never has one (protocol's checkEmail).
 */
function representable(value: unknown): unknown {
  if (typeof value === 'string')
    return value.includes('\u0000') ? value.replaceAll('\u0000', '\uFFFD') : value;
  if (Array.isArray(value)) return value.map(representable);
  return value;
}

/** SQLSTATE codes a transaction is retried on: it lost a race and changed nothing. */
export const RETRYABLE = new Set(['40001', '40P01']);

export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Out of connections: the database is there, and busy. */
const BUSY = new Set(['53300']);

/**
 * The database away, or unable to write: the connection exceptions (class 08), the server
 * shutting down, crashed or starting up (57P01-57P03), out of disk (53100), a standby that
 * cannot write (25006), and the socket's own failures.
 */
const UNAVAILABLE = new Set([
  '57P01',
  '57P02',
  '57P03',
  '53100',
  '25006',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * `pg`'s own words for a connection lost or never made, which carry no code: the server gone
 * mid-query, a client whose connection failed earlier, a connection attempt or a wait for a
 * free one that timed out.
 */
const LOST =
  /^Connection terminated|not queryable|timeout exceeded when trying to connect|Connection timeout/i;

/**
 * The database away or busy, in the words every door understands (a 503 over HTTP); any other
 * error as it was. Idempotent: a translated error passes through.
 */
export function translated(error: unknown): unknown {
  if (!(error instanceof Error) || error instanceof DatabaseFailure) return error;
  const code = sqlState(error);
  if (code !== undefined && BUSY.has(code))
    return new DatabaseFailure('database_busy', `The database is busy: ${error.message}`, code);
  if ((code !== undefined && (UNAVAILABLE.has(code) || code.startsWith('08'))) || LOST.test(error.message))
    return new DatabaseFailure(
      'database_unavailable',
      `The database could not be reached: ${error.message}`,
      code ?? error.message,
    );
  return error;
}
