/**
 * Several `serve` processes on one database behave as one server (docs/self-hosting.md#several-servers): three of them,
 * started together on a fresh database (their migrations take turns), and requests sent to them
 * in turn, as a load balancer would. On PostgreSQL they share the database over the network; on
 * SQLite they share the file on one machine, which the contract asks nothing less of.
 */
import { ListPageSchema, solvePow } from '@waitlistkit/protocol';
import { cli, type RunningServer, seedTenant, startServer, type Tenant, tempDir } from '@waitlistkit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from './database.js';
import { addOperator, apiList, Browser, gate, ORIGIN, publicPost, SECRET, until } from './helpers.js';
import { receiver } from './webhook-receiver.js';

/** One public address for the status pages, as behind a load balancer: the answers name it. */
const ENV = {
  APP_URL: 'https://waitlist.example',
  WAITLIST_SECRET: SECRET,
  WAITLIST_WEBHOOK_ALLOW_PRIVATE: '1',
  WAITLIST_KEY_RATE_LIMIT: '100000',
};

const dir = tempDir();
let servers: RunningServer[];
beforeAll(async () => {
  servers = await Promise.all([0, 1, 2].map(() => startServer({ db: dir.db, env: ENV })));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  dir.cleanup();
});

/** The i-th request's server: round-robin over the three. */
const at = (i: number) => servers[i % servers.length] as RunningServer;

const tenant = (waitlist: string[]) =>
  seedTenant(dir.db, { waitlist: ['--origins', ORIGIN, '--ip-limit', '100000', ...waitlist] });

async function line(t: Tenant) {
  return ListPageSchema.parse(await (await apiList(at(0), t.key, t.waitlistId, '?limit=200')).json());
}

