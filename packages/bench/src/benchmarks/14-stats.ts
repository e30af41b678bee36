/**
 * Item 14: the launch's stats (docs/insights.md#stats) for a year on a waitlist of 1M subscribers,
 * on SQLite and on PostgreSQL. The waitlist is seeded as a launch (lib/seed.ts `launch`): a year of
 * joins from a handful of channels and referrals, its day counts kept by the schema's triggers on
 * SQLite and made from the loaded rows on PostgreSQL (lib/seed-postgres.ts), with four views per
 * sign-up added to them (views have no rows). Then `GET …/stats?from=…&to=…` for the 366 days is
 * timed over HTTP on one keep-alive connection, one request at a time, round-robin with
 * `GET /healthz` and page 1 of the waitlist's list (the same key and API path: the baseline), on
 * the same server in the same rounds. Its answer is checked
 * against what was seeded first.
 */
import { ok as assert } from 'node:assert/strict';
import { join } from 'node:path';
import type { ListPage, Stats } from '@waitlistkit/protocol';
import { seedTenant } from '@waitlistkit/testkit';
import Database from 'better-sqlite3';
import type { Benchmark, Context } from '../lib/bench.js';
import { type HttpClient, httpClient } from '../lib/http.js';
import { type Cluster, startCluster, withClient } from '../lib/postgres.js';
import { HUGE_LIMIT, SUBSCRIBE_PATH } from '../lib/scenarios.js';
import { type SeedFacts, seedSubscribers } from '../lib/seed.js';
import { seedSubscribersPg } from '../lib/seed-postgres.js';
import { startBenchServer } from '../lib/servers.js';
import { fmtInt, fmtMs, fmtRatio, median, metCell, percentile } from '../lib/stats.js';
import type { Row } from '../lib/table.js';

const GOAL_MS = 20;
const DAYS = 366;
/** Views per sign-up given to every day and channel: a conversion of 25 %. */
const VIEWS_PER_SIGNUP = 4;
const ADD_VIEWS = `UPDATE daily_counts SET views = signups * ${VIEWS_PER_SIGNUP} WHERE waitlist_id = `;

type Key = 'healthz' | 'page1' | 'stats' | 'stats30';

/** A seeded store's server, and the size of its day counts. */
interface Seeded {
  url: string;
  waitlistId: string;
  key: string;
  facts: SeedFacts;
  countRows: number;
  stop(): Promise<void>;
}

/** Seeds the launch into a SQLite file, adds the views, starts a server on it. */
async function onSqlite(dir: string, size: number): Promise<Seeded> {
  const db = join(dir, 'stats.db');
  const tenant = await seedTenant(db, { waitlist: ['--referrals', 'on'] });
  const facts = seedSubscribers(db, tenant.waitlistId, size, { launch: true });
  const file = new Database(db);
  let countRows: number;
  try {
    file.prepare(`${ADD_VIEWS}?`).run(tenant.waitlistId);
    countRows = file
      .prepare('SELECT count(*) AS n FROM daily_counts WHERE waitlist_id = ?')
      .get<{ n: number }>(tenant.waitlistId)?.n as number;
  } finally {
    file.close();
  }
  const server = await startBenchServer({ db, env: { WAITLIST_KEY_RATE_LIMIT: HUGE_LIMIT } });
  return {
    url: server.url,
    waitlistId: tenant.waitlistId,
    key: tenant.key,
    facts,
    countRows,
    stop: server.stop,
  };
}

/** The same on a database of `cluster`. */
async function onPostgres(cluster: Cluster, size: number): Promise<Seeded> {
  const db = cluster.database();
  const tenant = await seedTenant(db, { waitlist: ['--referrals', 'on'] });
  const facts = await seedSubscribersPg(db, tenant.waitlistId, size, { launch: true });
  const countRows = await withClient(db, async (client) => {
    await client.query(`${ADD_VIEWS}$1`, [tenant.waitlistId]);
    await client.query('VACUUM ANALYZE daily_counts');
    const { rows } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM daily_counts WHERE waitlist_id = $1',
      [tenant.waitlistId],
    );
    return rows[0]?.n as number;
  });
  const server = await startBenchServer({ db, env: { WAITLIST_KEY_RATE_LIMIT: HUGE_LIMIT } });
  return {
    url: server.url,
    waitlistId: tenant.waitlistId,
    key: tenant.key,
    facts,
    countRows,
    stop: server.stop,
  };
}

