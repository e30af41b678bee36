/**
 * Item 8's stalled lookups (issue 22, item 3): sign-up latency from Node (node:http, 10
 * concurrent, fresh emails) on a server with 16 deliveries stuck in host lookups on a nameserver that never answers
 * (WAITLIST_DNS_SERVERS: testkit's blackhole), beside the same run's latency on a server set up the
 * same way with no deliveries. Both have eight endpoints whose names resolved at creation (testkit's
 * DNS server on loopback) and that only want a second waitlist; the stalled server gets four
 * sign-ups on that waitlist first: 8 × 4 deliveries, of which the tenant may hold 16 at once (its
 * fair share of the outbox's 32 slots while it alone has work, domain/fair-share.ts), each retried
 * at once when its lookup gives up, so 16 stay stalled while sign-ups on the first waitlist are
 * timed. Before measuring, the blackhole must have received the 16 lookups (A and AAAA each).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { blackhole, cli, startDnsServer } from '@waitlistkit/testkit';
import type { Context } from './bench.js';
import { HUGE_LIMIT, ORIGIN, type Scenario, SUBSCRIBE_PATH, startScenario } from './scenarios.js';
import type { BenchServer } from './servers.js';
import { fmtInt, fmtMs, fmtRatio, median, medianRatio, percentile } from './stats.js';
import type { Section } from './table.js';

/**
 * The stalled-lookup phase: endpoints, deliveries made for them (the outbox's 32 slots' worth), and
 * how many of those one tenant may attempt at once (half the slots while it alone has work).
 */
const STALLED_ENDPOINTS = 8;
const QUEUED_DELIVERIES = 32;
const STALLED_DELIVERIES = QUEUED_DELIVERIES / 2;
const STALL_CONNECTIONS = 10;

/** Item 8's sign-up driver (see its `drive`). */
export type Drive = (
  server: BenchServer,
  path: string,
  options: { prefix: string; seconds: number; concurrency?: number; max?: number },
) => Promise<{ latencies: number[]; rate: number }>;

/**
 * Sign-up latency with STALLED_DELIVERIES deliveries stuck in lookups on a nameserver that never
 * answers, beside a server set up the same way with none (see the header). `servers`: item 8's set
 * of running servers (stopped by it on failure); `drive`: its sign-up driver. Resolves to the section.
 */
