/**
 * Moving a list in and out (docs/moving-a-list.md) through the command line, on a real server's
 * database, on both stores: the summary, placement by join time checked against a full sort,
 * credits with the boost, no events unless asked, all or nothing (a SIGKILL in the middle), the
 * file's faults, and export → import into an empty waitlist giving the same line.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ListPageSchema, type Subscriber } from '@waitlistkit/protocol';
import { cli, type Tenant } from '@waitlistkit/testkit';
import { beforeAll, describe, expect, it } from 'vitest';
import { positionsBySorting } from '../src/domain/positions.js';
import { Connection } from '../src/store/sqlite/connection.js';
import { isPostgres, sql } from './database.js';
import { apiCreate, apiList, type Harness } from './helpers.js';
import { importHarness } from './import-harness.js';

const { h: server, dir: folder, file, importFile } = importHarness();
let h: Harness;
beforeAll(() => {
  h = server();
});

/** The refusal of an import, as the command line prints it. */
async function importRefusal(t: Tenant, path: string): Promise<string> {
  const error = await importFile(t, path).then(
    () => undefined,
    (e: Error) => e.message,
  );
  expect(error).toBeDefined();
  return error as string;
}

async function line(t: Tenant): Promise<Subscriber[]> {
  const items: Subscriber[] = [];
  for (let page = 1; ; page++) {
    const res = await apiList(h.server, t.key, t.waitlistId, `?limit=200&page=${page}`);
    const body = ListPageSchema.parse(await res.json());
    items.push(...body.items);
    if (body.items.length < 200) return items;
  }
}

