/**
 * The outage rule (domain/outage.ts), the health that applies it (app/database-health.ts) with a
 * fake clock, log and probe, and which driver errors each store calls an outage: no I/O.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../src/adapters/logger.js';
import { DatabaseHealth } from '../src/app/database-health.js';
import { DatabaseFailure } from '../src/domain/errors.js';
import { failed, type Health, probeDelayMs, probed, retryAfterSeconds, UP } from '../src/domain/outage.js';
import { translated as postgresError } from '../src/store/postgres/connection.js';
import { translated as sqliteError } from '../src/store/sqlite/connection.js';

describe('the outage rule', () => {
  it('begins with the first failure and ignores the ones after it', () => {
    const first = failed(UP, 1_000, 'ECONNREFUSED');
    expect(first).toEqual({
      health: { up: false, since: 1_000, code: 'ECONNREFUSED', probes: 0 },
      began: true,
    });
    expect(failed(first.health, 2_000, '57P01')).toEqual({ health: first.health, began: false });
  });

  it('ends only with a probe that wrote, saying how long it lasted', () => {
    let health: Health = failed(UP, 1_000, 'SQLITE_FULL').health;
    health = probed(health, 1_250, false).health;
    expect(health).toMatchObject({ up: false, probes: 1 });
    expect(probed(health, 4_000, true)).toEqual({
      health: UP,
      ended: { downMs: 3_000, code: 'SQLITE_FULL' },
    });
    expect(probed(UP, 5_000, true)).toEqual({ health: UP });
  });

  it('probes soon, then less often, never more than five seconds apart', () => {
    let health: Health = failed(UP, 0, 'ECONNREFUSED').health;
    const delays: number[] = [];
    for (let i = 0; i < 8; i++) {
      delays.push(probeDelayMs(health));
      health = probed(health, 0, false).health;
    }
    expect(delays).toEqual([250, 500, 1_000, 2_000, 4_000, 5_000, 5_000, 5_000]);
  });

  it('asks a client to wait a moment when busy, longer when away', () => {
    expect(retryAfterSeconds('busy')).toBe(1);
    expect(retryAfterSeconds('unavailable')).toBe(5);
  });
});

describe('the health of a running server', () => {
  const logged: string[] = [];
  const log: Logger = {
    request: () => undefined,
    info: (message) => logged.push(message),
    error: (message) => logged.push(message),
  };
  const away = new DatabaseFailure('database_unavailable', 'gone', 'ECONNREFUSED');
  let now = 0;
  let writes: boolean[];
  const health = () =>
    new DatabaseHealth({
      clock: { now: () => now, nowMicros: () => now * 1000 },
      log,
      probe: async () => {
        if (!writes.shift()) throw away;
      },
    });

  beforeEach(() => {
    vi.useFakeTimers();
    logged.length = 0;
    now = 0;
  });
  afterEach(() => vi.useRealTimers());

  it('logs an outage once however often it is seen, and its end once, when a probe wrote', async () => {
    writes = [false, false, true];
    const h = health();
    for (let i = 0; i < 100; i++) expect(h.observe(away)).toBe(true);
    expect(h.down).toBe(true);
    expect(h.outage).toEqual({ since: 0, code: 'ECONNREFUSED' });
    expect(logged).toEqual(['database unavailable']);
    now = 3_000;
    await vi.advanceTimersByTimeAsync(250 + 500 + 1_000);
    expect(h.down).toBe(false);
    expect(logged).toEqual(['database unavailable', 'database available again']);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(logged).toHaveLength(2);
  });

  it('answers a busy database with a short wait and no outage; anything else is not its business', () => {
    const h = health();
    const busy = new DatabaseFailure('database_busy', 'locked', 'SQLITE_BUSY');
    expect(h.observe(busy)).toBe(true);
    expect(h.retryAfter(busy)).toBe(1);
    expect(h.observe(new Error('a bug'))).toBe(false);
    expect(h.down).toBe(false);
    expect(logged).toEqual([]);
  });
});

describe('which failures are the database away', () => {
  const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
  const kind = (error: unknown) =>
    error instanceof DatabaseFailure ? [error.code, error.reason] : 'as it was';

  it('PostgreSQL: lost and refused connections, shutdowns, a full disk; busy when out of connections', () => {
    expect(kind(postgresError(new Error('Connection terminated unexpectedly')))).toEqual([
      'database_unavailable',
      'Connection terminated unexpectedly',
    ]);
    expect(kind(postgresError(new Error('timeout exceeded when trying to connect')))[0]).toBe(
      'database_unavailable',
    );
    expect(
      kind(postgresError(new Error('Client has encountered a connection error and is not queryable')))[0],
    ).toBe('database_unavailable');
    for (const code of ['ECONNREFUSED', 'ECONNRESET', '57P01', '57P03', '08006', '53100'])
      expect(kind(postgresError(withCode('x', code)))).toEqual(['database_unavailable', code]);
    expect(kind(postgresError(withCode('too many clients', '53300')))).toEqual(['database_busy', '53300']);
    // The request's own faults stay faults: a unique violation, a deadlock (retried), a bug.
    for (const code of ['23505', '40P01', '42P01'])
      expect(kind(postgresError(withCode('x', code)))).toBe('as it was');
    const once = postgresError(withCode('x', 'ECONNREFUSED'));
    expect(postgresError(once)).toBe(once);
  });

  it('SQLite: a full disk, an I/O error, a read-only file; busy when locked', () => {
    for (const code of ['SQLITE_FULL', 'SQLITE_IOERR', 'SQLITE_READONLY', 'SQLITE_CANTOPEN'])
      expect(kind(sqliteError(withCode(`${code}: …`, code)))).toEqual(['database_unavailable', code]);
    expect(kind(sqliteError(withCode('SQLITE_BUSY: database is locked', 'SQLITE_BUSY')))).toEqual([
      'database_busy',
      'SQLITE_BUSY',
    ]);
    expect(
      kind(sqliteError(withCode('SQLITE_CONSTRAINT: UNIQUE constraint failed', 'SQLITE_CONSTRAINT'))),
    ).toBe('as it was');
  });
});
