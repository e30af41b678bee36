import { ListPageSchema, type Subscriber } from '@waitlistkit/protocol';
import { seedTenant, startServer, tempDir } from '@waitlistkit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiList, type Harness, harness, ORIGIN, publicPost, SECRET } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness({ WAITLIST_KEY_RATE_LIMIT: '100000' });
});
afterAll(() => h.close());

async function everyone(
  url: string,
  key: string,
  waitlistId: string,
): Promise<{ items: Subscriber[]; total: number }> {
  const items: Subscriber[] = [];
  let total = 0;
  for (let page = 1; ; page++) {
    const res = await fetch(`${url}/v1/api/waitlists/${waitlistId}/subscribers?limit=200&page=${page}`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    const body = ListPageSchema.parse(await res.json());
    total = body.total;
    items.push(...body.items);
    if (body.items.length === 0) return { items, total };
  }
}

describe('concurrency', () => {
  it('200 simultaneous identical signups make one row, one credit and identical answers', async () => {
    const t = await h.tenant({ waitlist: ['--origins', ORIGIN, '--referrals', 'on', '--ip-limit', '1000'] });
    const referrer = (await (
      await publicPost(h.server, t.waitlistId, { email: 'referrer@example.com' })
    ).json()) as {
      referral_code: string;
    };
    const answers = await Promise.all(
      Array.from({ length: 200 }, () =>
        publicPost(h.server, t.waitlistId, {
          email: 'Same@Example.com',
          referral_code: referrer.referral_code,
        }),
      ),
    );
    expect(new Set(answers.map((r) => r.status))).toEqual(new Set([202]));
    const bodies = await Promise.all(answers.map((r) => r.text()));
    expect(new Set(bodies).size).toBe(1);
    const { items, total } = await everyone(h.server.url, t.key, t.waitlistId);
    expect(total).toBe(2);
    expect(items.map((s) => [s.email, s.referral_count])).toEqual([
      ['referrer@example.com', 1],
      ['Same@Example.com', 0],
    ]);
  });

  it('concurrent distinct signups get dense, unique positions', async () => {
    const t = await h.tenant({ waitlist: ['--origins', ORIGIN, '--ip-limit', '1000'] });
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        publicPost(h.server, t.waitlistId, { email: `c${i}@example.com` }),
      ),
    );
    expect(answers.every((r) => r.status === 202)).toBe(true);
    const { items, total } = await everyone(h.server.url, t.key, t.waitlistId);
    expect(total).toBe(300);
    expect(items.map((s) => s.position)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    expect(new Set(items.map((s) => s.email)).size).toBe(300);
  });
});

describe('durability', () => {
  it('keeps every answered 202 when the server is killed during a burst', async () => {
    const dir = tempDir();
    try {
      const t = await seedTenant(dir.db, { waitlist: ['--origins', ORIGIN, '--ip-limit', '1000000'] });
      const env = { WAITLIST_SECRET: SECRET, WAITLIST_LOG: 'quiet' };
      const server = await startServer({ db: dir.db, env });
      const accepted: string[] = [];
      let sent = 0;
      let stop = false;
      const worker = async (w: number) => {
        for (let i = 0; !stop; i++) {
          const email = `burst-${w}-${i}@example.com`;
          sent++;
          try {
            const res = await publicPost(server, t.waitlistId, { email });
            if (res.status === 202) accepted.push(email);
          } catch {
            return; // the connection died with the server: this signup was never answered
          }
        }
      };
      const workers = Array.from({ length: 40 }, (_, w) => worker(w));
      // Kill once a good number of signups have been answered, mid-burst.
      while (accepted.length < 400) await new Promise((resolve) => setTimeout(resolve, 1));
      const killed = await server.stop('SIGKILL');
      stop = true;
      await Promise.all(workers);
      expect(killed.signal).toBe('SIGKILL');
      expect(sent).toBeGreaterThan(accepted.length);

      const restarted = await startServer({ db: dir.db, env });
      try {
        const { items, total } = await everyone(restarted.url, t.key, t.waitlistId);
        const stored = new Set(items.map((s) => s.email));
        const missing = accepted.filter((email) => !stored.has(email));
        expect(missing).toEqual([]);
        expect(total).toBe(items.length);
        expect(items.map((s) => s.position)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
        const list = await apiList(restarted, t.key, t.waitlistId, '?q=burst-0-0@');
        expect((await list.json()).total).toBe(1);
      } finally {
        await restarted.stop();
      }
    } finally {
      dir.cleanup();
    }
  });
});
