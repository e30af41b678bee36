/**
 * Address variants (docs/subscribers.md#address-variants) over HTTP on whichever store the run
 * uses, with two server processes on one database: a variant is a re-sign-up on both endpoints,
 * earns no credit, and 90 variants sent at once make one row.
 */
import { ListPageSchema } from '@waitlistkit/protocol';
import { cli, type RunningServer, seedTenant, startServer, type Tenant, tempDir } from '@waitlistkit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCreate, apiList, ORIGIN, publicPost, SECRET } from './helpers.js';

// One public address, as behind a load balancer: the answers name it.
const ENV = {
  APP_URL: 'https://waitlist.example',
  WAITLIST_SECRET: SECRET,
  WAITLIST_KEY_RATE_LIMIT: '100000',
};
const dir = tempDir();
let servers: RunningServer[];
beforeAll(async () => {
  servers = await Promise.all([0, 1].map(() => startServer({ db: dir.db, env: ENV })));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  dir.cleanup();
});

const at = (i: number) => servers[i % servers.length] as RunningServer;

const tenant = (dedupe: string, extra: string[] = []) =>
  seedTenant(dir.db, {
    waitlist: [
      '--origins',
      ORIGIN,
      '--ip-limit',
      '100000',
      '--dedupe',
      dedupe,
      '--referrals',
      'on',
      ...extra,
    ],
  });

async function line(t: Tenant, query = '') {
  const res = await apiList(at(0), t.key, t.waitlistId, `?limit=200${query}`);
  return ListPageSchema.parse(await res.json());
}

describe('dedupe=provider', () => {
  it('takes a Gmail variant as a re-sign-up of the stored address on both endpoints, with the identical 202', async () => {
    const t = await tenant('provider');
    const first = await publicPost(at(0), t.waitlistId, { email: 'john@gmail.com' });
    const body = await first.text();
    for (const [i, email] of [
      'J.O.H.N+x@gmail.com',
      'jo.hn@googlemail.com',
      'john+news@gmail.com',
    ].entries()) {
      const viaPublic = await publicPost(at(i), t.waitlistId, { email });
      expect(await viaPublic.text()).toBe(body);
      const viaApi = await apiCreate(at(i + 1), t.key, t.waitlistId, { email });
      expect(viaApi.status).toBe(202);
      expect(await viaApi.text()).toBe(body);
    }
    await publicPost(at(0), t.waitlistId, { email: 'Ada+list@Outlook.com' });
    expect(await (await publicPost(at(1), t.waitlistId, { email: 'ada@outlook.com' })).status).toBe(202);
    // Dots are part of the name at Outlook, and every other domain keeps its + and dots.
    await publicPost(at(0), t.waitlistId, { email: 'a.da@outlook.com' });
    await publicPost(at(0), t.waitlistId, { email: 'john+x@example.com' });
    await publicPost(at(0), t.waitlistId, { email: 'john@example.com' });
    const page = await line(t);
    expect(page.items.map((s) => s.email)).toEqual([
      'john@gmail.com',
      'Ada+list@Outlook.com',
      'a.da@outlook.com',
      'john+x@example.com',
      'john@example.com',
    ]);
    // The stored address is the one first submitted, and q finds it as before.
    expect((await line(t, '&q=ada%2Blist')).items.map((s) => s.email)).toEqual(['Ada+list@Outlook.com']);
  });

  it('gives no referral credit to a variant, whoever refers it', async () => {
    const t = await tenant('provider');
    const referrer = (await (await publicPost(at(0), t.waitlistId, { email: 'ref@example.com' })).json()) as {
      referral_code: string;
    };
    await publicPost(at(0), t.waitlistId, { email: 'mary@gmail.com' });
    const variant = await publicPost(at(1), t.waitlistId, {
      email: 'm.a.r.y+promo@gmail.com',
      referral_code: referrer.referral_code,
    });
    expect(variant.status).toBe(202);
    expect((await line(t)).items.map((s) => [s.email, s.referral_count])).toEqual([
      ['ref@example.com', 0],
      ['mary@gmail.com', 0],
    ]);
  });

  it('makes one row of 90 variants of one address sent at once across two servers', async () => {
    const t = await tenant('provider');
    const variants = Array.from({ length: 90 }, (_, i) => {
      const name = i % 2 === 0 ? 'ja.ne' : 'j.a.n.e';
      const domain = i % 3 === 0 ? 'googlemail.com' : 'gmail.com';
      return `${name}+${i}@${domain}`;
    });
    const answers = await Promise.all(
      variants.map((email, i) =>
        i % 4 === 0
          ? apiCreate(at(i), t.key, t.waitlistId, { email })
          : publicPost(at(i), t.waitlistId, { email }),
      ),
    );
    expect(new Set(answers.map((r) => r.status))).toEqual(new Set([202]));
    expect(new Set(await Promise.all(answers.map((r) => r.text()))).size).toBe(1);
    const page = await line(t);
    expect(page.total).toBe(1);
    expect(variants).toContain(page.items[0]?.email);
  });

  it('leaves dedupe=exact as part one: variants are separate people', async () => {
    const t = await tenant('exact');
    await publicPost(at(0), t.waitlistId, { email: 'john@gmail.com' });
    await publicPost(at(1), t.waitlistId, { email: 'j.ohn+x@gmail.com' });
    expect((await line(t)).total).toBe(2);
  });
});

describe('switching dedupe on a waitlist with rows', () => {
  it('keeps two stored variants as they are; each exact address matches its own row, any other variant the first', async () => {
    const t = await tenant('exact');
    const first = await (await publicPost(at(0), t.waitlistId, { email: 'sam@gmail.com' })).text();
    const second = await (await publicPost(at(1), t.waitlistId, { email: 's.a.m@gmail.com' })).text();
    expect(second).not.toBe(first);
    const switched = await cli<{ dedupe: string }>(
      ['waitlist', 'update', '--waitlist', t.waitlistId, '--dedupe', 'provider'],
      { db: dir.db },
    );
    expect(switched.dedupe).toBe('provider');
    expect(await (await publicPost(at(0), t.waitlistId, { email: 'sam@gmail.com' })).text()).toBe(first);
    expect(await (await publicPost(at(1), t.waitlistId, { email: 's.a.m@gmail.com' })).text()).toBe(second);
    expect(await (await publicPost(at(0), t.waitlistId, { email: 'sa.m+new@googlemail.com' })).text()).toBe(
      first,
    );
    expect((await line(t)).items.map((s) => s.email)).toEqual(['sam@gmail.com', 's.a.m@gmail.com']);
    // And back: variants are people of their own again; nothing stored changes.
    await cli(['waitlist', 'update', '--waitlist', t.waitlistId, '--dedupe', 'exact'], { db: dir.db });
    await publicPost(at(1), t.waitlistId, { email: 'sa.m+new@googlemail.com' });
    expect((await line(t)).total).toBe(3);
    // On again: the first of each key holds it, though three rows are one person now.
    await cli(['waitlist', 'update', '--waitlist', t.waitlistId, '--dedupe', 'provider'], { db: dir.db });
    expect(await (await publicPost(at(0), t.waitlistId, { email: 'sam+again@gmail.com' })).text()).toBe(
      first,
    );
    expect((await line(t)).total).toBe(3);
  });
});