/** The year's answer is the seeded launch: every day, every sign-up and view, each channel's count. */
function checkYear(store: string, stats: Stats, facts: SeedFacts): void {
  const label = `${store}: stats for the year`;
  assert(stats.days.length === DAYS, `${label}: ${stats.days.length} days, expected ${DAYS}`);
  assert(
    stats.days[0]?.date === facts.firstDay && stats.days.at(-1)?.date === facts.lastDay,
    `${label}: days ${stats.days[0]?.date}..${stats.days.at(-1)?.date}, asked ${facts.firstDay}..${facts.lastDay}`,
  );
  assert(stats.totals.signups === facts.n, `${label}: ${stats.totals.signups} sign-ups, seeded ${facts.n}`);
  assert(
    stats.totals.views === facts.n * VIEWS_PER_SIGNUP,
    `${label}: ${stats.totals.views} views, expected ${facts.n * VIEWS_PER_SIGNUP}`,
  );
  assert(
    stats.days.reduce((n, d) => n + d.referred, 0) === facts.referred,
    `${label}: referred sign-ups are not the ${facts.referred} seeded`,
  );
  const seeded = byCount(facts.channels);
  assert(
    stats.channels.length === seeded.length &&
      seeded.every(
        ([channel, n], i) => stats.channels[i]?.channel === channel && stats.channels[i]?.signups === n,
      ),
    `${label}: channels ${JSON.stringify(stats.channels)}, seeded ${JSON.stringify(seeded)}`,
  );
}

/** Channels as the stats list them: most sign-ups first (views are in proportion here), then by name. */
const byCount = (channels: Record<string, number>) =>
  Object.entries(channels).sort(([c, a], [d, b]) => b - a || (c < d ? -1 : 1));

/** `n` rounds of each GET once, after a warm-up of each. */
async function timeRounds(
  client: HttpClient,
  paths: Record<Key, { path: string; auth: boolean }>,
  key: string,
  n: number,
): Promise<Record<Key, number[]>> {
  const headers = { authorization: `Bearer ${key}` };
  const entries = Object.entries(paths) as [Key, { path: string; auth: boolean }][];
  const time = (path: string, auth: boolean, count: number, warmup: number) =>
    client.timeGets(path, auth ? headers : {}, count, { warmup });
  for (const [, m] of entries) await time(m.path, m.auth, 0, 20);
  const times = Object.fromEntries(entries.map(([k]) => [k, [] as number[]])) as Record<Key, number[]>;
  for (let i = 0; i < n; i++) {
    for (const [k, m] of entries) times[k].push(...(await time(m.path, m.auth, 1, 0)));
  }
  return times;
}

/** One store's rows: the answer checked, then the rounds. */
async function measure(ctx: Context, store: string, seeded: Seeded, n: number, size: number): Promise<Row[]> {
  const client = httpClient(seeded.url);
  try {
    const waitlist = `/v1/api/waitlists/${seeded.waitlistId}`;
    const { facts } = seeded;
    const year = `${waitlist}/stats?from=${facts.firstDay}&to=${facts.lastDay}`;
    const headers = { authorization: `Bearer ${seeded.key}` };
    checkYear(store, await client.getJson<Stats>(year, headers), facts);
    const page1 = await client.getJson<ListPage>(
      `${SUBSCRIBE_PATH(seeded.waitlistId, 'api')}?page=1`,
      headers,
    );
    assert(page1.total === size, `${store}: page 1 total ${page1.total}, seeded ${size}`);
    ctx.log(`${store}: timing ${n} rounds`);
    const times = await timeRounds(
      client,
      {
        healthz: { path: '/healthz', auth: false },
        page1: { path: `${SUBSCRIBE_PATH(seeded.waitlistId, 'api')}?page=1`, auth: true },
        stats: { path: year, auth: true },
        stats30: { path: `${waitlist}/stats?to=${facts.lastDay}`, auth: true },
      },
      seeded.key,
      n,
    );
    const base = median(times.page1);
    const row = (name: string, t: number[], goal = false): Row => ({
      name: `${store}, ${fmtInt(size)}: ${name}`,
      value: fmtMs(median(t)),
      p99: fmtMs(percentile(t, 99)),
      baseline: fmtMs(base),
      ratio: fmtRatio(median(t) / base),
      goal: goal ? `≤ ${GOAL_MS} ms` : '',
      met: goal ? metCell(median(t) <= GOAL_MS) : '',
    });
    return [
      row('GET /healthz', times.healthz),
      row('GET …/subscribers?page=1 (baseline)', times.page1),
      row('GET …/stats, 30 days (the default range)', times.stats30),
      row(`GET …/stats, ${DAYS} days`, times.stats, size === 1_000_000),
    ];
  } finally {
    client.close();
  }
}

