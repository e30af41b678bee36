/**
 * `backup --to`: a consistent copy of a live SQLite database (docs/command-line.md#commands). SQLite only: on
 * PostgreSQL the command refuses the URL (cli-usage.test.ts) and pg_dump does the job.
 */
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SubscriberStatus } from '@waitlistkit/protocol';
import { cli, seedTenant, startServer, tempDir } from '@waitlistkit/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../src/domain/settings.js';
import { Connection } from '../src/store/sqlite/connection.js';
import { openDatabase } from '../src/store/sqlite/database.js';
import { listSubscribers } from '../src/store/sqlite/line.js';
import { inProcess } from './cli-in-process.js';
import { ORIGIN, publicPost, SECRET } from './helpers.js';

const dir = tempDir();
afterAll(() => dir.cleanup());
const { run, ok } = inProcess(dir.db);

describe('backup --to', () => {
  it('refuses to overwrite anything, the database itself above all, with a usage error', async () => {
    await ok(['tenant', 'create', '--name', 'Backed', '--plan', 'pro']);
    const taken = join(dir.dir, 'taken.db');
    writeFileSync(taken, '');
    mkdirSync(join(dir.dir, 'sub'), { recursive: true });
    for (const [args, message, db] of [
      [['backup'], /^Missing --to\.$/],
      [['backup', '--to'], /^--to needs a value/],
      [['backup', '--to', ' '], /^--to must not be empty\.$/],
      [['backup', '--to', taken], /already exists; a backup never overwrites a file/],
      [['backup', '--to', dir.db], /is the database itself/],
      [['backup', '--to', join(dir.dir, 'sub', '..', 'waitlist.db')], /is the database itself/],
      [['backup', '--to', join(dir.dir, 'sub')], /already exists/],
      [
        ['backup', '--to', join(dir.dir, 'missing', 'copy.db')],
        /^--to: The directory .*missing does not exist\.$/,
      ],
      [
        ['backup', '--to', join(dir.dir, 'copy.db')],
        /^--db: There is no database at/,
        join(dir.dir, 'none.db'),
      ],
      [
        ['backup', '--to', join(dir.dir, 'copy.db')],
        /for PostgreSQL use pg_dump/,
        'postgres://u:p@localhost/db',
      ],
    ] as const) {
      const result = await run(args, db);
      expect({ args, code: result.code, json: result.json }).toEqual({ args, code: 2, json: undefined });
      expect(result.error).toEqual({ code: 'usage_error', message: expect.stringMatching(message) });
    }
    // Nothing was written: the file already there is still empty, and no copy appeared.
    expect(statSync(taken).size).toBe(0);
    expect(existsSync(join(dir.dir, 'copy.db'))).toBe(false);
    expect(existsSync(join(dir.dir, 'none.db'))).toBe(false);
  });

  it('copies a database while the server signs people up: one committed state, valid on its own', async () => {
    const live = tempDir();
    const t = await seedTenant(live.db, { waitlist: ['--origins', ORIGIN, '--ip-limit', '1000000'] });
    // 30,000 subscribers written straight into the file, so that the copy takes a while.
    const seeding = await Connection.open(live.db);
    await seeding.run(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000)
       INSERT INTO subscribers (id, waitlist_id, seq, email, email_norm, email_search, referral_code,
         status_token, rank_key, joined_us)
       SELECT 'sub_seed' || i, ?1, i, 'Seed.' || i || '@Example.com', 'seed.' || i || '@example.com',
              'seed.' || i || '@example.com', 'S' || i, 'tok' || i, i, i FROM n`,
      [t.waitlistId],
    );
    await seeding.close();
    const server = await startServer({
      db: live.db,
      env: { WAITLIST_SECRET: SECRET, WAITLIST_KEY_RATE_LIMIT: '100000' },
    });
    const api = (method: string, path: string, body?: unknown) =>
      fetch(`${server.url}/v1/api/waitlists/${t.waitlistId}/${path}`, {
        method,
        headers: { Authorization: `Bearer ${t.key}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const copy = join(live.dir, 'backups', 'copy.db');
    mkdirSync(join(live.dir, 'backups'));
    try {
      expect((await api('DELETE', 'subscribers/sub_seed7')).status).toBe(204);
      // Which sign-ups were answered before the backup command started, while it ran, after it.
      const now = { phase: 'before' as 'before' | 'during' | 'after' };
      const accepted = { before: 0, during: 0, after: 0 };
      let admissions = 0;
      // Four sign-up loops and one admitting the head of the line, until the copy is done.
      const signUps = Array.from({ length: 4 }, async (_, w) => {
        for (let i = 0; now.phase !== 'after' || accepted.after < 20; i++) {
          const res = await publicPost(server, t.waitlistId, { email: `live-${w}-${i}@example.com` });
          expect(res.status).toBe(202);
          accepted[now.phase]++;
        }
      });
      const admitting = (async () => {
        while (now.phase !== 'after') {
          expect((await api('POST', 'admissions', { count: 2 })).status).toBe(200);
          admissions++;
        }
      })();
      while (accepted.before < 40) await new Promise((r) => setTimeout(r, 10));
      now.phase = 'during';
      const result = await cli<{ path: string; bytes: number }>(['backup', '--to', copy], { db: live.db });
      now.phase = 'after';
      await Promise.all([...signUps, admitting]);
      expect(accepted.during).toBeGreaterThan(0);
      expect(result).toEqual({ path: copy, bytes: statSync(copy).size });
      // A file of its own: no WAL beside it.
      expect(existsSync(`${copy}-wal`)).toBe(false);

      // The server kept serving: every sign-up above got its 202, and the line counts them all.
      const joined = 30_000 + accepted.before + accepted.during + accepted.after;
      const page = (await (await api('GET', 'subscribers')).json()) as { total: number };
      expect(page.total).toBe(joined - 1 - 2 * admissions);

      // The copy opens with the command line and holds what the server held at one moment.
      expect(
        await cli(['subscriber', 'get', '--waitlist', t.waitlistId, '--email', 'seed.1@example.com'], {
          db: copy,
        }),
      ).toMatchObject({
        id: 'sub_seed1',
        email: 'Seed.1@Example.com',
      });
      expect(
        (await cli<{ items: unknown[] }>(['key', 'list', '--tenant', t.tenantId], { db: copy })).items,
      ).toHaveLength(1);
      const [db, original] = [await openDatabase(copy), await Connection.open(live.db, { readonly: true })];
      try {
        expect(await db.reader.all('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
        await db.writer.submit((tx) =>
          tx.run("INSERT INTO subscribers_fts (subscribers_fts, rank) VALUES ('integrity-check', 1)"),
        );
        const facts = (c: Connection) =>
          c.get<{
            rows: number;
            last: number;
            erased: number;
            admitted: number;
            admitted_count: number;
            erased_count: number;
          }>(
            `SELECT (SELECT count(*) FROM subscribers WHERE waitlist_id = ?1) AS rows,
                    (SELECT max(seq) FROM (SELECT seq FROM subscribers WHERE waitlist_id = ?1
                                           UNION ALL SELECT seq FROM erased_seqs WHERE waitlist_id = ?1)) AS last,
                    (SELECT count(*) FROM erased_seqs WHERE waitlist_id = ?1) AS erased,
                    (SELECT count(*) FROM subscribers WHERE waitlist_id = ?1 AND admitted_us IS NOT NULL) AS admitted,
                    admitted_count, erased_count
               FROM waitlists WHERE id = ?1`,
            [t.waitlistId],
          );
        const [copied, latest] = [await facts(db.reader), await facts(original)];
        // A prefix of the sign-ups: join numbers 1..last, each once, as a row or an erased seq;
        // and the waitlist's counters agree with its rows.
        expect(copied).toMatchObject({ erased: 1, erased_count: 1 });
        expect(copied?.rows).toBe((copied?.last ?? 0) - 1);
        expect(copied?.admitted_count).toBe(copied?.admitted);
        expect(copied?.admitted).toBeGreaterThan(0);
        expect(copied?.last).toBeGreaterThan(30_000 + accepted.before - 1);
        expect(copied?.last).toBeLessThan(latest?.last ?? 0);
        // Row for row, the copy is the server's database up to that join number.
        const rows = (c: Connection) =>
          c.all<{ seq: number; id: string; email: string }>(
            'SELECT seq, id, email FROM subscribers WHERE waitlist_id = ? AND seq > 29990 AND seq <= ? ORDER BY seq',
            [t.waitlistId, copied?.last],
          );
        expect(await rows(db.reader)).toEqual(await rows(original));
        // Search works on the copy, through the trigram index.
        const found = await db.snapshot((tx) =>
          listSubscribers(
            tx,
            t.waitlistId,
            DEFAULT_SETTINGS,
            { page: 1, limit: 25, q: 'LIVE-0-1', status: SubscriberStatus.waiting },
            'index',
          ),
        );
        expect(found.total).toBeGreaterThan(0);
        expect(found.items.every((s) => s.email.startsWith('live-0-1'))).toBe(true);
      } finally {
        await db.close();
        await original.close();
      }
    } finally {
      await server.stop();
      live.cleanup();
    }
  }, 120_000);
});

describe('the files that hold the secrets', () => {
  const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

  it('are created readable by their owner only: the database, its WAL and every backup', async () => {
    const own = tempDir();
    try {
      const t = await seedTenant(own.db, { waitlist: ['--origins', ORIGIN] });
      const server = await startServer({ db: own.db, env: { WAITLIST_SECRET: SECRET } });
      try {
        expect((await publicPost(server, t.waitlistId, { email: 'perm@example.com' })).status).toBe(202);
        expect([own.db, `${own.db}-wal`, `${own.db}-shm`].map(mode)).toEqual(['600', '600', '600']);
        const copy = join(own.dir, 'copy.db');
        await cli(['backup', '--to', copy], { db: own.db });
        expect(mode(copy)).toBe('600');
      } finally {
        await server.stop();
      }
      // A file an older version left open to others is closed to them when next opened.
      for (const file of [own.db, `${own.db}-wal`, `${own.db}-shm`])
        if (existsSync(file)) chmodSync(file, 0o644);
      await cli(['tenant', 'create', '--name', 'Reopened', '--plan', 'pro'], { db: own.db });
      expect(mode(own.db)).toBe('600');
      for (const file of [`${own.db}-wal`, `${own.db}-shm`])
        if (existsSync(file)) expect(mode(file)).toBe('600');
    } finally {
      own.cleanup();
    }
  });
});
