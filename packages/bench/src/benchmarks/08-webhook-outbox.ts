/**
 * Item 8: what the webhook outbox (docs/webhooks.md#the-outbox) costs the hot path, and how late deliveries come.
 *
 * Throughput: item 4's scenario 4a (public sign-up, fresh emails, no gates) under wrk with 50
 * connections, on a server whose tenant has no webhook endpoint (the baseline) and on one whose
 * tenant has one endpoint subscribed to `subscriber.created`, pointing at a receiver on loopback
 * that answers 204 at once (lib/webhook-receiver.ts); the goal is on their ratio. A third server
 * has its endpoint subscribed to `subscriber.admitted`, which no sign-up causes: no event is
 * recorded for a sign-up (docs/webhooks.md#the-outbox), so the endpoint should cost nothing.
 * Every server runs with the same webhook environment, so the endpoint is the only difference.
 *
 * Noise: every run is on a fresh SQLite file and a fresh server (warmed up, then measured), so no
 * run inherits another's backlog; each round runs every server once, in an order that rotates
 * from round to round, and the ratio is the median of the per-round ratios to the same round's
 * baseline, so drift of the shared machine does not decide it. Checked in every run: no socket
 * errors, every answer 202, the rows gained equal wrk's 202s (give or take the requests in
 * flight), and with the subscribed endpoint one event recorded per subscriber (none with the other).
 * Beside the ratio, what bounds it: CPU per sign-up of the server, its main thread and the whole
 * machine in every run, and one more run without and with the endpoint on the server built with
 * probes (lib/instrumented-server.ts), which times the single writer every 202 waits for.
 *
 * Delay from 202 to delivery: wrk cannot say when each 202 came, so a separate phase drives
 * sign-ups from Node (node:http, the same 50 concurrent requests, fresh emails) on a fresh server
 * with the endpoint, recording the moment each 202 arrived; the receiver records when each
 * delivery arrived, and the two are matched by email. Before it, a paced phase (a sign-up every
 * 50 ms, one at a time) gives the delay when the outbox is not behind. Every 202 must be
 * delivered. Then a phase paced at 1,000 sign-ups a second (50 loops sharing one schedule: an
 * open load at the rate the issue names, not wrk's maximum) gives the delay when sign-ups come
 * steadily and fast. The benchmark fails if deliveries are missing and none has arrived for 30 s (or
 * after 10 minutes in all), however long a backlog takes to drain while it keeps draining.
 *
 * Then sign-up latency while 16 deliveries stall in host lookups on a nameserver that never
 * answers, beside the same run's latency with none (lib/stalled-lookups.ts).
 */
import { ok as assert } from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { cli } from '@waitlistkit/testkit';
import Database from 'better-sqlite3';
import type { Benchmark } from '../lib/bench.js';
import { cpuSeconds, machineCpuSeconds, threadCpuSeconds } from '../lib/cpu.js';
import { httpClient } from '../lib/http.js';
import {
  buildInstrumentedServer,
  type WriterRun,
  writerRun,
  writerSplit,
  writerStatementsSection,
} from '../lib/instrumented-server.js';
import { ORIGIN, type Scenario, SUBSCRIBE_PATH, startScenario } from '../lib/scenarios.js';
import type { BenchServer } from '../lib/servers.js';
import { type Drive, stalledLookups } from '../lib/stalled-lookups.js';
import {
  fmtInt,
  fmtMs,
  fmtPct,
  fmtRatio,
  fmtUs,
  median,
  medianRatio,
  metCell,
  percentile,
} from '../lib/stats.js';
import { nowMs, type Receiver, startReceiver } from '../lib/webhook-receiver.js';
import { checkWrkRun, load, type WrkRun } from '../lib/wrk.js';

