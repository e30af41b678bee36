/**
 * Item 5: latency of the list endpoint at 10k, 100k and 1M subscribers in one waitlist, over
 * HTTP against a real server on a seeded file (lib/seed.mjs). One keep-alive connection,
 * requests one at a time, round-robin over the measurements so the machine's noise hits them
 * alike; the baseline is GET /healthz on the same server in the same rounds (the floor of an
 * HTTP round trip). Every answer is checked against what was seeded.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { httpClient } from '../lib/http.mjs';
import { cli, seedTenant, startServer } from '../lib/proc.mjs';
import { HUGE_LIMIT, SUBSCRIBE_PATH } from '../lib/scenarios.mjs';
import { positionsBySorting, SEARCH_Q, seedSubscribers } from '../lib/seed.mjs';
import { fmtInt, fmtMs, fmtRatio, median, metCell, percentile } from '../lib/stats.mjs';

const LIMIT = 25;
const BOOST = 5;

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

function checkPage(label, page, { total, first, last }) {
  assert(page.total === total, `${label}: total ${page.total}, expected ${total}`);
  const positions = page.items.map((i) => i.position);
  assert(
    positions.every((p, i) => i === 0 || p > positions[i - 1]),
    `${label}: positions not increasing: ${positions.join(',')}`,
  );
  if (first !== undefined)
    assert(positions[0] === first, `${label}: first position ${positions[0]}, expected ${first}`);
  if (last !== undefined)
    assert(positions.at(-1) === last, `${label}: last position ${positions.at(-1)}, expected ${last}`);
}

/** Round-robin timing of several GETs: `n` rounds, each request of each measurement once. */
async function roundRobin(client, measurements, headers, n) {
  for (const m of measurements) await client.timeGets(m.path, m.auth ? headers : {}, 0, { warmup: 3 });
  const times = Object.fromEntries(measurements.map((m) => [m.key, []]));
  for (let i = 0; i < n; i++) {
    for (const m of measurements) {
      const [ms] = await client.timeGets(m.path, m.auth ? headers : {}, 1, { warmup: 0 });
      times[m.key].push(ms);
    }
  }
  return times;
}