describe('three servers on one database', () => {
  it('make one row of 200 identical concurrent sign-ups, with one credit and identical answers', async () => {
    const t = await tenant(['--referrals', 'on']);
    const referrer = (await (
      await publicPost(at(0), t.waitlistId, { email: 'referrer@example.com' })
    ).json()) as {
      referral_code: string;
    };
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        publicPost(at(i), t.waitlistId, { email: 'Same@Example.com', referral_code: referrer.referral_code }),
      ),
    );
    expect(new Set(answers.map((r) => r.status))).toEqual(new Set([202]));
    expect(new Set(await Promise.all(answers.map((r) => r.text()))).size).toBe(1);
    const page = await line(t);
    expect(page.total).toBe(2);
    expect(page.items.map((s) => [s.email, s.referral_count, s.position])).toEqual([
      ['referrer@example.com', 1, 1],
      ['Same@Example.com', 0, 2],
    ]);
  });

  it('give concurrent distinct sign-ups dense, unique positions', async () => {
    const t = await tenant([]);
    const answers = await Promise.all(
      Array.from({ length: 150 }, (_, i) => publicPost(at(i), t.waitlistId, { email: `d${i}@example.com` })),
    );
    expect(answers.every((r) => r.status === 202)).toBe(true);
    const page = await line(t);
    expect(page.total).toBe(150);
    expect(page.items.map((s) => s.position)).toEqual(Array.from({ length: 150 }, (_, i) => i + 1));
  });

  it('accept a Challenge token once across all three', async () => {
    const t = await tenant(['--challenge', 'on', '--challenge-min-age-ms', '0']);
    const asked = await gate(await publicPost(at(0), t.waitlistId, { email: 'c0@example.com' }));
    if (asked.gate !== 'challenge') throw new Error('expected the challenge gate');
    const tries = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        publicPost(at(i), t.waitlistId, {
          email: `c${i}@example.com`,
          challenge_token: asked.challenge.token,
        }),
      ),
    );
    expect(tries.filter((r) => r.status === 202)).toHaveLength(1);
    expect(tries.filter((r) => r.status === 428)).toHaveLength(29);
    expect((await line(t)).total).toBe(1);
  });

  it('accept a Proof of Work solution once across all three', async () => {
    const t = await tenant(['--pow', 'on', '--pow-difficulty', '8']);
    const asked = await gate(await publicPost(at(1), t.waitlistId, { email: 'p0@example.com' }));
    if (asked.gate !== 'pow') throw new Error('expected the pow gate');
    const pow = {
      nonce: asked.pow.nonce,
      solution: solvePow(asked.pow.nonce, asked.pow.difficulty) as number,
    };
    const tries = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        publicPost(at(i), t.waitlistId, { email: `p${i}@example.com`, pow }),
      ),
    );
    expect(tries.filter((r) => r.status === 202)).toHaveLength(1);
    expect(tries.filter((r) => r.status === 428)).toHaveLength(29);
  });

  it('refuse a key revoked through the command line on the very next request to each', async () => {
    const t = await tenant([]);
    for (const server of servers) expect((await apiList(server, t.key, t.waitlistId)).status).toBe(200);
    const { items } = await cli<{ items: { id: string }[] }>(['key', 'list', '--tenant', t.tenantId], {
      db: dir.db,
    });
    await cli(['key', 'revoke', '--key', (items[0] as { id: string }).id, '--operator', t.operatorId], {
      db: dir.db,
    });
    for (const server of servers) expect((await apiList(server, t.key, t.waitlistId)).status).toBe(401);
  });

  it('answer a sign-up by settings changed through the command line, though each remembers the waitlist', async () => {
    const t = await tenant([]);
    let n = 0;
    const signUp = (server: RunningServer) =>
      publicPost(server, t.waitlistId, { email: `r${++n}@example.com` });
    // Each server has read the waitlist once and decides on what it remembers from then on.
    for (const server of servers) expect((await signUp(server)).status).toBe(202);
    await cli(['waitlist', 'update', '--waitlist', t.waitlistId, '--pow', 'on'], { db: dir.db });
    for (const server of servers) expect((await signUp(server)).status).toBe(428);
    await cli(['waitlist', 'update', '--waitlist', t.waitlistId, '--pow', 'off'], { db: dir.db });
    for (const server of servers) expect((await signUp(server)).status).toBe(202);
    await cli(['waitlist', 'archive', '--waitlist', t.waitlistId], { db: dir.db });
    for (const server of servers) expect((await signUp(server)).status).toBe(404);
  });

  it('send each webhook once: every delivery is attempted by one of them', async () => {
    const r = await receiver(() => 200);
    try {
      const t = await tenant([]);
      const hook = await cli<{ id: string }>(
        ['webhook', 'create', '--operator', t.operatorId, '--url', `${r.url}/hook`],
        { db: dir.db, env: ENV },
      );
      const answers = await Promise.all(
        Array.from({ length: 60 }, (_, i) => publicPost(at(i), t.waitlistId, { email: `w${i}@example.com` })),
      );
      expect(answers.every((a) => a.status === 202)).toBe(true);
      // Two workers taking one delivery would both send it and both record an attempt.
      const deliveries = await until(
        '60 deliveries delivered',
        async () => {
          const { items } = await cli<{ items: { state: string; attempts: unknown[] }[] }>(
            ['webhook', 'deliveries', '--webhook', hook.id],
            { db: dir.db },
          );
          return items.length === 60 && items.every((d) => d.state === 'delivered') && items;
        },
        60_000,
      );
      expect(deliveries.map((d) => d.attempts.length)).toEqual(Array(60).fill(1));
      const ids = r.received.map((got) => got.headers['webhook-id']);
      expect(ids).toHaveLength(60);
      expect(new Set(ids).size).toBe(60);
    } finally {
      await r.close();
    }
    // Sixty sign-ups, then as many deliveries by three workers polling in turn: slow on a busy machine.
  }, 90_000);

  it('show a secret created on one of them once, on another, to its creator only, never stored readable', async () => {
    const t = await tenant([]);
    const member = await addOperator({ cli: (args) => cli(args, { db: dir.db }) }, t.tenantId, 'admin');
    const creator = new Browser(at(0).url);
    await creator.signIn(`admin-${t.tenantId}@test.example`);
    const form = await creator.get('/dashboard/keys');
    const created = await creator.post('/dashboard/keys', {
      name: 'Behind a balancer',
      preset: 'full',
      _csrf: Browser.csrf(form.html),
    });
    const path = created.res.headers.get('location') as string;
    expect(path).toMatch(/^\/dashboard\/keys\/created\/[\w-]{16,}$/);
    // What the database holds while the secret waits: nothing a reader of the file could use.
    const held = JSON.stringify(await sql(dir.db, 'SELECT * FROM reveals'));
    expect(held).not.toContain(path.split('/').pop());

    // Another admin of the tenant, with the address, sees nothing; that look does not use it up.
    const other = new Browser(at(2).url);
    await other.signIn(member);
    expect((await other.get(path)).res.status).toBe(410);

    // The redirect lands on another process, as behind a load balancer.
    const onOther = new Browser(at(1).url);
    onOther.cookies = creator.cookies;
    const shown = await onOther.get(path);
    expect(shown.res.status).toBe(200);
    const key = shown.html.match(/wlk_live_\w+/)?.[0] as string;
    expect(key).toBeDefined();
    expect(held).not.toContain(key);
    expect((await apiList(at(2), key, t.waitlistId)).status).toBe(200);
    // Once only, whichever process is asked next.
    const third = new Browser(at(2).url);
    third.cookies = creator.cookies;
    expect((await third.get(path)).res.status).toBe(410);
    expect((await onOther.get(path)).res.status).toBe(410);
  });
});