/** The line as the contract orders it, by sorting everyone: join time, then id, then the boost. */
async function sortedLine(t: Tenant, boost: number): Promise<string[]> {
  const rows = await sql<{ id: string; joined_us: number; referral_count: number }>(
    h.db,
    'SELECT id, joined_us, referral_count FROM subscribers WHERE waitlist_id = ? AND admitted_us IS NULL',
    [t.waitlistId],
  );
  const byJoin = [...rows].sort(
    (a, b) => a.joined_us - b.joined_us || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  const ranked = byJoin.map((r, i) => ({ seq: i + 1, referral_count: r.referral_count, id: r.id }));
  const positions = positionsBySorting(ranked, boost);
  return [...positions.entries()].sort((a, b) => a[1] - b[1]).map(([r]) => (r as (typeof ranked)[number]).id);
}

/** The RFC 3339 time one microsecond after `iso` (as the API writes it, to the microsecond). */
function microsecondAfter(iso: string): string {
  const us = Date.parse(`${iso.slice(0, 19)}Z`) * 1000 + Number(iso.slice(20, 26)) + 1;
  return `${new Date(Math.floor(us / 1000)).toISOString().slice(0, 19)}.${String(us % 1_000_000).padStart(6, '0')}Z`;
}

describe('subscriber import', () => {
  it('places rows by joined_at among those already on the line, exact against a full sort, before and after', async () => {
    const t = await h.tenant({ waitlist: ['--referrals', 'on', '--referral-boost', '2'] });
    for (const email of ['early@example.com', 'middle@example.com', 'late@example.com'])
      expect((await apiCreate(h.server, t.key, t.waitlistId, { email })).status).toBe(202);
    const before = await line(t);
    expect(before.map((s) => s.id)).toEqual(await sortedLine(t, 2));
    const [early, middle] = before;
    const between = microsecondAfter(early?.joined_at as string);
    const summary = await importFile(
      t,
      file(
        [
          'email,joined_at,referred_by,confirmed',
          'old@example.com,2020-01-01,,',
          `between@example.com,${between},middle@example.com,true`,
          'now@example.com,,old@example.com,',
          'MIDDLE@example.com,2019-01-01,,',
          'now@example.com,,,',
          'old2@example.com,2020-01-01,,',
        ].join('\r\n'),
      ),
    );
    expect(summary).toEqual({
      imported: 4,
      skipped_existing: 1,
      skipped_repeats: 1,
      invalid: [],
      credited: 2,
    });
    const after = await line(t);
    expect(after.map((s) => s.id)).toEqual(await sortedLine(t, 2));
    expect(after.map((s) => s.position)).toEqual(after.map((_, i) => i + 1));
    const byEmail = new Map(after.map((s) => [s.email, s]));
    expect(byEmail.get('old@example.com')).toMatchObject({
      joined_at: '2020-01-01T00:00:00.000000Z',
      referral_count: 1,
    });
    expect(byEmail.get('middle@example.com')).toMatchObject({ id: middle?.id, referral_count: 1 });
    // Same join time: the file's order.
    const emails = after.map((s) => s.email);
    expect(emails.indexOf('old@example.com')).toBeLessThan(emails.indexOf('old2@example.com'));
    // Sign-ups go on after the import, at the end.
    expect((await apiCreate(h.server, t.key, t.waitlistId, { email: 'next@example.com' })).status).toBe(202);
    const next = await line(t);
    expect(next.map((s) => s.id)).toEqual(await sortedLine(t, 2));
    expect(
      (next.find((s) => s.email === 'next@example.com')?.joined_at ?? '') >
        (byEmail.get('now@example.com')?.joined_at ?? ''),
    ).toBe(true);
  });

  it('keeps erased and admitted join numbers in their places', async () => {
    const t = await h.tenant();
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com'])
      expect((await apiCreate(h.server, t.key, t.waitlistId, { email })).status).toBe(202);
    const [a, b] = await line(t);
    await h.cli([
      'subscriber',
      'delete',
      '--operator',
      t.operatorId,
      '--waitlist',
      t.waitlistId,
      '--id',
      b?.id as string,
    ]);
    await h.cli([
      'subscriber',
      'admit',
      '--operator',
      t.operatorId,
      '--waitlist',
      t.waitlistId,
      '--ids',
      a?.id as string,
    ]);
    await importFile(t, file('email,joined_at\nfirst@example.com,2001-01-01\n'));
    const after = await line(t);
    expect(after.map((s) => s.email)).toEqual(['first@example.com', 'c@example.com', 'd@example.com']);
    expect(after.map((s) => s.position)).toEqual([1, 2, 3]);
  });

  it('imports nothing while a row is invalid, and the valid rows with --skip-invalid', async () => {
    const t = await h.tenant({ waitlist: ['--referrals', 'on'] });
    const path = file(
      [
        'email,joined_at,referred_by',
        'ok@example.com,,',
        'not-an-address,,',
        'future@example.com,2999-01-01,',
        'a@example.com,,b@example.com',
        'b@example.com,,a@example.com',
        'self@example.com,,SELF@example.com',
      ].join('\n'),
    );
    const dry = await importFile(t, path);
    expect(dry.imported).toBe(0);
    expect(dry.invalid.map((r) => r.line)).toEqual([3, 4, 5, 6, 7]);
    expect(dry.invalid[2]?.reason).toBe('`referred_by` makes a cycle: line 5 → line 6 → line 5.');
    expect(await line(t)).toEqual([]);
    const skipped = await importFile(t, path, '--skip-invalid');
    expect(skipped).toMatchObject({ imported: 1, invalid: dry.invalid });
    expect((await line(t)).map((s) => s.email)).toEqual(['ok@example.com']);
  });

  it('writes nothing on a dry run, and counts what it would do', async () => {
    const t = await h.tenant();
    const summary = await importFile(t, file('email\na@example.com\nb@example.com\n'), '--dry-run');
    expect(summary).toEqual({
      imported: 2,
      skipped_existing: 0,
      skipped_repeats: 0,
      invalid: [],
      credited: 0,
    });
    expect(await line(t)).toEqual([]);
  });

  it('refuses files that cannot be imported, naming the line, and writes nothing', async () => {
    const t = await h.tenant();
    const cases: [string | Buffer, RegExp][] = [
      ['', /Line 1: the file is empty/],
      ['email\r\n', /header and no rows: there is nothing to import/],
      ['name,joined_at\nAda,2024-01-01\n', /Line 1: the header has no `email` column/],
      [
        Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('email\n', 'utf16le')]),
        /UTF-16: save it as CSV in UTF-8/,
      ],
      [Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]), /binary/],
      [`email${',x'.repeat(2_000_000)}\n`, /Line 1: a record is longer than 65536 characters/],
      [`email,utm_term\na@example.com,${'x'.repeat(70_000)}\n`, /Line 2: a record is longer/],
    ];
    for (const [text, message] of cases) expect(await importRefusal(t, file(text))).toMatch(message);
    expect(await line(t)).toEqual([]);
  });

  it('is for admins only, and logs one entry with the counts, never an address', async () => {
    const t = await h.tenant();
    const member = await h.cli<{ id: string }>([
      'operator',
      'create',
      '--tenant',
      t.tenantId,
      '--email',
      `member-${t.tenantId}@test.example`,
      '--role',
      'member',
    ]);
    const path = file('email\nsecret-person@example.com\n');
    const refused = await h
      .cli(['subscriber', 'import', '--operator', member.id, '--waitlist', t.waitlistId, '--file', path])
      .then(
        () => '',
        (e: Error) => e.message,
      );
    expect(refused).toMatch(/"code":"forbidden"/);
    await importFile(t, path);
    const { items } = await h.cli<{ items: { action: string; details: object }[] }>([
      'activity',
      '--tenant',
      t.tenantId,
    ]);
    expect(items[0]).toMatchObject({
      action: 'subscriber.imported',
      details: { imported: 1, skipped_existing: 0, skipped_repeats: 0, invalid: 0, credited: 0 },
    });
    expect(items[1]).toMatchObject({ action: 'subscriber.import_refused' });
    expect(JSON.stringify(items)).not.toContain('secret-person');
  });

  it('sends no events unless --send-events', async () => {
    const t = await h.tenant({ waitlist: ['--referrals', 'on'] });
    await cli(['webhook', 'create', '--operator', t.operatorId, '--url', 'http://127.0.0.1:9/in'], {
      db: h.db,
      env: { WAITLIST_WEBHOOK_ALLOW_PRIVATE: '1' },
    });
    const events = async () =>
      (
        await sql<{ type: string }>(h.db, 'SELECT type FROM events WHERE waitlist_id = ? ORDER BY seq', [
          t.waitlistId,
        ])
      ).map((e) => e.type);
    await importFile(
      t,
      file('email,referred_by\nquiet@example.com,\nquiet2@example.com,quiet@example.com\n'),
    );
    expect(await events()).toEqual([]);
    await importFile(
      t,
      file('email,referred_by\nloud@example.com,\nloud2@example.com,loud@example.com\n'),
      '--send-events',
    );
    expect((await events()).sort()).toEqual([
      'referral.credited',
      'subscriber.created',
      'subscriber.created',
    ]);
  });
});

