/**
 * Item 7: what the Node client (@waitlistkit/client, built) adds over a bare `fetch` of the same
 * request: `subscribers.create` and `subscribers.list` against a real server, one call at a
 * time, client and fetch alternating call by call. Both go through Node's global fetch (undici,
 * keep-alive), so the difference is the client's own work: ky, argument and answer validation
 * with the protocol's schemas, the rate-limit headers, timers and abort signals.
 */
import { ok as assert } from 'node:assert/strict';
import { join } from 'node:path';
import { WaitlistClient } from '@waitlistkit/client';
import type { AcceptedSignup, ListPage } from '@waitlistkit/protocol';
import { seedTenant } from '@waitlistkit/testkit';
import type { Benchmark } from '../lib/bench.js';
import { HUGE_LIMIT, SUBSCRIBE_PATH } from '../lib/scenarios.js';
import { countSubscribers, seedSubscribers } from '../lib/seed.js';
import { startBenchServer } from '../lib/servers.js';
import { fmtMs, fmtRatio, median, medianRatio } from '../lib/stats.js';
import type { Row } from '../lib/table.js';

/** One call each way: the client's, and a bare fetch of the same request. */
type Variants = Record<'client' | 'fetch', (round: number, i: number) => Promise<void>>;

export default {
  id: '7',
  title: 'Client overhead',
  async run(ctx) {
    const rounds = ctx.smoke ? 1 : 5;
    const calls = ctx.smoke ? 5 : 60;
    const size = ctx.smoke ? 200 : 1_000;
    const dir = ctx.tempDir('client');
    const db = join(dir, 'client.db');
    const tenant = await seedTenant(db);
    seedSubscribers(db, tenant.waitlistId, size);
    const server = await startBenchServer({ db, env: { WAITLIST_KEY_RATE_LIMIT: HUGE_LIMIT } });
    try {
      const url = `${server.url}${SUBSCRIBE_PATH(tenant.waitlistId, 'api')}`;
      const auth = { authorization: `Bearer ${tenant.key}` };
      // No retries: an error must surface, not be retried into a slow success.
      const client = new WaitlistClient({ apiKey: tenant.key, baseUrl: server.url, maxRetries: 0 });
      let created = 0;
      const email = (who: string, r: number, i: number) => `${who}.${r}.${i}@client-bench.example`;
      const ops: Record<'create' | 'list', Variants> = {
        create: {
          client: async (r, i) => {
            const answer = await client.subscribers.create(tenant.waitlistId, {
              email: email('client', r, i),
            });
            assert(answer.status === 'accepted', 'client create accepted');
            created++;
          },
          fetch: async (r, i) => {
            const res = await fetch(url, {
              method: 'POST',
              headers: { ...auth, 'content-type': 'application/json' },
              body: JSON.stringify({ email: email('fetch', r, i) }),
            });
            const body = (await res.json()) as AcceptedSignup;
            assert(res.status === 202 && body.status === 'accepted', `fetch create: ${res.status}`);
            created++;
          },
        },
        list: {
          client: async () => {
            const page = await client.subscribers.list(tenant.waitlistId);
            assert(page.items.length === 25 && page.total >= size, 'client list page 1');
          },
          fetch: async () => {
            const res = await fetch(url, { headers: auth });
            const page = (await res.json()) as ListPage;
            assert(res.status === 200 && page.items.length === 25, `fetch list: ${res.status}`);
          },
        },
      };
      const before = countSubscribers(db, tenant.waitlistId);
      const rows: Row[] = [];
      for (const [op, variants] of Object.entries(ops)) {
        const perRound = { client: [] as number[], fetch: [] as number[] };
        for (let r = -1; r < rounds; r++) {
          const times = { client: [] as number[], fetch: [] as number[] };
          for (let i = 0; i < (r < 0 ? 3 : calls); i++) {
            for (const which of i % 2 === 0
              ? (['client', 'fetch'] as const)
              : (['fetch', 'client'] as const)) {
              const t0 = performance.now();
              await variants[which](r, i);
              times[which].push(performance.now() - t0);
            }
          }
          if (r < 0) continue; // warm-up round
          perRound.client.push(median(times.client));
          perRound.fetch.push(median(times.fetch));
        }
        const c = median(perRound.client);
        const f = median(perRound.fetch);
        rows.push({
          name: `subscribers.${op}${op === 'list' ? ' (page 1 of 25)' : ' (fresh email)'}`,
          value: fmtMs(c),
          baseline: fmtMs(f),
          ratio: fmtRatio(medianRatio(perRound.client, perRound.fetch)),
          extra: fmtMs(c - f),
        });
      }
      const gained = countSubscribers(db, tenant.waitlistId) - before;
      assert(gained === created, `${created} creates answered 202, the table gained ${gained} rows`);
      return {
        sections: [
          {
            title: 'Item 7: Node client overhead (per call, median)',
            intro:
              `${rounds} round(s) of ${calls} calls each way, client and raw fetch alternating; per-call median, ` +
              'median over rounds. Baseline: raw fetch of the same request to the same server.',
            columns: [
              { key: 'name', header: 'call' },
              { key: 'value', header: 'client' },
              { key: 'baseline', header: 'baseline: raw fetch' },
              { key: 'ratio', header: 'ratio' },
              { key: 'extra', header: 'client adds' },
            ],
            rows,
            notes: [
              'A create commits before it is answered (synchronous = FULL): one at a time, each pays its own fsync, ' +
                'which dominates both columns.',
              `Checked: every create was accepted and is a row (${created}).`,
            ],
          },
        ],
      };
    } finally {
      await server.stop();
    }
  },
} satisfies Benchmark;