const CONNECTIONS = 50;
/** How long requests in flight when wrk stops get to commit (sign-ups' p99 is well under it). */
const SETTLE_MS = 500;
const GOAL_RATIO = 0.9;
/** The paced phase: one sign-up every this many ms. */
const PACE_MS = 50;
/** The rated phase: sign-ups a second, on one schedule shared by CONNECTIONS loops. */
const RATE = 1000;
/** Give up when deliveries are missing and none arrived for this long, or after MAX_WAIT_S in all. */
const STALL_S = 30;
const MAX_WAIT_S = 600;
/**
 * The same on every server: loopback destinations allowed, and a failed attempt (there should be
 * none) retried after a second, five times, so a hiccup shows as a late delivery, not a lost one.
 */
const WEBHOOK_ENV = { WAITLIST_WEBHOOK_ALLOW_PRIVATE: '1', WAITLIST_WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1' };

/** The servers of the throughput table: `events` of their one endpoint (none: no endpoint). */
const VARIANTS: Record<'plain' | 'other' | 'hooked', { name: string; events?: string }> = {
  plain: { name: 'no webhook endpoint (baseline)' },
  other: {
    name: 'one endpoint subscribed to subscriber.admitted (no deliveries)',
    events: 'subscriber.admitted',
  },
  hooked: {
    name: 'one endpoint subscribed to subscriber.created (local receiver, 204)',
    events: 'subscriber.created',
  },
};

type Kind = keyof typeof VARIANTS;

/** Rows of the events table and subscribers of the waitlist, read from the file. */
function counts(db: string, waitlistId: string): { events: number; subscribers: number } {
  const conn = new Database(db, { readonly: true, fileMustExist: true });
  const count = (sql: string, ...params: unknown[]) =>
    conn.prepare(sql).get<{ n: number }>(...params)?.n ?? 0;
  try {
    return {
      events: count('SELECT count(*) AS n FROM events'),
      subscribers: count('SELECT count(*) AS n FROM subscribers WHERE waitlist_id = ?', waitlistId),
    };
  } finally {
    conn.close();
  }
}

/** A phase's sign-ups: when each email's 202 came (nowMs), their latencies, their rate per second. */
interface Load {
  sent: Map<string, number>;
  latencies: number[];
  rate: number;
}

/** A phase's deliveries: each email's delay from its 202, duplicates, and the delivery rate. */
interface Delivered {
  delays: number[];
  duplicates: number;
  delivered: number;
  rate: number;
}

/**
 * Public sign-ups with fresh emails from `concurrency` loops (node:http, one keep-alive connection
 * each: Node's fetch reached about a third of wrk's rate here, node:http about 0.6), for
 * `seconds` or `max` sign-ups, whichever ends first; with `paceMs`, one loop starting a sign-up
 * every `paceMs`. Resolves to the moment each email's 202 arrived, the latencies and the rate.
 */
async function drive(
  server: BenchServer,
  path: string,
  {
    prefix,
    concurrency = 1,
    seconds,
    max = Number.POSITIVE_INFINITY,
    paceMs,
  }: { prefix: string; concurrency?: number; seconds: number; max?: number; paceMs?: number },
): Promise<Load> {
  const client = httpClient(server.url, { sockets: concurrency });
  const sent = new Map<string, number>();
  const latencies: number[] = [];
  const started = nowMs();
  const end = started + seconds * 1000;
  let n = 0;
  const loop = async () => {
    while (nowMs() < end && n < max) {
      const email = `${prefix}.${n++}@bench-mail.example`;
      const due = paceMs ? started + (n - 1) * paceMs : 0;
      if (due > nowMs()) await sleep(due - nowMs());
      const t0 = nowMs();
      const res = await client.send('POST', path, { headers: { origin: ORIGIN }, body: { email } });
      const at = nowMs();
      assert(res.status === 202, `sign-up of ${email}: ${res.status} ${res.text.slice(0, 200)}`);
      sent.set(email, at);
      latencies.push(at - t0);
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, loop));
  } finally {
    client.close();
  }
  return { sent, latencies, rate: sent.size / ((nowMs() - started) / 1000) };
}

/**
 * Waits until every email of `sent` was delivered (the first arrival counts; more are
 * duplicates, allowed by at-least-once). Resolves to the delays in ms, the delivery rate from
 * the first to the last arrival, and the duplicates; throws when deliveries stall or are wrong.
 */