describe('subscriber import on a waitlist that confirms addresses', () => {
  it('keeps confirmed, notes the credit of a row not confirmed, and mails it only with --send-events', async () => {
    const t = await h.tenant({ waitlist: ['--referrals', 'on', '--confirm-email', 'on'] });
    const mails = async () =>
      (await sql<{ n: number }>(h.db, "SELECT count(*) AS n FROM deliveries WHERE channel = 'mail'", []))[0]
        ?.n;
    const before = await mails();
    const summary = await importFile(
      t,
      file('email,referred_by,confirmed\nref@example.com,,true\nwaits@example.com,ref@example.com,false\n'),
    );
    expect(summary).toMatchObject({ imported: 2, credited: 0 });
    const byEmail = new Map((await line(t)).map((s) => [s.email, s]));
    expect(byEmail.get('ref@example.com')).toMatchObject({ confirmed: true, referral_count: 0 });
    expect(byEmail.get('waits@example.com')).toMatchObject({ confirmed: false });
    expect(await mails()).toBe(before);
    await importFile(t, file('email,confirmed\nmailed@example.com,false\n'), '--send-events');
    expect(await mails()).toBe((before ?? 0) + 1);
  });
});

describe('all or nothing', () => {
  /** The command in a process of its own, to be killed. */
  function importProcess(t: Tenant, path: string): ChildProcess {
    const cli = join(import.meta.dirname, '../dist/cli.js');
    return spawn(
      process.execPath,
      [
        cli,
        'subscriber',
        'import',
        '--operator',
        t.operatorId,
        '--waitlist',
        t.waitlistId,
        '--file',
        path,
        '--db',
        h.db,
      ],
      { stdio: 'ignore' },
    );
  }

  const walSize = () => (existsSync(`${h.db}-wal`) ? statSync(`${h.db}-wal`).size : 0);

  /**
   * True while another process is in the middle of the import's write, not yet committed: on
   * PostgreSQL it holds a row lock on subscribers (only the merge writes there); on SQLite it
   * holds the write lock and its uncommitted pages have grown the WAL past `walBefore` (a brief
   * lock, such as a process's start checking the migrations, writes none).
   */
  async function writing(walBefore: number): Promise<boolean> {
    if (isPostgres(h.db)) {
      const locks = await sql<{ n: number }>(
        h.db,
        `SELECT count(*) AS n FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
          WHERE c.relname = 'subscribers' AND l.mode = 'RowExclusiveLock' AND l.pid <> pg_backend_pid()`,
      );
      return (locks[0]?.n ?? 0) > 0;
    }
    if (walSize() < walBefore + 1_000_000) return false;
    const probe = await Connection.open(h.db);
    try {
      await probe.exec('PRAGMA busy_timeout = 0');
      await probe.run('BEGIN IMMEDIATE');
      await probe.run('ROLLBACK');
      return false;
    } catch {
      return true;
    } finally {
      await probe.close();
    }
  }

  it('leaves the list as it was when the command is killed in the middle of its write', async () => {
    const t = await h.tenant({ waitlist: ['--referrals', 'on', '--referral-boost', '1'] });
    for (const email of ['x@example.com', 'y@example.com'])
      expect((await apiCreate(h.server, t.key, t.waitlistId, { email })).status).toBe(202);
    const before = await line(t);
    const rows = Array.from(
      { length: 60_000 },
      (_, i) => `p${i}@example.com,2021-01-01,${i > 0 ? 'x@example.com' : ''}`,
    );
    const path = file(['email,joined_at,referred_by', ...rows].join('\n'));
    const walBefore = walSize();
    const child = importProcess(t, path);
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    let killed = false;
    const deadline = Date.now() + 120_000;
    while (!killed && Date.now() < deadline && child.exitCode === null) {
      if (await writing(walBefore)) {
        child.kill('SIGKILL');
        killed = true;
      }
    }
    expect(await exited).toBe('SIGKILL');
    expect(killed).toBe(true);
    expect(await line(t)).toEqual(before);
    // And the next import goes through whole.
    const summary = await importFile(t, file('email\nafter@example.com\n'));
    expect(summary.imported).toBe(1);
  }, 300_000);

  it('answers and keeps a sign-up sent while an import runs', async () => {
    const t = await h.tenant();
    const rows = Array.from({ length: 30_000 }, (_, i) => `q${i}@example.com`);
    const importing = importFile(t, file(['email', ...rows].join('\n')));
    // A sign-up that finds the import's write holding the file past the busy timeout is told to
    // come back (docs/moving-a-list.md): a busy machine stretches that write, and a client obeys.
    for (;;) {
      const res = await apiCreate(h.server, t.key, t.waitlistId, { email: 'during@example.com' });
      if (res.status === 202) break;
      expect(res.status).toBe(503);
      const wait = Number(res.headers.get('retry-after'));
      expect(wait).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    }
    expect((await importing).imported).toBe(30_000);
    expect((await line(t)).length).toBe(30_001);
  }, 300_000);
});