export default {
  id: '5',
  title: 'List latency',
  async run(ctx) {
    const sizes = ctx.smoke ? [2_000] : [10_000, 100_000, 1_000_000];
    const n = ctx.smoke ? 10 : 50;
    const goalSize = 1_000_000;
    const rows = [];
    const notes = [];
    for (const size of sizes) {
      const dir = ctx.tempDir(`list-${size}`);
      const db = join(dir, 'list.db');
      const tenant = await seedTenant(db, ['--referrals', 'on']);
      const t0 = performance.now();
      const seeded = seedSubscribers(db, tenant.waitlistId, size);
      ctx.log(`seeded ${fmtInt(size)} subscribers in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      notes.push(
        `${fmtInt(size)}: seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s ` +
          `(${fmtInt(statSync(db).size / 2 ** 20)} MiB); ${fmtInt(seeded.referrers)} referrers ` +
          `(${((seeded.referrers / size) * 100).toFixed(1)} %), q="${SEARCH_Q}" matches ${fmtInt(seeded.searchMatches)}.`,
      );
      const server = await startServer({ db, env: { WAITLIST_KEY_RATE_LIMIT: HUGE_LIMIT } });
      const client = httpClient(server.url);
      const headers = { authorization: `Bearer ${tenant.key}` };
      const path = SUBSCRIBE_PATH(tenant.waitlistId, 'api');
      const lastPage = Math.ceil(size / LIMIT);
      const lastCount = size - (lastPage - 1) * LIMIT;
      const q = `?q=${encodeURIComponent(SEARCH_Q)}`;
      try {
        // Answers first: what the timed requests return is what was seeded.
        const plain1 = await client.getJson(`${path}?page=1`, headers);
        checkPage('page 1', plain1, { total: size, first: 1, last: LIMIT });
        checkPage('last page', await client.getJson(`${path}?page=${lastPage}`, headers), {
          total: size,
          first: size - lastCount + 1,
          last: size,
        });
        checkPage('q', await client.getJson(`${path}${q}`, headers), { total: seeded.searchMatches });
        const plain = await roundRobin(
          client,
          [
            { key: 'healthz', path: '/healthz' },
            { key: 'page1', path: `${path}?page=1`, auth: true },
            { key: 'deep', path: `${path}?page=${lastPage}`, auth: true },
            { key: 'q', path: `${path}${q}`, auth: true },
          ],
          headers,
          n,
        );
        // The boost, set with the command line while the server runs: it re-ranks the referrers.
        await cli(
          ['waitlist', 'update', '--waitlist', tenant.waitlistId, '--referral-boost', String(BOOST)],
          db,
        );
        const boosted1 = await client.getJson(`${path}?page=1`, headers);
        checkPage('page 1, boost', boosted1, { total: size, first: 1, last: LIMIT });
        assert(
          boosted1.items.some((item, i) => item.referral_count > 0 && item.id !== plain1.items[i].id),
          'page 1 with a boost moves referrers up',
        );
        checkPage('last page, boost', await client.getJson(`${path}?page=${lastPage}`, headers), {
          total: size,
          last: size,
        });
        const boostedQ = await client.getJson(`${path}${q}`, headers);
        checkPage('q, boost', boostedQ, { total: seeded.searchMatches });
        if (size <= 100_000) {
          // The positions a search computes from prefix counts equal those of a full sort.
          const items = [...boosted1.items, ...boostedQ.items];
          const expected = positionsBySorting(
            db,
            tenant.waitlistId,
            items.map((i) => i.id),
          );
          for (const item of items) {
            assert(
              expected.get(item.id) === item.position,
              `position of ${item.id}: server ${item.position}, full sort ${expected.get(item.id)}`,
            );
          }
        }
        const boosted = await roundRobin(
          client,
          [
            { key: 'healthz', path: '/healthz' },
            { key: 'page1', path: `${path}?page=1`, auth: true },
            { key: 'q', path: `${path}${q}`, auth: true },
            { key: 'deep', path: `${path}?page=${lastPage}`, auth: true },
          ],
          headers,
          n,
        );
        const floor = median(plain.healthz);
        const floorBoosted = median(boosted.healthz);
        const row = (name, times, base, goal, met) => ({
          name: `${fmtInt(size)}: ${name}`,
          value: fmtMs(median(times)),
          p99: fmtMs(percentile(times, 99)),
          baseline: fmtMs(base),
          ratio: fmtRatio(median(times) / base),
          goal: size === goalSize ? goal : '',
          met: size === goalSize && goal ? metCell(met) : '',
        });
        const qPlain = median(plain.q);
        rows.push(
          row('/healthz (baseline)', plain.healthz, floor, '', false),
          row('page 1', plain.page1, floor, '≤ 5 ms', median(plain.page1) <= 5),
          row(`last page (page ${fmtInt(lastPage)})`, plain.deep, floor, '', false),
          row(`q="${SEARCH_Q}"`, plain.q, floor, '≤ 150 ms', qPlain <= 150),
          row(`page 1, boost ${BOOST}`, boosted.page1, floorBoosted, '≤ 20 ms', median(boosted.page1) <= 20),
          row(
            `q, boost ${BOOST}`,
            boosted.q,
            floorBoosted,
            '≤ q + 20 ms',
            median(boosted.q) <= Math.max(qPlain, 0) + 20 && median(boosted.q) <= 150 + 20,
          ),
          row(`last page, boost ${BOOST} (OFFSET)`, boosted.deep, floorBoosted, '', false),
        );
      } finally {
        client.close();
        await server.stop();
      }
    }
    return {
      sections: [
        {
          title: 'Item 5: list latency (GET /v1/api/…/subscribers, one connection, one request at a time)',
          intro:
            `${n} timed requests per measurement (after 3 untimed), round-robin with /healthz on the same server ` +
            'as the baseline; value = median (p50), and p99. The ratio is p50 ÷ the /healthz p50 of the same rounds. ' +
            'Goals apply at 1M subscribers, on the p50.',
          columns: [
            { key: 'name', header: 'waitlist size: request' },
            { key: 'value', header: 'p50' },
            { key: 'p99', header: 'p99' },
            { key: 'baseline', header: 'baseline: /healthz p50' },
            { key: 'ratio', header: 'ratio' },
            { key: 'goal', header: 'goal (1M)' },
            { key: 'met', header: 'met' },
          ],
          rows,
          notes: [
            ...notes,
            `Boost ${BOOST} set with \`waitlist update --referral-boost ${BOOST}\` while the server ran. "q, boost" must ` +
              'stay within 20 ms of the unboosted q (the positions of search hits with a boost come from prefix counts ' +
              'over the referrers).',
            'Checked: totals, first and last positions of page 1 and the last page, the q total equals the seeded ' +
              'matches, positions increase within a page, the boost moves referrers up on page 1, and (up to 100k) the boosted positions of page 1 and of the q hits equal those of a full sort in SQL.',
          ],
        },
      ],
    };
  },
};
