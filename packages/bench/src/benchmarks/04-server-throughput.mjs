/**
 * Item 4: server throughput under wrk (50 connections, one wrk thread, its own process), against
 * an Express 5 hello-world and a plain node:http hello-world measured in the same rounds. Each
 * round runs every scenario once (interleaved, so drift of the shared machine hits all alike);
 * figures are medians over the rounds, ratios the median of the per-round ratios. Every run is
 * checked: no socket errors, every answer the expected status, and for sign-ups the rows the
 * database gained equal the 202s wrk saw (plus at most the requests in flight when it stopped).
 */
import { cpuSeconds } from '../lib/cpu.mjs';
import { startHello } from '../lib/proc.mjs';
import { startScenario, THROUGHPUT_SCENARIOS } from '../lib/scenarios.mjs';
import { fmtInt, fmtMs, fmtRatio, fmtUs, median, metCell } from '../lib/stats.mjs';
import { checkWrkRun as check, runWrk, wrkScript } from '../lib/wrk.mjs';

const CONNECTIONS = 50;
const GOAL_RATIO = 0.6;

export default {
  id: '4',
  title: 'Server throughput',
  needs: ['wrk'],
  async run(ctx) {
    const reps = ctx.smoke ? 1 : 5;
    const seconds = ctx.smoke ? 1 : 5;
    const warmup = ctx.smoke ? 0 : 2;
    const listSize = ctx.smoke ? 1_000 : 10_000;
    const dir = ctx.tempDir('throughput');
    const getScript = wrkScript(dir, 'get');

    const targets = {};
    try {
      for (const kind of ['node', 'express']) {
        const server = await startHello(kind);
        targets[kind] = {
          url: `${server.url}/`,
          pid: server.pid,
          scriptPath: getScript,
          args: () => [200],
          expected: 200,
          stop: () => server.stop(),
        };
      }
      ctx.log('setting up the four server scenarios');
      for (const id of ['4a', '4b', '4c', '4d']) targets[id] = await startScenario(id, { dir, listSize });

      // The list scenario answers what was seeded.
      const d = targets['4d'];
      const page = await (
        await fetch(d.url, { headers: { authorization: `Bearer ${d.tenant.key}` } })
      ).json();
      if (page.items?.length !== 25 || page.total !== listSize || page.items[0].position !== 1) {
        throw new Error(`4d: page 1 is not the seeded waitlist: ${JSON.stringify(page).slice(0, 300)}`);
      }

      const ids = THROUGHPUT_SCENARIOS.map((s) => s.id);
      if (warmup > 0) {
        ctx.log(`warming up (${warmup} s each)`);
        for (const id of ids) {
          const t = targets[id];
          check(
            id,
            await runWrk({ ...t, args: t.args(`w${id}`), connections: CONNECTIONS, seconds: warmup }),
            t.expected,
          );
        }
      }
      const runs = Object.fromEntries(ids.map((id) => [id, []]));
      for (let round = 0; round < reps; round++) {
        ctx.log(`round ${round + 1}/${reps} (${seconds} s per scenario)`);
        for (const id of ids) {
          const t = targets[id];
          const rowsBefore = t.countsRows ? t.rows() : 0;
          const cpuBefore = cpuSeconds(t.pid);
          const run = await runWrk({
            url: t.url,
            scriptPath: t.scriptPath,
            args: t.args(`r${round}${id}`),
            connections: CONNECTIONS,
            seconds,
          });
          run.cpuPerRequestUs = ((cpuSeconds(t.pid) - cpuBefore) / run.requests) * 1e6;
          check(id, run, t.expected);
          if (t.countsRows) {
            // Let requests still in flight when wrk stopped commit, then compare.
            await new Promise((resolve) => setTimeout(resolve, 200));
            const gained = t.rows() - rowsBefore;
            if (gained < run.ok || gained > run.ok + CONNECTIONS) {
              throw new Error(`${id}: wrk saw ${run.ok} answers 202 but the database gained ${gained} rows`);
            }
            run.rowsGained = gained;
          }
          runs[id].push(run);
        }
      }

      const rps = (id) => median(runs[id].map((r) => r.rps));
      const ratioTo = (id, base) => median(runs[id].map((r, i) => r.rps / runs[base][i].rps));
      const rows = THROUGHPUT_SCENARIOS.map((s) => {
        const ratio = ratioTo(s.id, 'express');
        const goal = s.id === '4a' ? `≥ ${GOAL_RATIO}×` : '';
        return {
          name: s.baseline ? `${s.name} (baseline)` : s.name,
          value: `${fmtInt(rps(s.id))} req/s`,
          p50: fmtMs(median(runs[s.id].map((r) => r.p50))),
          p99: fmtMs(median(runs[s.id].map((r) => r.p99))),
          cpu: fmtUs(median(runs[s.id].map((r) => r.cpuPerRequestUs))),
          baseline: `${fmtInt(rps('express'))} req/s`,
          ratio: fmtRatio(ratio),
          vsNode: fmtRatio(ratioTo(s.id, 'node')),
          goal,
          met: goal ? metCell(ratio >= GOAL_RATIO) : '',
          ratioValue: ratio,
        };
      });
      const total202 = ['4a', '4b', '4c'].reduce((n, id) => n + runs[id].reduce((m, r) => m + r.ok, 0), 0);
      ctx.shared.throughput = {
        rps: Object.fromEntries(ids.map((id) => [id, rps(id)])),
        ratio4a: ratioTo('4a', 'express'),
        p50_4a: median(runs['4a'].map((r) => r.p50)),
      };
      return {
        sections: [
          {
            title: 'Item 4: server throughput (wrk, 50 connections)',
            intro:
              `${reps} round(s) of ${seconds} s per scenario, interleaved; median req/s, median of the runs' p50 and p99 ` +
              'latency (as wrk measures it), and the median CPU time the server process used per request. ' +
              'The ratio is to the Express 5 hello-world of the same round. Durable default: WAL, synchronous = FULL; ' +
              'logs quiet (WAITLIST_LOG=quiet).',
            columns: [
              { key: 'name', header: 'scenario' },
              { key: 'value', header: 'throughput' },
              { key: 'p50', header: 'p50' },
              { key: 'p99', header: 'p99' },
              { key: 'cpu', header: 'server CPU / req' },
              { key: 'baseline', header: 'baseline: Express hello' },
              { key: 'ratio', header: '÷ Express hello' },
              { key: 'vsNode', header: '÷ node:http hello' },
              { key: 'goal', header: 'goal' },
              { key: 'met', header: 'met' },
            ],
            rows,
            notes: [
              '4a: origin allowlist of one origin, per-IP throttle at 1,000,000/min (always counted), referrals off.',
              '4b: origin allowlist of three, per-IP throttle at 1,000,000/min, per-email throttle, disposable ' +
                'blocklist, geo deny list RU,KP,BY (loopback has no country, so it passes). MX check off (it needs DNS).',
              `4c: Bearer key, WAITLIST_KEY_RATE_LIMIT=${'1000000'}; each create also checks the key in the ` +
                'transaction and appends an activity entry. 4d: GET page 1 (25 items) of a waitlist of ' +
                `${fmtInt(listSize)} seeded subscribers, referrals on.`,
              `Checked in every run: no socket errors, every answer 202 (200 for 4d), and the rows each sign-up ` +
                `database gained equal the 202s wrk counted (${fmtInt(total202)} in all), give or take the ` +
                'requests in flight when wrk stopped.',
            ],
          },
        ],
      };
    } finally {
      for (const t of Object.values(targets)) await t.stop().catch(() => undefined);
    }
  },
};