describe('subscriber export', () => {
  it('gives the same line when imported into an empty waitlist, formula guards and referrals included', async () => {
    const t = await h.tenant({ waitlist: ['--referrals', 'on', '--referral-boost', '3'] });
    const emails = [
      '=cmd@evil.example',
      'ada@example.com',
      '+sum@x.example',
      'bo@example.com',
      'cy@example.com',
    ];
    for (const email of emails)
      expect((await apiCreate(h.server, t.key, t.waitlistId, { email })).status).toBe(202);
    const [first] = await line(t);
    const code = (
      await sql<{ referral_code: string }>(h.db, 'SELECT referral_code FROM subscribers WHERE id = ?', [
        first?.id,
      ])
    )[0]?.referral_code as string;
    for (const email of ['r1@example.com', 'r2@example.com'])
      expect((await apiCreate(h.server, t.key, t.waitlistId, { email, referral_code: code })).status).toBe(
        202,
      );
    await importFile(
      t,
      file(
        'email,joined_at\nold@example.com,2022-05-05T05:05:05.123456Z\nold2@example.com,2022-05-05T05:05:05.123456Z\n',
      ),
    );
    const original = await line(t);

    const to = join(folder, 'export.csv');
    expect(await h.cli(['subscriber', 'export', '--waitlist', t.waitlistId, '--to', to])).toEqual({
      path: to,
      rows: original.length,
    });
    const text = readFileSync(to, 'utf8');
    expect(text.split('\r\n')[0]).toBe(
      'email,joined_at,referred_by,confirmed,lang,utm_source,utm_medium,utm_campaign,utm_term,utm_content,referrer,landing,channel,id,position,status,referral_code,referral_count,admitted_at',
    );
    expect(text).toContain(`"'=cmd@evil.example"`);

    const empty = await h.tenant({ waitlist: ['--referrals', 'on', '--referral-boost', '3'] });
    const summary = await importFile(empty, to);
    expect(summary).toMatchObject({ imported: original.length, invalid: [], credited: 2 });
    const copy = await line(empty);
    const shape = (s: Subscriber) => [s.email, s.joined_at, s.position, s.referral_count, s.status];
    expect(copy.map(shape)).toEqual(original.map(shape));
  });

  it('refuses a waitlist of nobody, and writes the admitted with --status admitted', async () => {
    const t = await h.tenant();
    expect((await apiCreate(h.server, t.key, t.waitlistId, { email: 'in@example.com' })).status).toBe(202);
    await h.cli([
      'subscriber',
      'admit',
      '--operator',
      t.operatorId,
      '--waitlist',
      t.waitlistId,
      '--count',
      '1',
    ]);
    const to = join(folder, 'admitted.csv');
    expect(
      await h.cli(['subscriber', 'export', '--waitlist', t.waitlistId, '--status', 'admitted', '--to', to]),
    ).toEqual({
      path: to,
      rows: 1,
    });
    expect(readFileSync(to, 'utf8')).toMatch(/\r\nin@example\.com,.*,admitted,,0,\d{4}-/);
    const missing = await h.cli(['subscriber', 'export', '--waitlist', 'wl_nope', '--to', to]).then(
      () => '',
      (e: Error) => e.message,
    );
    expect(missing).toMatch(/not_found/);
  });
});
