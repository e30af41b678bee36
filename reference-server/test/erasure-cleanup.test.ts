/**
 * The cleanup after an erasure, on a real server, while a long read holds data from before it:
 * on SQLite a read transaction on the file (a backup, an export), on PostgreSQL a transaction
 * with an older snapshot that also holds a lock VACUUM needs. The erasure answers at once; the
 * cleanup waits, says once that it is late, and finishes once the reader is gone, saying so.
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOLDING_SUBSCRIBER_DATA } from '../src/store/postgres/index.js';
import { Connection } from '../src/store/sqlite/connection.js';
import { isPostgres, sql } from './database.js';
import { apiCreate, type Harness, harness, until } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => {
  await h.close();
});

interface LogLine {
  msg: string;
  erasures?: number;
  attempts?: number;
  took_ms?: number;
}

const logged = (msg: string): LogLine[] =>
  h.server
    .output()
    .split('\n')
    .filter((line) => line.includes(`"msg":"${msg}"`))
    .map((line) => JSON.parse(line) as LogLine);

/** A reader from before the erasure, held until `release`. */
interface Reader {
  release(): Promise<void>;
}

async function holdReader(db: string): Promise<Reader> {
  if (isPostgres(db)) {
    const client = new pg.Client({ connectionString: db });
    await client.connect();
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    await client.query('SELECT count(*) FROM subscribers');
    // VACUUM of this table would wait for this lock; the erasure's writes do not.
    await client.query('LOCK TABLE idempotency IN SHARE UPDATE EXCLUSIVE MODE');
    return {
      release: async () => {
        await client.query('COMMIT');
        await client.end();
      },
    };
  }
  const connection = await Connection.open(db);
  await connection.run('BEGIN');
  await connection.get('SELECT count(*) FROM subscribers');
  return {
    release: async () => {
      await connection.run('COMMIT');
      await connection.close();
    },
  };
}

/** SQLite: whether `text` is in any of the database's files, and in which. */
function filesHolding(db: string, text: string): string[] {
  return [db, `${db}-wal`, `${db}-shm`].filter((file) => {
    try {
      return readFileSync(file).includes(text);
    } catch {
      return false;
    }
  });
}

/** PostgreSQL: how often each table holding subscriber data was vacuumed by hand. */
async function vacuumCounts(db: string): Promise<Record<string, number>> {
  const rows = await sql<{ relname: string; vacuum_count: number }>(
    db,
    `SELECT relname, vacuum_count FROM pg_stat_user_tables WHERE relname IN (${HOLDING_SUBSCRIBER_DATA.map(() => '?').join(', ')})`,
    HOLDING_SUBSCRIBER_DATA,
  );
  return Object.fromEntries(rows.map((r) => [r.relname, r.vacuum_count]));
}

describe('the cleanup after an erasure', () => {
  it('answers the erasure at once while a reader holds older data, then cleans up once it is gone, saying it was late', async () => {
    const t = await h.tenant();
    const email = 'held.back.by.a.reader@cleanup.example';
    expect((await apiCreate(h.server, t.key, t.waitlistId, { email })).status).toBe(202);
    const list = await fetch(`${h.server.url}/v1/api/waitlists/${t.waitlistId}/subscribers`, {
      headers: { Authorization: `Bearer ${t.key}` },
    });
    const id = ((await list.json()) as { items: { id: string }[] }).items[0]?.id as string;
    const postgres = isPostgres(h.db);
    const vacuumedBefore = postgres ? await vacuumCounts(h.db) : {};

    const reader = await holdReader(h.db);
    try {
      const erased = await fetch(`${h.server.url}/v1/api/waitlists/${t.waitlistId}/subscribers/${id}`, {
        method: 'DELETE',
        headers: { Authorization: `Bearer ${t.key}` },
      });
      expect(erased.status).toBe(204);
      await until(
        'the cleanup to say it is late',
        () => logged('erasure cleanup is late, still waiting').length > 0,
      );
      // Still there, behind the reader: in the WAL on SQLite; unvacuumed on PostgreSQL.
      if (postgres) expect(await vacuumCounts(h.db)).toEqual(vacuumedBefore);
      else expect(filesHolding(h.db, email)).toContain(`${h.db}-wal`);
      expect(logged('erasure cleanup finished late')).toEqual([]);
    } finally {
      await reader.release();
    }

    const [finished] = await until('the late cleanup to finish', () => {
      const lines = logged('erasure cleanup finished late');
      return lines.length > 0 && lines;
    });
    expect(finished).toMatchObject({ erasures: 1 });
    expect(finished?.attempts).toBeGreaterThan(1);
    expect(typeof finished?.took_ms).toBe('number');
    expect(logged('erasure cleanup is late, still waiting')).toHaveLength(1);
    if (postgres) {
      const after = await vacuumCounts(h.db);
      for (const table of HOLDING_SUBSCRIBER_DATA)
        expect({ table, vacuumed: (after[table] ?? 0) > (vacuumedBefore[table] ?? 0) }).toEqual({
          table,
          vacuumed: true,
        });
    } else {
      expect(filesHolding(h.db, email)).toEqual([]);
    }
  });

  it('lets erasures close together share the next cleanup, and runs what is owed when the server stops', async () => {
    const own = await harness();
    try {
      const t = await own.tenant();
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const email = `burst${i}@cleanup.example`;
        expect((await apiCreate(own.server, t.key, t.waitlistId, { email })).status).toBe(202);
      }
      const list = await fetch(`${own.server.url}/v1/api/waitlists/${t.waitlistId}/subscribers`, {
        headers: { Authorization: `Bearer ${t.key}` },
      });
      for (const item of ((await list.json()) as { items: { id: string }[] }).items) ids.push(item.id);
      for (const id of ids) {
        const erased = await fetch(`${own.server.url}/v1/api/waitlists/${t.waitlistId}/subscribers/${id}`, {
          method: 'DELETE',
          headers: { Authorization: `Bearer ${t.key}` },
        });
        expect(erased.status).toBe(204);
      }
    } finally {
      await own.close();
    }
    const rounds = own.server
      .output()
      .split('\n')
      .filter((line) => line.includes('"msg":"erasure cleanup finished'))
      .map((line) => JSON.parse(line) as LogLine);
    for (const round of rounds) expect(typeof round.took_ms).toBe('number');
    expect(rounds.reduce((sum, r) => sum + (r.erasures ?? 0), 0)).toBe(3);
    // PostgreSQL: one VACUUM at once, then one for the two after it, at the end of the minute or,
    // as here, when the server stops. (SQLite's second comes within a second, whatever the split.)
    if (isPostgres(own.db)) expect(rounds.map((r) => r.erasures)).toEqual([1, 2]);
  });
});