export default {
  id: '14',
  title: 'Stats',
  async run(ctx) {
    const size = ctx.smoke ? 2_000 : 1_000_000;
    const n = ctx.smoke ? 10 : 200;
    const rows: Row[] = [];
    const notes: string[] = [];
    const seedNote = (store: string, seeded: Seeded, seconds: number) =>
      `${store}: seeded in ${seconds.toFixed(1)} s, ${fmtInt(seeded.countRows)} rows of day counts for the ` +
      `waitlist (${seeded.facts.firstDay} to ${seeded.facts.lastDay}); channels ${Object.entries(
        seeded.facts.channels,
      )
        .sort(([, a], [, b]) => b - a)
        .map(([c, k]) => `${c} ${fmtInt(k)}`)
        .join(', ')}.`;

    let t0 = performance.now();
    const sqlite = await onSqlite(ctx.tempDir('stats'), size);
    notes.push(seedNote('SQLite', sqlite, (performance.now() - t0) / 1000));
    ctx.log(`SQLite: seeded ${fmtInt(size)} subscribers of a year's launch`);
    try {
      rows.push(...(await measure(ctx, 'SQLite', sqlite, n, size)));
    } finally {
      await sqlite.stop();
    }

    const skippedPostgres = ctx.lacks('postgres', 'the PostgreSQL rows of item 14');
    if (!skippedPostgres) {
      ctx.log('starting a PostgreSQL cluster (durable: fsync on, synchronous_commit on)');
      const cluster = await startCluster();
      try {
        t0 = performance.now();
        const pg = await onPostgres(cluster, size);
        notes.push(seedNote('PostgreSQL', pg, (performance.now() - t0) / 1000));
        ctx.log(`PostgreSQL: seeded ${fmtInt(size)} subscribers of a year's launch`);
        try {
          rows.push(...(await measure(ctx, 'PostgreSQL', pg, n, size)));
        } finally {
          await pg.stop();
        }
      } finally {
        await cluster.stop();
      }
    }
    return {
      sections: [
        {
          title: `Item 14: stats for ${DAYS} days (GET …/stats, one request at a time)`,
          intro:
            `${n} timed requests of each GET (after 20 untimed), round-robin on one keep-alive connection, on a ` +
            'server of the store, one store after the other; p50 and p99. Baseline: page 1 of the same ' +
            "waitlist's list with the same key (the same API path, key check and rate-limit bucket; item 5 holds " +
            'it to 5 ms at 1M), in the same rounds. The stats read the day counts (a row per day and channel), not the ' +
            'subscribers: `days` groups them by day, `channels` by channel, in one read snapshot. Goal at 1M.',
          columns: [
            { key: 'name', header: 'store, waitlist size: request' },
            { key: 'value', header: 'p50' },
            { key: 'p99', header: 'p99' },
            { key: 'baseline', header: 'baseline: page 1 p50' },
            { key: 'ratio', header: 'ratio' },
            { key: 'goal', header: 'goal' },
            { key: 'met', header: 'met' },
          ],
          rows,
          notes: [
            'The waitlist is seeded as a launch of a year (lib/seed.ts `launch`): joins spread over the 366 UTC days ' +
              "up to an hour ago; the referees of the seeder's referrers (7 % of the subscribers, 1 to 5 each) are " +
              'credited (the `referral` channel), the rest come from seven sources by share (40 % none, so ' +
              '`direct`; a newsletter, Product Hunt, Hacker News and Google as referrers, Twitter and LinkedIn), each row keeping its source as a sign-up does. The day counts are ' +
              "kept by the SQLite schema's triggers as each row goes in; the PostgreSQL seeder loads with triggers " +
              'off and makes them from the loaded rows in the same transaction. Views have no rows: every day and ' +
              `channel is given ${VIEWS_PER_SIGNUP} views per sign-up.`,
            ...notes,
            'Checked before timing, on each store: the year answers 366 days from the first seeded day to the last, ' +
              'totals of sign-ups and views equal to the seeded, the referred sign-ups, and every channel with its ' +
              'seeded count, most sign-ups first.',
            ...(skippedPostgres ? [skippedPostgres] : []),
          ],
        },
      ],
    };
  },
} satisfies Benchmark;