export async function stalledLookups(
  ctx: Context,
  {
    dir,
    servers,
    drive,
    reps,
    seconds,
  }: { dir: string; servers: Set<Scenario>; drive: Drive; reps: number; seconds: number },
): Promise<Section> {
  // Names resolve at creation (to loopback: nothing is ever sent there), then never again.
  const dns = await startDnsServer(({ name, type }) =>
    name.endsWith('.test') ? (type === 'A' ? { a: ['127.0.0.1'] } : {}) : undefined,
  );
  const hole = await blackhole();
  const env = {
    WAITLIST_WEBHOOK_ALLOW_PRIVATE: '1',
    WAITLIST_WEBHOOK_RETRY_SCHEDULE: Array(50).fill('0').join(','),
    WAITLIST_DNS_SERVERS: hole.address,
  };
  type Run = { p50: number; p99: number; rate: number };
  const runs: Record<'none' | 'stalled', Run[]> = { none: [], stalled: [] };
  try {
    for (let round = 0; round < reps; round++) {
      const order = round % 2 === 0 ? (['none', 'stalled'] as const) : (['stalled', 'none'] as const);
      ctx.log(`stalled lookups, round ${round + 1}/${reps}: ${order.join(', ')} (${seconds} s each)`);
      for (const kind of order) {
        let hooked = '';
        const t = await startScenario('4a', {
          dir,
          tag: `-dns-${kind}-r${round}`,
          env,
          async beforeStart({ db, tenant }) {
            const list = await cli<{ waitlist_id: string }>(
              [
                'waitlist',
                'create',
                '--tenant',
                tenant.tenantId,
                '--name',
                'Hooked',
                '--origins',
                ORIGIN,
                '--ip-limit',
                HUGE_LIMIT,
              ],
              { db },
            );
            hooked = list.waitlist_id;
            for (let i = 0; i < STALLED_ENDPOINTS; i++) {
              await cli(
                [
                  'webhook',
                  'create',
                  '--operator',
                  tenant.operatorId,
                  '--waitlist',
                  hooked,
                  '--url',
                  `http://stalled-${i}.test:9/hook`,
                ],
                { db, env: { WAITLIST_WEBHOOK_ALLOW_PRIVATE: '1', WAITLIST_DNS_SERVERS: dns.address } },
              );
            }
          },
        });
        servers.add(t);
        try {
          if (kind === 'stalled') {
            const before = hole.queries.length;
            await drive(t.server, SUBSCRIBE_PATH(hooked, 'public'), {
              prefix: `stall-r${round}`,
              seconds: 60,
              max: QUEUED_DELIVERIES / STALLED_ENDPOINTS,
            });
            // Two questions (A, AAAA) per lookup; retries after the first timeouts count as well.
            for (
              let waited = 0;
              waited < 30_000 && hole.queries.length - before < 2 * STALLED_DELIVERIES;
              waited += 50
            )
              await sleep(50);
            const stalled = Math.min(STALLED_DELIVERIES, Math.floor((hole.queries.length - before) / 2));
            if (stalled !== STALLED_DELIVERIES)
              throw new Error(`8 dns r${round}: only ${stalled} lookups reached the nameserver`);
          }
          const load = await drive(t.server, SUBSCRIBE_PATH(t.tenant.waitlistId, 'public'), {
            prefix: `dns-${kind}-r${round}`,
            concurrency: STALL_CONNECTIONS,
            seconds,
          });
          runs[kind].push({
            p50: percentile(load.latencies, 50),
            p99: percentile(load.latencies, 99),
            rate: load.rate,
          });
        } finally {
          servers.delete(t);
          await t.stop();
        }
      }
    }
  } finally {
    await hole.close();
    await dns.close();
  }
  const med = (kind: keyof typeof runs, key: keyof Run) => median(runs[kind].map((r) => r[key]));
  const ratio = (key: keyof Run) =>
    medianRatio(
      runs.stalled.map((r) => r[key]),
      runs.none.map((r) => r[key]),
    );
  const row = (kind: keyof typeof runs, name: string) => ({
    name,
    value: fmtMs(med(kind, 'p50')),
    p99: fmtMs(med(kind, 'p99')),
    rate: `${fmtInt(med(kind, 'rate'))}/s`,
    baseline: kind === 'none' ? '' : `${fmtMs(med('none', 'p50'))} / ${fmtMs(med('none', 'p99'))}`,
    ratio: kind === 'none' ? '' : `${fmtRatio(ratio('p50'))} / ${fmtRatio(ratio('p99'))}`,
  });
  return {
    title: 'Item 8: sign-up latency while deliveries stall on a nameserver that never answers',
    intro:
      `${reps} round(s), each a fresh server of each kind (alternating which goes first), ${seconds} s of public ` +
      `sign-ups each from Node (node:http, ${STALL_CONNECTIONS} concurrent, fresh emails); median of the rounds' ` +
      `p50 and p99. Both servers have ${STALLED_ENDPOINTS} endpoints for a second waitlist and resolve names ` +
      `through a nameserver that never answers; the stalled one has ${STALLED_DELIVERIES} deliveries (its ` +
      "tenant's fair share of the outbox's 32 slots, more queued behind them) waiting on their lookups, " +
      'retried as each gives up, throughout.',
    columns: [
      { key: 'name', header: 'server' },
      { key: 'value', header: 'p50' },
      { key: 'p99', header: 'p99' },
      { key: 'rate', header: 'sign-ups' },
      { key: 'baseline', header: 'baseline: no deliveries, p50 / p99' },
      { key: 'ratio', header: 'ratio p50 / p99' },
    ],
    rows: [
      row('none', 'no deliveries (baseline)'),
      row('stalled', `${STALLED_DELIVERIES} deliveries stalled in host lookups`),
    ],
    notes: [
      'Lookups go through c-ares (dns.promises.Resolver: 2 s timeout, one try), which waits on the event ' +
        "loop; libuv's four pool threads, which sqlite3 statements and scrypt need, stay free. With " +
        `dns.lookup (getaddrinfo on the pool) any four of the same ${STALLED_DELIVERIES} lookups would hold every pool thread.`,
      `Checked in every stalled run: the nameserver received the ${STALLED_DELIVERIES} lookups before the ` +
        'timed sign-ups began, and every sign-up was answered 202.',
    ],
  };
}