async function deliveries(receiver: Receiver, sent: Map<string, number>): Promise<Delivered> {
  const first = new Map<string, number>();
  let duplicates = 0;
  const started = nowMs();
  let progress = started;
  while (first.size < sent.size) {
    await sleep(100);
    const { arrivals, malformed } = await receiver.take();
    assert(malformed === 0, `the receiver got ${malformed} deliveries that were not JSON`);
    for (const { at, email, type } of arrivals) {
      assert(type === 'subscriber.created', `a delivery of type ${type}`);
      assert(sent.has(email), `a delivery for ${email}, which this phase did not sign up`);
      if (first.has(email)) duplicates++;
      else {
        first.set(email, at);
        progress = nowMs();
      }
    }
    const now = nowMs();
    if (now - progress > STALL_S * 1000 || now - started > MAX_WAIT_S * 1000) {
      throw new Error(
        `${sent.size - first.size} of ${sent.size} deliveries missing after ${((now - started) / 1000).toFixed(0)} s ` +
          `(none for ${((now - progress) / 1000).toFixed(0)} s)`,
      );
    }
  }
  const delays = [...first].map(([email, at]) => at - (sent.get(email) ?? Number.NaN));
  const times = [...first.values()];
  const span = (Math.max(...times) - Math.min(...times)) / 1000;
  return { delays, duplicates, delivered: first.size, rate: span > 0 ? (first.size - 1) / span : Number.NaN };
}

