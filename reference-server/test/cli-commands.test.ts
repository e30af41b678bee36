import { runCli, tempDir } from '@waitlistkit/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { inProcess } from './cli-in-process.js';
import { apiCreate, apiList, harness, ORIGIN, publicPost } from './helpers.js';

const dir = tempDir();
afterAll(() => dir.cleanup());

const { run, ok } = inProcess(dir.db);

describe('commands print exactly the shapes of docs/command-line.md#commands', () => {
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
      // The waitlist gains its fields and dedupe (docs/command-line.md#fields-and-address-variants).
      fields: [],
      dedupe: 'exact',
      // And the admitted mail's access URL (docs/messages.md#the-three-messages).
      access_url: '',
      // And the language of pages and mails for a subscriber who gave none (docs/languages.md#what-a-sign-up-records).
      default_lang: 'en',
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

describe('waitlist update --access-url', () => {
  it('takes an https URL, refuses any other naming the option, and clears with an empty string', async () => {
    const tenant = await ok(['tenant', 'create', '--name', 'Access', '--plan', 'pro']);
    const w = await ok(['waitlist', 'create', '--tenant', tenant.id, '--name', 'W']);
    const set = (value: string) =>
      run(['waitlist', 'update', '--waitlist', w.waitlist_id, '--access-url', value]);
    const url = 'https://app.example/welcome?from=waitlist';
    expect((await set(url)).json.access_url).toBe(url);
    for (const bad of [
      'http://app.example/',
      'javascript:alert(1)',
      'app.example',
      `https://a.example/${'x'.repeat(2000)}`,
    ]) {
      const refused = await set(bad);
      expect([refused.code, refused.error.code]).toEqual([2, 'usage_error']);
      expect(refused.error.message).toMatch(/--access-url/);
    }
    // Refusals left it as it was; an empty string sets it back to none.
    expect((await ok(['waitlist', 'show', '--waitlist', w.waitlist_id])).access_url).toBe(url);
    expect((await set('')).json.access_url).toBe('');
    expect((await set('  ')).json.access_url).toBe('');
  });
});

describe('pnpm -s waitlist-server drives a live server', () => {
  // Two commands go through pnpm (the database from WAITLIST_DB, then from --db); the others run
  // in process, as a process each made this test slow enough to time out on a loaded machine.
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
      await h.cli(['tenant', 'set-plan', '--tenant', t.tenantId, '--plan', 'free']);
      expect((await apiList(h.server, t.key, t.waitlistId)).status).toBe(403);
      await h.cli(['tenant', 'set-plan', '--tenant', t.tenantId, '--plan', 'pro']);
      expect((await apiList(h.server, t.key, t.waitlistId)).status).toBe(200);
      const keys = await h.cli<{ items: { id: string }[] }>(['key', 'list', '--tenant', t.tenantId]);
      await h.cli(['key', 'revoke', '--operator', t.operatorId, '--key', keys.items[0]?.id as string]);
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
  it('reads, lets in and erases subscribers as docs/command-line.md#commands says, admins only', async () => {
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
        log
          .slice(0, 5)
          .map((e: { action: string; actor: { id: string } }) => [
            e.action,
            e.actor.id === member.id ? 'member' : 'admin',
          ]),
      ).toEqual([
        ['subscriber.erased', 'admin'],
        ['subscriber.erase_refused', 'member'],
        ['subscriber.admit_refused', 'member'],
        ['subscriber.admitted', 'admin'],
        ['subscriber.admitted', 'admin'],
      ]);
      expect(JSON.stringify(log).toLowerCase()).not.toContain('person');
    } finally {
      await h.close();
    }
  });
});
