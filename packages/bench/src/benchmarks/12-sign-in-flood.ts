/**
 * Item 12: what a flood of dashboard sign-ins costs everyone else. Each password check is a
 * 128 MiB scrypt derivation on one of libuv's four pool threads, the threads every sqlite3 query
 * runs on; the server derives one at a time and turns away what does not fit its queue
 * (adapters/passwords.ts). Measured: the latency of `GET …/subscribers` (page 1) through the API,
 * one request at a time, while 60 sign-ins with wrong passwords arrive at once from 60 addresses,
 * beside the same requests to the same server with nothing else going on, in the same round.
 */
import { ok as assert } from 'node:assert/strict';
import { join } from 'node:path';
import { seedTenant } from '@waitlistkit/testkit';
import type { Benchmark } from '../lib/bench.js';
import { HUGE_LIMIT, SUBSCRIBE_PATH } from '../lib/scenarios.js';
import { seedSubscribers } from '../lib/seed.js';
import { startBenchServer } from '../lib/servers.js';
import { fmtMs, fmtRatio, median, medianRatio, metCell, percentile } from '../lib/stats.js';

/** A form post of the sign-in page, with its cookie and token, from `address`. */
async function signIn(base: string, address: string, email: string): Promise<number> {
  const headers = { 'x-forwarded-for': address };
  const page = await fetch(`${base}/dashboard/sign-in`, { headers });
  const cookie = page.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const csrf = (await page.text()).match(/name="_csrf" value="([^"]+)"/)?.[1];
  const res = await fetch(`${base}/dashboard/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      ...headers,
      cookie,
      origin: base,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ email, password: 'not the password', _csrf: csrf ?? '' }),
  });
  await res.arrayBuffer();
  return res.status;
}

export default {
  id: '12',
  title: 'API latency during a sign-in flood',
  async run(ctx) {
    const rounds = ctx.smoke ? 1 : 5;
    const baselineCalls = ctx.smoke ? 10 : 50;
    const dir = ctx.tempDir('sign-in-flood');
    const db = join(dir, 'flood.db');
    const tenant = await seedTenant(db);
    seedSubscribers(db, tenant.waitlistId, ctx.smoke ? 200 : 10_000);
    const server = await startBenchServer({
      db,
      args: ['--trust-proxy'],
      env: { WAITLIST_KEY_RATE_LIMIT: HUGE_LIMIT },
    });
    try {
      const url = `${server.url}${SUBSCRIBE_PATH(tenant.waitlistId, 'api')}`;
      const list = async () => {
        const t0 = performance.now();
        const res = await fetch(url, { headers: { authorization: `Bearer ${tenant.key}` } });
        assert(res.status === 200, `list: ${res.status}`);
        await res.arrayBuffer();
        return performance.now() - t0;
      };
      for (let i = 0; i < 5; i++) await list();
      const per = {
        quiet: [] as number[],
        flood: [] as number[],
        quiet99: [] as number[],
        flood99: [] as number[],
      };
      const statuses = new Map<number, number>();
      for (let r = 0; r < rounds; r++) {
        const quiet: number[] = [];
        for (let i = 0; i < baselineCalls; i++) quiet.push(await list());
        let settled = false;
        const flood = Promise.all(
          Array.from({ length: 60 }, (_, i) =>
            signIn(server.url, `198.51.${r}.${i + 1}`, `flood-${r}-${i}@bench.example`),
          ),
        ).finally(() => {
          settled = true;
        });
        const during: number[] = [];
        while (!settled) during.push(await list());
        for (const status of await flood) statuses.set(status, (statuses.get(status) ?? 0) + 1);
        assert(during.length >= 3, `only ${during.length} requests during the flood`);
        per.quiet.push(median(quiet));
        per.flood.push(median(during));
        per.quiet99.push(percentile(quiet, 99));
        per.flood99.push(percentile(during, 99));
      }
      assert(
        [...statuses.keys()].every((s) => s === 401 || s === 429),
        `sign-ins answered ${[...statuses.keys()].join(', ')}`,
      );
      const quiet = median(per.quiet);
      const flood = median(per.flood);
      const goal = quiet * 3 + 40;
      const met = flood <= goal;
      return {
        sections: [
          {
            title: 'Item 12: API latency during a flood of 60 sign-ins (page 1, one request at a time)',
            intro:
              `${rounds} round(s): ${baselineCalls} requests with nothing else going on, then as many as fit while ` +
              '60 sign-ins with wrong passwords arrive at once from 60 addresses. Median over rounds.',
            rows: [
              {
                name: 'median latency during the flood',
                value: fmtMs(flood),
                baseline: fmtMs(quiet),
                ratio: fmtRatio(medianRatio(per.flood, per.quiet)),
                goal: '≤ 3× baseline + 40 ms',
                met: metCell(met),
              },
              {
                name: 'p99 latency during the flood',
                value: fmtMs(median(per.flood99)),
                baseline: fmtMs(median(per.quiet99)),
                ratio: fmtRatio(median(per.flood99) / median(per.quiet99)),
              },
            ],
            notes: [
              `Sign-ins answered: ${[...statuses].map(([s, n]) => `${n} × ${s}`).join(', ')} (401: checked, 429: turned ` +
                'away at once because the queue was full).',
              'Without the bound, four derivations hold every pool thread and a query waits for one to finish ' +
                '(about a third of a second each).',
            ],
          },
        ],
      };
    } finally {
      await server.stop();
    }
  },
} satisfies Benchmark;
