import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SubscriberStatus } from '@waitlistkit/protocol';
import { cli, runCli, seedTenant, startServer, tempDir } from '@waitlistkit/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { runCommandLine } from '../src/cli/main.js';
import { DEFAULT_SETTINGS } from '../src/domain/settings.js';
import { Connection } from '../src/store/sqlite/connection.js';
import { openDatabase } from '../src/store/sqlite/database.js';
import { listSubscribers } from '../src/store/sqlite/line.js';
import { apiCreate, apiList, harness, ORIGIN, publicPost, SECRET } from './helpers.js';

const dir = tempDir();
afterAll(() => dir.cleanup());

/** The command line in process on this file's database (or `db`): same code as the binary. */
async function run(args: readonly string[], db = dir.db) {
  let stdout = '';
  let stderr = '';
  const code = await runCommandLine([...args, '--db', db], {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    env: {},
  });
  return {
    code,
    json: stdout ? JSON.parse(stdout) : undefined,
    error: stderr ? JSON.parse(stderr).error : undefined,
  };
}

async function ok(args: string[]) {
  const result = await run(args);
  expect(result.error).toBeUndefined();
  expect(result.code).toBe(0);
  return result.json;
}

describe('commands print exactly the shapes of operations.md', () => {
  it('tenant, operator, waitlist, key and activity', async () => {
    const tenant = await ok(['tenant', 'create', '--name', 'Acme', '--plan', 'pro']);
    expect(tenant).toEqual({ id: expect.stringMatching(/^ten_/), name: 'Acme', plan: 'pro' });
    expect(await ok(['tenant', 'set-plan', '--tenant', tenant.id, '--plan', 'team'])).toEqual({
      ...tenant,
      plan: 'team',
    });

    const admin = await ok([
      'operator',
      'create',
      '--tenant',
      tenant.id,
      '--email',
      'Boss@Acme.example',
      '--role',
      'admin',
    ]);
    expect(admin).toEqual({
      id: expect.stringMatching(/^op_/),
      tenant_id: tenant.id,
      email: 'Boss@Acme.example',
      role: 'admin',
      password: expect.stringMatching(/^[0-9A-Za-z]{20}$/),
    });
    const member = await ok([
      'operator',
      'create',
      '--tenant',
      tenant.id,
      '--email',
      'm@acme.example',
      '--role',
      'member',
      '--password',
      'long enough password',
    ]);
    expect(member).not.toHaveProperty('password');

    const waitlist = await ok([
      'waitlist',
      'create',
      '--tenant',
      tenant.id,
      '--name',
      'Launch',
      '--referrals',
      'on',
      '--origins',
      'https://a.example, https://b.example:8443',
      '--pow',
      'on',
      '--pow-difficulty',
      '20',
      '--geo-deny',
      'ru,kp',
    ]);
    expect(waitlist).toEqual({
      waitlist_id: expect.stringMatching(/^wl_/),
      tenant_id: tenant.id,
      name: 'Launch',
      archived: false,
      referrals: true,
      origins: ['https://a.example', 'https://b.example:8443'],
      challenge: false,
      challenge_min_age_ms: 1500,
      pow: true,
      pow_difficulty: 20,
      pow_adaptive: false,
      pow_surge_threshold: 120,
      ip_limit: 60,
      referral_boost: 0,
      email_throttle: false,
      mx_check: false,
      block_disposable: false,
      disposable_domains: [],
      geo_allow: [],
      geo_deny: ['RU', 'KP'],
      confirm_email: false,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const updated = await ok([
      'waitlist',
      'update',
      '--waitlist',
      waitlist.waitlist_id,
      '--geo-deny',
      '',
      '--geo-allow',
      'US',
      '--challenge',
      'on',
      '--challenge-min-age-ms',
      '2500',
      '--ip-limit',
      '10',
      '--referral-boost',
      '5',
      '--email-throttle',
      'on',
      '--mx-check',
      'on',
      '--block-disposable',
      'on',
      '--disposable-domains',
      'Burner.example',
      '--name',
      'Launch 2',
    ]);
    expect(updated).toMatchObject({
      name: 'Launch 2',
      geo_allow: ['US'],
      geo_deny: [],
      challenge: true,
      challenge_min_age_ms: 2500,
      ip_limit: 10,
      referral_boost: 5,
      email_throttle: true,
      mx_check: true,
      block_disposable: true,
      disposable_domains: ['burner.example'],
      pow_difficulty: 20,
    });
    expect(await ok(['waitlist', 'archive', '--waitlist', waitlist.waitlist_id])).toMatchObject({
      archived: true,
      name: 'Launch 2',
    });

    const key = await ok([
      'key',
      'create',
      '--operator',
      admin.id,
      '--name',
      'Backend',
      '--preset',
      'read-only',
    ]);
    expect(key).toEqual({
      id: expect.stringMatching(/^key_/),
      name: 'Backend',
      prefix: key.value.slice(0, 12),
      scopes: ['subscribers:read'],
      state: 'active',
      created_at: expect.any(String),
      last_used_at: null,
      revoked_at: null,
      value: expect.stringMatching(/^wlk_live_[0-9A-Za-z]{38}$/),
    });
    const listed = await ok(['key', 'list', '--tenant', tenant.id]);
    expect(listed.items).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(key.value);
    const revoked = await ok(['key', 'revoke', '--operator', admin.id, '--key', key.id]);
    expect(revoked).toMatchObject({ id: key.id, state: 'revoked', revoked_at: expect.any(String) });

    const activity = await ok(['activity', '--tenant', tenant.id]);
    expect(activity.items.map((e: { action: string }) => e.action)).toEqual(['key.revoked', 'key.created']);
    expect(activity.items[0].actor).toEqual({ type: 'operator', id: admin.id, name: 'Boss@Acme.example' });
    expect(JSON.stringify(activity)).not.toContain(key.value);
  });
});

describe('commands refuse what the rules refuse, and log it', () => {
  it('members get forbidden, free tenants feature_not_allowed; both are in the activity log', async () => {
    const tenant = await ok(['tenant', 'create', '--name', 'Free Co', '--plan', 'free']);
    const admin = await ok([
      'operator',
      'create',
      '--tenant',
      tenant.id,
      '--email',
      'a@free.example',
      '--role',
      'admin',
    ]);
    const member = await ok([
      'operator',
      'create',
      '--tenant',
      tenant.id,
      '--email',
      'm@free.example',
      '--role',
      'member',
    ]);
    const free = await run(['key', 'create', '--operator', admin.id, '--name', 'K', '--preset', 'full']);
    expect([free.code, free.error.code]).toEqual([1, 'feature_not_allowed']);
    await ok(['tenant', 'set-plan', '--tenant', tenant.id, '--plan', 'pro']);
    const byMember = await run(['key', 'create', '--operator', member.id, '--name', 'K', '--preset', 'full']);
    expect([byMember.code, byMember.error.code]).toEqual([1, 'forbidden']);
    const key = await ok(['key', 'create', '--operator', admin.id, '--name', 'K', '--preset', 'full']);
    const revokeByMember = await run(['key', 'revoke', '--operator', member.id, '--key', key.id]);
    expect([revokeByMember.code, revokeByMember.error.code]).toEqual([1, 'forbidden']);
    const log = (await ok(['activity', '--tenant', tenant.id])).items;
    expect(
      log.map((e: { action: string; actor: { name: string } }) => `${e.action} ${e.actor.name}`),
    ).toEqual([
      'key.revoke_refused m@free.example',
      'key.created a@free.example',
      'key.create_refused m@free.example',
      'key.create_refused a@free.example',
    ]);
  });

  it.each([
    [['tenant', 'set-plan', '--tenant', 'ten_nope', '--plan', 'pro'], 'not_found', 1],
    [
      ['operator', 'create', '--tenant', 'ten_nope', '--email', 'x@y.example', '--role', 'admin'],
      'not_found',
      1,
    ],
    [['waitlist', 'create', '--tenant', 'ten_nope', '--name', 'X'], 'not_found', 1],
    [['waitlist', 'update', '--waitlist', 'wl_nope', '--pow', 'on'], 'not_found', 1],
    [['waitlist', 'archive', '--waitlist', 'wl_nope'], 'not_found', 1],
    [['key', 'create', '--operator', 'op_nope', '--name', 'K', '--preset', 'full'], 'not_found', 1],
    [['key', 'list', '--tenant', 'ten_nope'], 'not_found', 1],
    [['activity', '--tenant', 'ten_nope'], 'not_found', 1],
  ])('%j → %s', async (args, code, exit) => {
    const result = await run(args);
    expect([result.code, result.error.code]).toEqual([exit, code]);
    expect(result.error.message).toMatch(/nope/);
  });

  it('refuses conflicting geo rules, short passwords, duplicate operators and bad emails', async () => {
    const tenant = await ok(['tenant', 'create', '--name', 'Geo', '--plan', 'pro']);
    const both = await run([
      'waitlist',
      'create',
      '--tenant',
      tenant.id,
      '--name',
      'W',
      '--geo-allow',
      'US',
      '--geo-deny',
      'RU',
    ]);
    expect([both.code, both.error.code]).toEqual([2, 'usage_error']);
    const w = await ok(['waitlist', 'create', '--tenant', tenant.id, '--name', 'W', '--geo-allow', 'US']);
    const conflict = await run(['waitlist', 'update', '--waitlist', w.waitlist_id, '--geo-deny', 'RU']);
    expect([conflict.code, conflict.error.code]).toEqual([1, 'conflict']);
    expect(conflict.error.message).toMatch(/--geo-allow ""/);
    const short = await run([
      'operator',
      'create',
      '--tenant',
      tenant.id,
      '--email',
      'a@geo.example',
      '--role',
      'admin',
      '--password',
      'short',
    ]);
    expect([short.code, short.error.code]).toEqual([2, 'usage_error']);
    await ok(['operator', 'create', '--tenant', tenant.id, '--email', 'a@geo.example', '--role', 'admin']);
    const dup = await run([
      'operator',
      'create',
      '--tenant',
      tenant.id,
      '--email',
      'A@GEO.example',
      '--role',
      'member',
    ]);
    expect([dup.code, dup.error.code]).toEqual([1, 'conflict']);
    const bad = await run([
      'operator',
      'create',
      '--tenant',
      tenant.id,
      '--email',
      'not-an-email',
      '--role',
      'admin',
    ]);
    expect([bad.code, bad.error.code]).toEqual([2, 'usage_error']);
    const name = await run(['tenant', 'create', '--name', ' ', '--plan', 'pro']);
    expect([name.code, name.error.code]).toEqual([2, 'usage_error']);
  });
});

describe('pnpm -s waitlist-server drives a live server', () => {
  it('settings, plans and revocations take effect on the next request', async () => {
    const h = await harness();
    try {
      const t = await h.tenant({ waitlist: ['--origins', ORIGIN] });
      const env = { WAITLIST_DB: h.db };
      expect((await publicPost(h.server, t.waitlistId, { email: 'a@example.com' })).status).toBe(202);
      const pow = await runCli(['waitlist', 'update', '--waitlist', t.waitlistId, '--pow', 'on'], { env });
      expect(pow.code).toBe(0);
      expect(JSON.parse(pow.stdout)).toMatchObject({ pow: true });
      expect((await publicPost(h.server, t.waitlistId, { email: 'b@example.com' })).status).toBe(428);
      const plan = await runCli(['tenant', 'set-plan', '--tenant', t.tenantId, '--plan', 'free'], { env });
      expect(plan.code).toBe(0);
      expect((await apiList(h.server, t.key, t.waitlistId)).status).toBe(403);
      await runCli(['tenant', 'set-plan', '--tenant', t.tenantId, '--plan', 'pro'], { env });
      expect((await apiList(h.server, t.key, t.waitlistId)).status).toBe(200);
      const keys = JSON.parse((await runCli(['key', 'list', '--tenant', t.tenantId], { env })).stdout);
      const revoke = await runCli(['key', 'revoke', '--operator', t.operatorId, '--key', keys.items[0].id], {
        env,
      });
      expect(revoke.code).toBe(0);
      expect((await apiList(h.server, t.key, t.waitlistId)).status).toBe(401);
      const archive = await runCli(['waitlist', 'archive', '--waitlist', t.waitlistId, '--db', h.db], {});
      expect(archive.code).toBe(0);
      expect((await publicPost(h.server, t.waitlistId, { email: 'c@example.com' })).status).toBe(404);
    } finally {
      await h.close();
    }
  });
});

describe('activity --tenant', () => {
  it('prints every entry, past a thousand, newest first, as one JSON object', async () => {
    const h = await harness({ WAITLIST_KEY_RATE_LIMIT: '1000000' });
    try {
      const t = await h.tenant();
      const creates = 1_050;
      for (let i = 0; i < creates; i += 50) {
        const batch = await Promise.all(
          Array.from({ length: Math.min(50, creates - i) }, (_, j) =>
            apiCreate(h.server, t.key, t.waitlistId, { email: `person${i + j}@example.com` }),
          ),
        );
        expect(batch.every((r) => r.status === 202)).toBe(true);
      }
      const { items } = await h.cli<{ items: { id: number; action: string }[] }>([
        'activity',
        '--tenant',
        t.tenantId,
      ]);
      // Every create through the key, and the key's own creation, which came first.
      expect(items).toHaveLength(creates + 1);
      expect(items.at(-1)?.action).toBe('key.created');
      expect(items.filter((e) => e.action === 'subscriber.created')).toHaveLength(creates);
      for (let i = 1; i < items.length; i++) {
        expect(items[i]?.id).toBeLessThan(items[i - 1]?.id as number);
      }
    } finally {
      await h.close();
    }
  });
});

describe('subscriber get, admit and delete', () => {
  it('reads, lets in and erases subscribers as operations.md says, admins only', async () => {
    const h = await harness();
    try {
      const t = await h.tenant({ waitlist: ['--origins', ORIGIN, '--referrals', 'on'] });
      for (let i = 0; i < 5; i++) {
        expect((await publicPost(h.server, t.waitlistId, { email: `Person${i}@Example.com` })).status).toBe(
          202,
        );
      }
      const on = (args: readonly string[]) => run(args, h.db);
      const byEmail = await on([
        'subscriber',
        'get',
        '--waitlist',
        t.waitlistId,
        '--email',
        'person2@EXAMPLE.com',
      ]);
      expect(byEmail.json).toMatchObject({
        email: 'Person2@Example.com',
        position: 3,
        status: 'waiting',
        confirmed: true,
      });
      const byId = await on(['subscriber', 'get', '--waitlist', t.waitlistId, '--id', byEmail.json.id]);
      expect(byId.json).toEqual(byEmail.json);
      for (const [args, code, error] of [
        [['subscriber', 'get', '--waitlist', t.waitlistId], 2, 'usage_error'],
        [
          ['subscriber', 'get', '--waitlist', t.waitlistId, '--id', 'sub_x', '--email', 'a@b.example'],
          2,
          'usage_error',
        ],
        [['subscriber', 'get', '--waitlist', t.waitlistId, '--email', 'nobody@example.com'], 1, 'not_found'],
        [['subscriber', 'get', '--waitlist', t.waitlistId, '--email', 'not an email'], 2, 'usage_error'],
        [['subscriber', 'admit', '--operator', t.operatorId, '--waitlist', t.waitlistId], 2, 'usage_error'],
        [
          ['subscriber', 'admit', '--operator', t.operatorId, '--waitlist', t.waitlistId, '--count', '0'],
          2,
          'usage_error',
        ],
        [
          ['subscriber', 'admit', '--operator', t.operatorId, '--waitlist', t.waitlistId, '--ids', 'nope'],
          2,
          'usage_error',
        ],
      ] as const) {
        const result = await on([...args]);
        expect({ args, code: result.code, error: result.error?.code }).toEqual({ args, code, error });
      }

      const admitted = await on([
        'subscriber',
        'admit',
        '--operator',
        t.operatorId,
        '--waitlist',
        t.waitlistId,
        '--count',
        '2',
      ]);
      expect(admitted.json.items.map((s: { email: string; status: string }) => [s.email, s.status])).toEqual([
        ['Person0@Example.com', 'admitted'],
        ['Person1@Example.com', 'admitted'],
      ]);
      const byIds = await on([
        'subscriber',
        'admit',
        '--operator',
        t.operatorId,
        '--waitlist',
        t.waitlistId,
        '--ids',
        `${byEmail.json.id},sub_unknown`,
      ]);
      expect(byIds.json.items.map((s: { id: string }) => s.id)).toEqual([byEmail.json.id]);

      const member = await h.cli<{ id: string }>([
        'operator',
        'create',
        '--tenant',
        t.tenantId,
        '--email',
        'member@cli.example',
        '--role',
        'member',
        '--password',
        'correct horse battery',
      ]);
      for (const args of [
        ['subscriber', 'admit', '--operator', member.id, '--waitlist', t.waitlistId, '--count', '1'],
        [
          'subscriber',
          'delete',
          '--operator',
          member.id,
          '--waitlist',
          t.waitlistId,
          '--email',
          'person3@example.com',
        ],
      ]) {
        const refused = await on(args);
        expect([refused.code, refused.error?.code]).toEqual([1, 'forbidden']);
      }

      const deleted = await on([
        'subscriber',
        'delete',
        '--operator',
        t.operatorId,
        '--waitlist',
        t.waitlistId,
        '--email',
        'person3@example.com',
      ]);
      expect(deleted.json).toEqual({ deleted: expect.stringMatching(/^sub_/) });
      const gone = await on(['subscriber', 'get', '--waitlist', t.waitlistId, '--id', deleted.json.deleted]);
      expect([gone.code, gone.error?.code]).toEqual([1, 'not_found']);
      const left = await (await apiList(h.server, t.key, t.waitlistId)).json();
      expect(left.items.map((s: { email: string; position: number }) => [s.email, s.position])).toEqual([
        ['Person4@Example.com', 1],
      ]);

      const log = (await on(['activity', '--tenant', t.tenantId])).json.items;
      expect(
        log.slice(0, 3).map((e: { action: string; actor: { type: string } }) => [e.action, e.actor.type]),
      ).toEqual([
        ['subscriber.erased', 'operator'],
        ['subscriber.admitted', 'operator'],
        ['subscriber.admitted', 'operator'],
      ]);
      expect(JSON.stringify(log).toLowerCase()).not.toContain('person');
    } finally {
      await h.close();
    }
  });
});

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