export default {
  id: '8',
  title: 'Webhook outbox',
  needs: ['wrk'],
  async run(ctx) {
    const reps = ctx.smoke ? 1 : 5;
    const seconds = ctx.smoke ? 1 : 5;
    const warmup = ctx.smoke ? 0 : 2;
    // Smoke: the loaded phase stops at 100 sign-ups, so draining them stays short.
    const loadedMax = ctx.smoke ? 100 : Number.POSITIVE_INFINITY;
    const pacedSeconds = ctx.smoke ? 0.5 : 10;
    const dir = ctx.tempDir('webhooks');
    const receiver = await startReceiver();
    const servers = new Set<Scenario>();

    /** A fresh 4a server of one of the VARIANTS (the probed build with `script`). */
    const start = async (variant: Kind, tag: string, script?: string) => {
      const { events } = VARIANTS[variant];
      const t = await startScenario('4a', {
        dir,
        tag,
        script,
        env: WEBHOOK_ENV,
        beforeStart: events
          ? ({ db, tenant }) =>
              cli(
                [
                  'webhook',
                  'create',
                  '--operator',
                  tenant.operatorId,
                  '--url',
                  receiver.url,
                  '--events',
                  events,
                ],
                { db, env: WEBHOOK_ENV },
              )
          : undefined,
      });
      servers.add(t);
      return t;
    };
    const stop = async (t: Scenario) => {
      servers.delete(t);
      await t.stop();
    };

    try {
      const kinds = Object.keys(VARIANTS) as Kind[];
      /**
       * Besides the server's CPU: its main thread's, the whole machine's (wrk, the receiver and
       * everything else included) and how busy that kept the cores, all over the measured run, and
       * the deliveries made during it.
       */
      type Run = WrkRun & {
        cpuPerRequestUs: number;
        mainPerRequestUs: number;
        machinePerRequestUs: number;
        machineBusy: number;
        deliveredPerSignup: number;
        eventsPerSignup: number;
      };
      const runs: Record<Kind, Run[]> = { plain: [], other: [], hooked: [] };
      for (let round = 0; round < reps; round++) {
        // Each round starts one further along the list, so no variant always runs first or last.
        const order = kinds.map((_, i) => kinds[(i + round) % kinds.length] as Kind);
        ctx.log(`round ${round + 1}/${reps}: ${order.join(', ')} (${warmup} s warm-up, ${seconds} s each)`);
        for (const kind of order) {
          const id = `8 ${kind} r${round}`;
          const t = await start(kind, `-${kind}-r${round}`);
          try {
            if (warmup > 0) {
              const w = await load(t, {
                prefix: `w${round}${kind}`,
                seconds: warmup,
                connections: CONNECTIONS,
              });
              checkWrkRun(id, w, t.expected);
              // Requests in flight when the warm-up stopped must not count in the measured run.
              await sleep(SETTLE_MS);
            }
            const rowsBefore = await t.rows();
            // What arrived before (the warm-up's deliveries) is not the run's.
            await receiver.take();
            const mainCpu = () => threadCpuSeconds(t.server.pid).get(t.server.pid) ?? Number.NaN;
            const cpuBefore = {
              server: cpuSeconds(t.server.pid),
              main: mainCpu(),
              machine: machineCpuSeconds(),
            };
            const startedAt = performance.now();
            const run = await load(t, { prefix: `r${round}${kind}`, seconds, connections: CONNECTIONS });
            const perRequestUs = (cpu: number) => (cpu / run.requests) * 1e6;
            const cpuPerRequestUs = perRequestUs(cpuSeconds(t.server.pid) - cpuBefore.server);
            const mainPerRequestUs = perRequestUs(mainCpu() - cpuBefore.main);
            const machineCpu = machineCpuSeconds() - cpuBefore.machine;
            const machineBusy =
              machineCpu / (((performance.now() - startedAt) / 1000) * availableParallelism());
            const delivered = (await receiver.take()).arrivals.length;
            checkWrkRun(id, run, t.expected);
            // Let requests still in flight when wrk stopped commit, then compare.
            await sleep(SETTLE_MS);
            const after = counts(t.db, t.tenant.waitlistId);
            const gained = after.subscribers - rowsBefore;
            assert(
              gained >= run.ok && gained <= run.ok + CONNECTIONS,
              `${id}: wrk saw ${run.ok} answers 202 but the database gained ${gained} rows`,
            );
            // With the endpoint, every sign-up must have recorded its event (else nothing was measured).
            if (kind === 'hooked') {
              assert(
                after.events === after.subscribers,
                `${id}: ${after.events} events for ${after.subscribers} subscribers`,
              );
            }
            // Wanting no sign-up event, the other endpoint must have had none written.
            if (kind === 'other')
              assert(after.events === 0, `${id}: ${after.events} events recorded, none wanted`);
            runs[kind].push({
              ...run,
              cpuPerRequestUs,
              mainPerRequestUs,
              machinePerRequestUs: perRequestUs(machineCpu),
              machineBusy,
              deliveredPerSignup: delivered / run.requests,
              eventsPerSignup: after.events / after.subscribers,
            });
          } finally {
            await stop(t);
          }
        }
      }
      // The single writer with and without the endpoint: one run of each on the probed server.
      const probed = await buildInstrumentedServer(dir);
      const probedRun = async (kind: Kind): Promise<WriterRun> => {
        const t = await start(kind, `-${kind}-probed`, probed);
        try {
          return await writerRun(t, { id: `w8${kind}`, warmup, seconds });
        } finally {
          await stop(t);
        }
      };
      const plainWriter = await probedRun('plain');
      const hookedWriter = await probedRun('hooked');
      // Deliveries of the throughput runs are not measured (their servers are gone).
      await receiver.take();

      ctx.log(
        `delay phases: paced (${pacedSeconds} s), then ${CONNECTIONS} concurrent from Node (${seconds} s)`,
      );
      const t = await start('hooked', '-delay');
      let paced: Delivered & { load: Load };
      let rated: Delivered & { load: Load };
      let loaded: Delivered & { load: Load };
      try {
        const path = SUBSCRIBE_PATH(t.tenant.waitlistId, 'public');
        const pacedLoad = await drive(t.server, path, {
          prefix: 'paced',
          seconds: pacedSeconds,
          paceMs: PACE_MS,
        });
        paced = { load: pacedLoad, ...(await deliveries(receiver, pacedLoad.sent)) };
        const ratedLoad = await drive(t.server, path, {
          prefix: 'rated',
          concurrency: CONNECTIONS,
          seconds,
          paceMs: 1000 / RATE,
        });
        rated = { load: ratedLoad, ...(await deliveries(receiver, ratedLoad.sent)) };
        const loadedLoad = await drive(t.server, path, {
          prefix: 'loaded',
          concurrency: CONNECTIONS,
          seconds,
          max: loadedMax,
        });
        ctx.log(
          `${fmtInt(loadedLoad.sent.size)} sign-ups at ${fmtInt(loadedLoad.rate)}/s; waiting for their deliveries`,
        );
        loaded = { load: loadedLoad, ...(await deliveries(receiver, loadedLoad.sent)) };
        const after = counts(t.db, t.tenant.waitlistId);
        const answered = pacedLoad.sent.size + ratedLoad.sent.size + loadedLoad.sent.size;
        assert(
          after.subscribers === answered,
          `delay phases: ${after.subscribers} subscribers for ${answered} answers 202`,
        );
      } finally {
        await stop(t);
      }

      const stall = await stalledLookups(ctx, {
        dir,
        servers,
        drive: drive satisfies Drive,
        reps: ctx.smoke ? 1 : 3,
        seconds,
      });

      const rps = (kind: Kind) => median(runs[kind].map((r) => r.rps));
      const ratioOf = (kind: Kind) =>
        medianRatio(
          runs[kind].map((r) => r.rps),
          runs.plain.map((r) => r.rps),
        );
      const throughputRow = (kind: Kind) => {
        const goal = kind === 'hooked' ? `≥ ${GOAL_RATIO}×` : '';
        return {
          name: VARIANTS[kind].name,
          value: `${fmtInt(rps(kind))} req/s`,
          p50: fmtMs(median(runs[kind].map((r) => r.p50))),
          p99: fmtMs(median(runs[kind].map((r) => r.p99))),
          cpu: fmtUs(median(runs[kind].map((r) => r.cpuPerRequestUs))),
          main: fmtUs(median(runs[kind].map((r) => r.mainPerRequestUs))),
          machine: fmtUs(median(runs[kind].map((r) => r.machinePerRequestUs))),
          delivered: median(runs[kind].map((r) => r.deliveredPerSignup)).toFixed(2),
          events: median(runs[kind].map((r) => r.eventsPerSignup)).toFixed(2),
          baseline: `${fmtInt(rps('plain'))} req/s`,
          ratio: fmtRatio(ratioOf(kind)),
          goal,
          met: goal ? metCell(ratioOf(kind) >= GOAL_RATIO) : '',
        };
      };
      const delayRow = (name: string, phase: Delivered & { load: Load }) => ({
        name,
        signups: `${fmtInt(phase.load.sent.size)} at ${fmtInt(phase.load.rate)}/s`,
        value: `${fmtInt(phase.delivered)} of ${fmtInt(phase.load.sent.size)}`,
        p50: fmtMs(percentile(phase.delays, 50)),
        p99: fmtMs(percentile(phase.delays, 99)),
        max: fmtMs(Math.max(...phase.delays)),
        rate: `${fmtInt(phase.rate)}/s`,
        baseline: fmtMs(percentile(phase.load.latencies, 50)),
        duplicates: fmtInt(phase.duplicates),
      });
      // What bounds the rate: the machine's CPU per sign-up with and without the endpoint, and the
      // single writer's time per sign-up (the deliveries not made during a run add to both later).
      const machineUs = (kind: Kind) => median(runs[kind].map((r) => r.machinePerRequestUs));
      const mainUs = (kind: Kind) => median(runs[kind].map((r) => r.mainPerRequestUs));
      const busy = median(Object.values(runs).flatMap((list) => list.map((r) => r.machineBusy)));
      const cpuNote =
        `CPU: the measured runs kept the machine's ${availableParallelism()} cores ${fmtPct(busy)} busy (median; ` +
        `wrk, the server and the receiver together). A sign-up cost the machine ${fmtUs(machineUs('plain'))} ` +
        `without an endpoint and ${fmtUs(machineUs('hooked'))} with it (${fmtUs(mainUs('hooked') - mainUs('plain'))} ` +
        "more on the server's main thread): its event, its delivery built and claimed, and the " +
        `${median(runs.hooked.map((r) => r.deliveredPerSignup)).toFixed(2)} deliveries per sign-up made during the ` +
        "run (the request on the sending thread, the receiver's answer, the record).";
      const split = { plain: writerSplit(plainWriter), hooked: writerSplit(hookedWriter) };
      const writerNote =
        'The single writer (one run of each on the server built with probes, lib/instrumented-server.ts): ' +
        `busy ${fmtPct(plainWriter.busy)} of the run without an endpoint, ${fmtPct(hookedWriter.busy)} with ` +
        `it, for ${fmtUs(plainWriter.perRequestUs)} and ${fmtUs(hookedWriter.perRequestUs)} of its time per ` +
        `sign-up (${fmtInt(plainWriter.run.rps)} and ${fmtInt(hookedWriter.run.rps)} req/s). Every 202 waits ` +
        'for its commit, so with the writer this busy the sign-ups per second are what its time per sign-up ' +
        `allows: with the endpoint at most ${fmtRatio(plainWriter.perRequestUs / hookedWriter.perRequestUs)} ` +
        `the baseline. Its ${fmtUs(hookedWriter.perRequestUs - plainWriter.perRequestUs)} more per sign-up are ` +
        "the event written in the sign-up's commit and the outbox's writes (deliveries built, claimed, " +
        `recorded); ${GOAL_RATIO}× would need them to cost the writer at most ` +
        `${fmtUs(plainWriter.perRequestUs * (1 / GOAL_RATIO - 1))}. By statement (the table below): ` +
        `${fmtUs(split.hooked.controlUs - split.plain.controlUs)} more in transaction control (a batch holding ` +
        'an outbox write is a transaction of several jobs, each outbox job in a savepoint, where a batch of ' +
        'sign-ups alone is one statement that commits itself) and ' +
        `${fmtUs(split.hooked.rowsUs - split.plain.rowsUs)} more in the statements that write rows (the ` +
        "outbox's own, and the sign-ups' with their events). A statement's time runs from its call to its " +
        'answer, so it includes the wait for the main thread to take the answer: each statement of a batch ' +
        'is a turn of the event loop the writer waits for, and the outbox adds turns to every batch it joins.';
      const total202 = Object.values(runs)
        .flat()
        .reduce((n, r) => n + r.ok, 0);
      return {
        sections: [
          {
            title: 'Item 8: public sign-up with a webhook endpoint subscribed (wrk, 50 connections)',
            intro:
              `${reps} round(s); each round measures every server (in rotating order), each a fresh server on a ` +
              `fresh SQLite file, ${warmup} s of warm-up then ${seconds} s measured. Median req/s, median of the runs' ` +
              'p50 and p99 latency (as wrk measures it), median CPU per request of the server, of its main thread ' +
              'and of the whole machine (from /proc), deliveries made during the run and events recorded per ' +
              "subscriber; the ratio is the median of the per-round ratios to the same round's server without an " +
              'endpoint. Scenario 4a of item 4.',
            columns: [
              { key: 'name', header: 'server' },
              { key: 'value', header: 'throughput' },
              { key: 'p50', header: 'p50' },
              { key: 'p99', header: 'p99' },
              { key: 'cpu', header: 'server CPU / req' },
              { key: 'main', header: 'its main thread / req' },
              { key: 'machine', header: 'machine CPU / req' },
              { key: 'delivered', header: 'delivered / sign-up, during the run' },
              { key: 'events', header: 'events / sign-up' },
              { key: 'baseline', header: 'baseline: no endpoint' },
              { key: 'ratio', header: 'ratio' },
              { key: 'goal', header: 'goal' },
              { key: 'met', header: 'met' },
            ],
            rows: kinds.map(throughputRow),
            notes: [
              'The endpoint for subscriber.admitted (an event no sign-up causes) shows what an endpoint that wants ' +
                'no sign-up event costs: no event is written for a sign-up nobody wants (docs/webhooks.md#the-outbox). ' +
                'With subscriber.created, each sign-up records its event and the outbox then builds its delivery, ' +
                "claims it and records its attempt on the server's main thread and database, the attempt itself " +
                '(the HTTP request and its answer) on its sending thread (docs/webhooks.md#where-deliveries-run), ' +
                'all in the same process on the same two cores as the sign-ups and wrk.',
              cpuNote,
              writerNote,
              'Every server runs with WAITLIST_WEBHOOK_ALLOW_PRIVATE=1 and WAITLIST_WEBHOOK_RETRY_SCHEDULE=1,1,1,1,1; ' +
                'the receiver is a node:http server in a worker thread of the benchmark, on the same machine.',
              `Checked in every run: no socket errors, every answer 202, the rows gained equal wrk's 202s ` +
                `(${fmtInt(total202)} in all, give or take the requests in flight), and one event recorded per ` +
                'subscriber with the endpoint subscribed to subscriber.created.',
            ],
          },
          writerStatementsSection(
            "Item 8: the single writer's statements per sign-up, without and with the endpoint",
            'The runs of the probed server in the note above: every statement the writer ran, timed from its call ' +
              'to its answer, grouped by text (placeholder lists folded), per sign-up answered. The sign-ups of a ' +
              'group share one insert and one commit, so those run less than once per sign-up.',
            [
              { label: 'no endpoint', writer: plainWriter },
              { label: 'endpoint for subscriber.created', writer: hookedWriter },
            ],
          ),
          {
            title: 'Item 8: delay from 202 to delivery',
            intro:
              'On a fresh server with the endpoint subscribed to subscriber.created, sign-ups driven from Node ' +
              '(node:http) record when each 202 came; the receiver records when each delivery arrived; matched by ' +
              `email. Paced: one sign-up at a time, one every ${PACE_MS} ms for ${pacedSeconds} s. At ${fmtInt(RATE)}/s: ` +
              `${CONNECTIONS} loops sharing one schedule of a sign-up every ${1000 / RATE} ms for ${seconds} s (the ` +
              "phase's rate is given: what the server and this client reached). Under load: " +
              `${CONNECTIONS} concurrent requests for ${seconds} s${ctx.smoke ? ' (smoke: at most 100)' : ''}, the ` +
              "load of the throughput table, driven from Node (which reaches less than wrk: the phase's rate is " +
              'given). Delivery rate: deliveries per second from the first arrival to the last.',
            columns: [
              { key: 'name', header: 'phase' },
              { key: 'signups', header: 'sign-ups (202)' },
              { key: 'value', header: 'delivered' },
              { key: 'p50', header: 'p50 delay' },
              { key: 'p99', header: 'p99 delay' },
              { key: 'max', header: 'max delay' },
              { key: 'rate', header: 'delivery rate' },
              { key: 'baseline', header: 'baseline: time to 202, p50' },
              { key: 'duplicates', header: 'duplicates' },
            ],
            rows: [
              delayRow('paced', paced),
              delayRow(`paced at ${fmtInt(RATE)} sign-ups/s`, rated),
              delayRow(`under load (${CONNECTIONS} concurrent)`, loaded),
            ],
            notes: [
              'The outbox worker polls every 100 ms, so a delivery that finds no backlog comes 0–100 ms after its ' +
                'commit plus the attempt. When sign-ups come faster than the delivery rate, a backlog builds and the ' +
                'delay of a sign-up is the time the backlog ahead of it takes to drain: it grows with the length of ' +
                'the load, and the delivery rate is then the figure that matters.',
              `Every 202 was delivered (the benchmark fails otherwise: it waits while deliveries keep coming, and ` +
                `gives up after ${STALL_S} s without one or ${MAX_WAIT_S / 60} minutes in all).`,
            ],
          },
          stall,
        ],
      };
    } finally {
      for (const t of servers) await t.stop().catch(() => undefined);
      await receiver.stop();
    }
  },
} satisfies Benchmark;
