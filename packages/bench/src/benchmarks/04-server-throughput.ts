/**
 * Item 4: server throughput under wrk (50 connections, one wrk thread, its own process), against
 * an Express 5 hello-world and a plain node:http hello-world measured in the same rounds. Each
 * round runs every scenario once (interleaved, so drift of the shared machine hits all alike);
 * figures are medians over the rounds, ratios the median of the per-round ratios. Every run is
 * checked: no socket errors, every answer the expected status, and for sign-ups the rows the
 * database gained equal the 202s wrk saw (plus at most the requests in flight when it stopped).
 *
 * 4f is 4a with the welcome message on and the server's SMTP at a sink on loopback (a worker
 * thread, lib/smtp-sink.ts): its mail is queued with the sign-up and sent by the outbox meanwhile;
 * after each 4f run the benchmark waits for the outbox to drain (timed) before the next scenario,
 * so no other row runs beside its backlog, and every sign-up's mail must reach the sink.
 *
 * 4a runs on PostgreSQL too (issue 16), with one server process and with two on one database
 * (one wrk each), in the same rounds, with their goals (issue 27: 1 process ≥ 0.6× 4a on SQLite, 2
 * processes ≥ 1.0× 1 process); then a probe times a sign-up's and a group's transactions unloaded,
 * for the notes' argument about more instances (postgresSections below). Skipped without PostgreSQL.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ListPage } from '@waitlistkit/protocol';
import type { Benchmark } from '../lib/bench.js';
import { cpuSeconds } from '../lib/cpu.js';
import { type Cluster, startCluster } from '../lib/postgres.js';
import {
  HUGE_LIMIT,
  type LoadTarget,
  type Scenario,
  startScenario,
  THROUGHPUT_ROWS,
  WELCOME_4F,
} from '../lib/scenarios.js';
import { startHello } from '../lib/servers.js';
import { GROUP, type SignupTimings, timeSignupTransactions } from '../lib/signup-probe.js';
import { drained, type SmtpSink, startSmtpSink } from '../lib/smtp-sink.js';
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
import type { Section } from '../lib/table.js';
import { checkWrkRun as check, load, type WrkRun, wrkScript } from '../lib/wrk.js';

const CONNECTIONS = 50;
const GOAL_RATIO = 0.6;
/** 4e (issue 24): a sign-up with fields and a source at no less than this share of 4a's rate. */
const FIELDS_GOAL_RATIO = 0.9;
/** 4f (issue 25): a sign-up with the welcome message on at no less than this share of 4a's rate. */
const WELCOME_GOAL_RATIO = 0.9;
/** 4a on PostgreSQL (issue 27): one process at no less than this share of 4a on SQLite of the same round. */
const PG_GOAL_RATIO = 0.6;
/** Two processes on one database at no less than this share of one process. */
const PG_SCALE_GOAL = 1.0;
/** The PostgreSQL rows' rounds: the two rows and SQLite's 4a, their baseline. */
const PG_IDS = ['4a', '4a-pg', '4a-pg2'] as const;

type RowId = (typeof THROUGHPUT_ROWS)[number]['id'];

/**
 * The scenarios in the order a round runs them: the table's, but 4e and 4f beside 4a, their
 * baseline, each first in turn (4a, 4e, 4f, then 4f, 4e, 4a). Apart, the rows between them
 * (PostgreSQL's among them, whose cluster keeps working after its load) and the drift of the
 * shared machine would weigh on one side of their ratios only.
 */
function roundOrder(ids: readonly RowId[], round: number): RowId[] {
  const beside: RowId[] = ['4a', '4e', '4f'];
  const group = round % 2 === 0 ? beside : [...beside].reverse();
  return ids.flatMap((id) => (id === '4a' ? group : beside.includes(id) ? [] : [id]));
}

/** What a row loads: a hello-world or a scenario, with what its runs are checked and measured by. */
interface Target extends LoadTarget {
  /** Sign-ups: the waitlist's subscribers, checked against wrk's 202s. */
  rows?(): Promise<number>;
  /** On PostgreSQL, the cluster whose CPU and WAL a run counts. */
  cluster?: Cluster;
}

interface Run extends WrkRun {
  cpuPerRequestUs: number;
  pgCpuPerRequestUs: number;
  walPerRequest: number;
}

/** 4f's mail in one run: sent while wrk ran, then the outbox's drain until every sign-up's was sent. */
interface MailRun {
  sentDuring: number;
  seconds: number;
  drainMs: number;
  drainCpuPerMailUs: number;
  drainedMails: number;
}

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

    const targets = new Map<RowId, Target>();
    const target = (id: RowId) => targets.get(id) as Target;
    const scenario = (s: Scenario, cluster?: Cluster): Target => ({
      ...s,
      rows: s.countsRows ? s.rows : undefined,
      cluster,
    });
    let cluster: Cluster | undefined;
    const sink = await startSmtpSink();
    const mailRuns: MailRun[] = [];
    /**
     * After a 4f run: let requests in flight commit, then time the outbox until the sink has a
     * mail for every row (every sign-up of the scenario so far), with the server's CPU meanwhile.
     */
    const drainMail = async (t: Target, endedAt: number, sentDuring: number, seconds: number) => {
      await sleep(200);
      const cpuBefore = serverCpu(t);
      const before = (await sink.count()).received;
      const expected = (await t.rows?.()) ?? 0;
      await drained(sink, expected);
      const drainedMails = expected - before;
      ctx.log(`4f: ${fmtInt(sentDuring)} mails sent during the run, ${fmtInt(drainedMails)} after it`);
      mailRuns.push({
        sentDuring,
        seconds,
        drainMs: performance.now() - endedAt,
        drainCpuPerMailUs: drainedMails > 0 ? ((serverCpu(t) - cpuBefore) / drainedMails) * 1e6 : Number.NaN,
        drainedMails,
      });
    };
    const skippedPostgres = ctx.lacks('postgres', 'the PostgreSQL rows (4a on PostgreSQL)');
    const shown = THROUGHPUT_ROWS.filter((s) => !('postgres' in s));
    try {
      for (const kind of ['node', 'express'] as const) {
        const server = await startHello(kind);
        targets.set(kind, {
          urls: [`${server.url}/`],
          pids: [server.pid],
          scriptPath: getScript,
          args: () => [200],
          expected: 200,
          stop: () => server.stop(),
        });
      }
      ctx.log('setting up the server scenarios');
      for (const id of ['4a', '4b', '4c', '4e'] as const)
        targets.set(id, scenario(await startScenario(id, { dir })));
      targets.set('4f', scenario(await startScenario('4f', { dir, env: { WAITLIST_SMTP_URL: sink.url } })));
      const list = await startScenario('4d', { dir, listSize });
      targets.set('4d', scenario(list));

      // The list scenario answers what was seeded.
      const page = (await (
        await fetch(list.urls[0] as string, { headers: { authorization: `Bearer ${list.tenant.key}` } })
      ).json()) as ListPage;
      if (page.items?.length !== 25 || page.total !== listSize || page.items[0]?.position !== 1) {
        throw new Error(`4d: page 1 is not the seeded waitlist: ${JSON.stringify(page).slice(0, 300)}`);
      }

      /**
       * Warm-up, then `reps` rounds in the order `order` gives, each run checked and kept in `runs`;
       * `phase` keeps a phase's addresses apart from another's.
       */
      const measure = async (order: (round: number) => RowId[], runs: Map<RowId, Run[]>, phase: string) => {
        if (warmup > 0) {
          ctx.log(`warming up (${warmup} s each)`);
          for (const id of order(0)) {
            const t = target(id);
            check(
              id,
              await load(t, { prefix: `w${id}${phase}`, seconds: warmup, connections: CONNECTIONS }),
              t.expected,
            );
            if (id === '4f') {
              await sleep(200);
              await drained(sink, (await t.rows?.()) ?? 0);
            }
          }
        }
        for (let round = 0; round < reps; round++) {
          ctx.log(`round ${round + 1}/${reps}${phase && ` (${phase})`} (${seconds} s per scenario)`);
          for (const id of order(round)) {
            const t = target(id);
            const rowsBefore = (await t.rows?.()) ?? 0;
            const cpuBefore = serverCpu(t);
            const clusterCpuBefore = t.cluster?.cpuSeconds() ?? 0;
            const walBefore = (await t.cluster?.walBytes()) ?? 0;
            const mailsBefore = id === '4f' ? (await sink.count()).received : 0;
            const wrk = await load(t, {
              prefix: `r${round}${id}${phase}`,
              seconds,
              connections: CONNECTIONS,
            });
            const endedAt = performance.now();
            const sentDuring = id === '4f' ? (await sink.count()).received - mailsBefore : 0;
            const perRequest = (amount: number) => amount / wrk.requests;
            const run: Run = {
              ...wrk,
              cpuPerRequestUs: perRequest(serverCpu(t) - cpuBefore) * 1e6,
              pgCpuPerRequestUs: t.cluster
                ? perRequest(t.cluster.cpuSeconds() - clusterCpuBefore) * 1e6
                : Number.NaN,
              walPerRequest: t.cluster ? perRequest((await t.cluster.walBytes()) - walBefore) : Number.NaN,
            };
            check(id, run, t.expected);
            if (t.rows) {
              // Let requests still in flight when wrk stopped commit, then compare.
              await sleep(200);
              const gained = (await t.rows()) - rowsBefore;
              if (gained < run.ok || gained > run.ok + CONNECTIONS) {
                throw new Error(
                  `${id}: wrk saw ${run.ok} answers 202 but the database gained ${gained} rows`,
                );
              }
            }
            if (id === '4f') await drainMail(t, endedAt, sentDuring, seconds);
            runs.set(id, [...(runs.get(id) ?? []), run]);
          }
        }
      };

      // SQLite and the baselines first, with no PostgreSQL on the machine: a cluster keeps working
      // after its load (its WAL writer, checkpoints, autovacuum of the rows just written), and run
      // between them it took SQLite's 4a from 5,426 to 4,615 sign-ups/s (issue 27's note).
      const ids = shown.map((s) => s.id);
      const runs = new Map<RowId, Run[]>();
      const runsOf = (id: RowId) => runs.get(id) ?? [];
      const pgRuns = new Map<RowId, Run[]>();
      const pgRunsOf = (id: RowId) => pgRuns.get(id) ?? [];
      await measure((round) => roundOrder(ids, round), runs, '');

      // Then PostgreSQL's rows, in rounds of their own beside SQLite's 4a, their baseline.
      let pg1: Scenario | undefined;
      if (!skippedPostgres) {
        ctx.log('starting a PostgreSQL cluster (durable: fsync on, synchronous_commit on)');
        cluster = await startCluster();
        // A database of its own per row, so each counts only its own rows.
        pg1 = await startScenario('4a', { dir, postgres: cluster.database(), processes: 1 });
        targets.set('4a-pg', scenario(pg1, cluster));
        targets.set(
          '4a-pg2',
          scenario(await startScenario('4a', { dir, postgres: cluster.database(), processes: 2 }), cluster),
        );
        // Each first in turn, round by round.
        await measure((round) => (round % 2 === 0 ? [...PG_IDS] : [...PG_IDS].reverse()), pgRuns, 'pg');
      }

      // A sign-up's and a group's transactions with the server's own store code, nothing else
      // running on the 1-process database: how long each holds its row lock, unloaded.
      let probe: SignupTimings | undefined;
      if (pg1) {
        ctx.log("timing a sign-up's and a group's transactions on the idle PostgreSQL database");
        probe = await timeSignupTransactions({
          tmpDir: dir,
          url: pg1.db,
          waitlistId: pg1.tenant.waitlistId,
          n: ctx.smoke ? 10 : 100,
        });
      }

      const { rps, ratioTo } = figures(runsOf);
      const rows = shown.map((s) => {
        const ratio = ratioTo(s.id, 'express');
        // 4e's and 4f's goals are against 4a of the same rounds; 4a's against Express.
        const besideGoal = s.id === '4e' ? FIELDS_GOAL_RATIO : s.id === '4f' ? WELCOME_GOAL_RATIO : undefined;
        const besideRatio = besideGoal === undefined ? Number.NaN : ratioTo(s.id, '4a');
        const goal =
          s.id === '4a'
            ? `≥ ${GOAL_RATIO}×`
            : besideGoal !== undefined
              ? `≥ ${besideGoal}× 4a (${fmtRatio(besideRatio)})`
              : '';
        return {
          name: 'baseline' in s ? `${s.name} (baseline)` : s.name,
          value: `${fmtInt(rps(s.id))} req/s`,
          p50: fmtMs(median(runsOf(s.id).map((r) => r.p50))),
          p99: fmtMs(median(runsOf(s.id).map((r) => r.p99))),
          cpu: fmtUs(median(runsOf(s.id).map((r) => r.cpuPerRequestUs))),
          baseline: `${fmtInt(rps('express'))} req/s`,
          ratio: fmtRatio(ratio),
          vsNode: fmtRatio(ratioTo(s.id, 'node')),
          goal,
          met:
            s.id === '4a'
              ? metCell(ratio >= GOAL_RATIO)
              : besideGoal !== undefined
                ? metCell(besideRatio >= besideGoal)
                : '',
        };
      });
      const total202 = ids
        .filter((id) => target(id).rows)
        .reduce((n, id) => n + runsOf(id).reduce((m, r) => m + r.ok, 0), 0);
      ctx.shared.throughputRps = Object.fromEntries(ids.map((id) => [id, rps(id)]));
      const sections: Section[] = [
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
            `4c: Bearer key, WAITLIST_KEY_RATE_LIMIT=${HUGE_LIMIT}; each create also checks the key in the ` +
              'transaction and appends an activity entry. 4d: GET page 1 (25 items) of a waitlist of ' +
              `${fmtInt(listSize)} seeded subscribers, referrals on.`,
            '4e: as 4a, on a waitlist of three fields (text required, select, checkbox); each sign-up answers ' +
              'two and sends all seven keys of `source` (page addresses with a query, kept as origin and path). ' +
              'Its goal is its rate over 4a of the same round (median of the per-round ratios); in every round ' +
              'the two run back to back, each first in turn.',
            await welcomeNote(sink, mailRuns, runsOf('4f'), runsOf('4a'), target('4f')),
            `Checked in every run: no socket errors, every answer 202 (200 for 4d), and the rows each sign-up ` +
              `database gained equal the 202s wrk counted (${fmtInt(total202)} in all), give or take the ` +
              'requests in flight when wrk stopped.',
            ...(skippedPostgres ? [skippedPostgres] : []),
          ],
        },
      ];
      if (probe)
        sections.push(...postgresSections({ runsOf: pgRunsOf, ...figures(pgRunsOf), probe, reps, seconds }));
      return { sections };
    } finally {
      for (const t of targets.values()) await t.stop().catch(() => undefined);
      await sink.stop();
      await cluster?.stop();
    }
  },
} satisfies Benchmark;

/** A row's median rate, and its median per-round ratio to another row, over the runs given. */
function figures(runsOf: (id: RowId) => Run[]) {
  return {
    rps: (id: RowId) => median(runsOf(id).map((r) => r.rps)),
    ratioTo: (id: RowId, base: RowId) =>
      medianRatio(
        runsOf(id).map((r) => r.rps),
        runsOf(base).map((r) => r.rps),
      ),
  };
}

const serverCpu = (t: LoadTarget) => t.pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);

/** 4f's note: what the outbox sent during the runs and after them, and that every sign-up's mail came. */
async function welcomeNote(
  sink: SmtpSink,
  mailRuns: MailRun[],
  runs: Run[],
  baselines: Run[],
  t: Target,
): Promise<string> {
  const ratios = runs.map((r, i) => r.rps / (baselines[i]?.rps ?? Number.NaN));
  const { received, first } = await sink.count();
  const rows = (await t.rows?.()) ?? 0;
  if (received !== rows) throw new Error(`4f: the SMTP sink has ${received} mails for ${rows} sign-ups`);
  const subject = WELCOME_4F.subject.replace('{{waitlist_name}}', 'Launch');
  if (
    !first ||
    first.subject !== subject ||
    !first.listUnsubscribe ||
    !first.to[0]?.endsWith('@bench-mail.example')
  ) {
    throw new Error(`4f: the first mail is not the welcome message: ${JSON.stringify(first)}`);
  }
  const signUps = runs.reduce((n, r) => n + r.ok, 0);
  const sent = mailRuns.reduce((n, r) => n + r.sentDuring, 0);
  const drainSeconds = median(mailRuns.map((r) => r.drainMs)) / 1000;
  return (
    "4f: as 4a, with the waitlist's welcome message saved and on (`message set --on`; a subject with " +
    '{{waitlist_name}}, a body with {{email}}, {{position}}, {{people_ahead}} and {{status_url}}), the server ' +
    "given WAITLIST_SMTP_URL of testkit's SMTP server on loopback (smtp-server, every mail parsed by " +
    "mailparser), run in a worker thread of the benchmark's process: off wrk's process and the server's event " +
    "loop, on the same two cores as a local relay would be. The sign-up's statement queues its mail (a " +
    'trigger); the outbox renders and sends it afterwards, meanwhile. During the runs the sink received ' +
    `${fmtInt(sent)} mails for ${fmtInt(signUps)} sign-ups (median ` +
    `${fmtInt(median(mailRuns.map((r) => r.sentDuring / r.seconds)))} mails/s, ${fmtPct(sent / signUps)} of ` +
    'the sign-ups); after each run the benchmark waited until the outbox had sent every mail before the next ' +
    `scenario: median ${drainSeconds.toFixed(1)} s from the end of the run ` +
    `(${fmtInt(median(mailRuns.map((r) => r.drainedMails)))} mails left at its end, the server using ` +
    `${fmtUs(median(mailRuns.map((r) => r.drainCpuPerMailUs)))} of CPU per mail meanwhile). 4f ÷ 4a round by ` +
    `round: ${ratios.map(fmtRatio).join(', ')}. Checked: one mail ` +
    `per sign-up, ${fmtInt(received)} in all, the first to its sign-up's address with the saved subject and a ` +
    'List-Unsubscribe header.'
  );
}

/**
 * The PostgreSQL rows again, beside SQLite's 4a and with their goals (issue 27), with what they
 * cost the database; then one sign-up's and one group's transactions timed on an idle database,
 * and what they mean for more instances.
 */
function postgresSections({
  runsOf,
  rps,
  ratioTo,
  probe,
  reps,
  seconds,
}: {
  runsOf(id: RowId): Run[];
  rps(id: RowId): number;
  ratioTo(id: RowId, base: RowId): number;
  probe: SignupTimings;
  reps: number;
  seconds: number;
}): Section[] {
  const med = (id: RowId, key: 'p50' | 'cpuPerRequestUs' | 'pgCpuPerRequestUs' | 'walPerRequest') =>
    median(runsOf(id).map((r) => r[key]));
  const one = rps('4a-pg');
  const two = rps('4a-pg2');
  const rtt = median(probe.rtt);
  const probeRow = (name: string, values: number[]) => ({
    name,
    value: fmtMs(median(values)),
    p99: fmtMs(percentile(values, 99)),
    baseline: fmtMs(rtt),
    ratio: fmtRatio(median(values) / rtt),
  });
  const heldOne = median(probe.one.whole);
  const heldGroup = median(probe.group.whole);
  const takeHeld = median(probe.take.whole);
  const onSqlite = ratioTo('4a-pg', '4a');
  const twoToOne = ratioTo('4a-pg2', '4a-pg');
  const cpuOf = (id: RowId) => med(id, 'cpuPerRequestUs') + med(id, 'pgCpuPerRequestUs');
  return [
    {
      title: 'Item 4 on PostgreSQL: 4a with one and two server processes on one database',
      intro:
        `${reps} round(s) of ${seconds} s of their own after the table above, each row first in turn, beside ` +
        "SQLite's 4a measured again in the same rounds: the ratio is the median of the per-round ratios to it, and " +
        'for 2 processes also to 1 process. The cluster is started after the rows above, which run with no ' +
        'PostgreSQL on the machine: its work after a load (WAL writer, checkpoints, autovacuum) weighed on the ' +
        'rows run after it when they were interleaved. A throwaway cluster ' +
        "(testkit's, PostgreSQL's durable defaults: fsync on, synchronous_commit on, full_page_writes on), a database " +
        'of its own per row, on the same machine. With 2 processes, one wrk per process, started together, 25 ' +
        'connections each; their rates summed, their p50 and p99 the worse of the two. Per request: CPU of the ' +
        'server processes, CPU of the whole cluster (every PostgreSQL process), WAL written.',
      columns: [
        { key: 'name', header: 'scenario' },
        { key: 'value', header: 'throughput' },
        { key: 'p50', header: 'p50' },
        { key: 'baseline', header: 'baseline: 4a on SQLite' },
        { key: 'ratio', header: '÷ 4a on SQLite' },
        { key: 'toOne', header: '÷ 1 process' },
        { key: 'cpu', header: 'server CPU / req' },
        { key: 'pgCpu', header: 'PostgreSQL CPU / req' },
        { key: 'wal', header: 'WAL / req' },
        { key: 'goal', header: 'goal' },
        { key: 'met', header: 'met' },
      ],
      rows: (['4a', '4a-pg', '4a-pg2'] as const).map((id) => ({
        name: (THROUGHPUT_ROWS.find((s) => s.id === id)?.name ?? id) + (id === '4a' ? ' (baseline)' : ''),
        value: `${fmtInt(rps(id))} req/s`,
        p50: fmtMs(med(id, 'p50')),
        baseline: `${fmtInt(rps('4a'))} req/s`,
        ratio: fmtRatio(id === '4a' ? 1 : ratioTo(id, '4a')),
        toOne: id === '4a-pg2' ? fmtRatio(twoToOne) : '',
        cpu: fmtUs(med(id, 'cpuPerRequestUs')),
        pgCpu: id === '4a' ? '' : fmtUs(med(id, 'pgCpuPerRequestUs')),
        wal: id === '4a' ? '' : `${fmtInt(med(id, 'walPerRequest'))} B`,
        ...(id === '4a-pg'
          ? { goal: `≥ ${PG_GOAL_RATIO}× 4a on SQLite`, met: metCell(onSqlite >= PG_GOAL_RATIO) }
          : {}),
        ...(id === '4a-pg2'
          ? {
              goal: `≥ ${PG_SCALE_GOAL.toFixed(1)}× 1 process`,
              goalRatio: fmtRatio(twoToOne),
              met: metCell(twoToOne >= PG_SCALE_GOAL),
            }
          : {}),
      })),
      notes: [
        'On PostgreSQL a public sign-up of 4a makes three writes (the waitlist is not read: the process remembers ' +
          "it, and the sign-up's lock checks its version): the per-IP throttle's take (its row in `throttles`, key " +
          "`<waitlist>|<ip>`), the sign-up (a row in `subscribers`, the waitlist's `last_seq` and `last_joined_us` " +
          "advanced), and the `pow_accepted` counter's take (a second `throttles` row of the same waitlist and " +
          'address). Each is grouped in the process (store/postgres/groups.ts): the requests that arrive while ' +
          'the last transaction of their waitlist (or throttle) is under way share the next one, of two round ' +
          "trips. A group of sign-ups locks the waitlist's row and reads the rows of its addresses with its BEGIN, " +
          'and inserts every new row with one statement sent with its COMMIT, durable (synchronous_commit on: no ' +
          '202 before the COMMIT returned); a group of takes locks and reads its keys with one upsert sent with its ' +
          'BEGIN and writes them back with one UPDATE sent with its COMMIT, which does not wait for the disk ' +
          '(counts may be forgotten in a crash, as SQLite forgets them in a restart). ' +
          'So the round trips, the lock waits and the WAL flushes are paid per group, not per sign-up, as on ' +
          'SQLite, where the sign-ups waiting for the writer share one statement and one fsync.',
        'This machine has 2 cores, shared by wrk, the server processes, PostgreSQL and whatever else runs: a second ' +
          'process adds no core, only a second event loop competing for them, so 2 ÷ 1 process ' +
          `(${fmtRatio(twoToOne)}) shows what a second process costs, not scaling: the two processes' groups take ` +
          "turns on the waitlist's row, each as large as what arrived at its process meanwhile, of half the " +
          'connections: smaller groups, so more transactions per sign-up. All of it in CPU per ' +
          `sign-up: ${fmtUs(cpuOf('4a-pg'))} with 1 process, ${fmtUs(cpuOf('4a-pg2'))} with 2 (server and ` +
          `PostgreSQL), against ${fmtUs(med('4a', 'cpuPerRequestUs'))} on SQLite. wrk sends from one address, so ` +
          'the two throttle rows are as hot as the waitlist row here; in production they are shared only by ' +
          'sign-ups from one address.',
      ],
    },
    {
      title: 'Item 4 on PostgreSQL: what a sign-up and a group hold, unloaded',
      intro:
        `${probe.rtt.length} rounds with the server's own PostgreSQL store code (bundled from its source), on the ` +
        '1-process database while its server is idle, each: a throttle take (a group of one), a sign-up alone ' +
        `(a group of one) and a group of ${GROUP} sign-ups; p50 and p99. Baseline: a \`SELECT 1\` round trip on ` +
        'the same pool. Each is one transaction of two round trips: its first statements sent with BEGIN (the ' +
        "waitlist's row locked and the group's addresses looked up; the throttle rows locked and read), its last " +
        'with COMMIT (the new rows; the new states). Its row locks are asked for in the first and released when ' +
        'the COMMIT returns, for a durable commit once its WAL is flushed: the whole transaction is the hold. The ' +
        "takes' commits do not wait for the flush.",
      columns: [
        { key: 'name', header: 'phase' },
        { key: 'value', header: 'p50' },
        { key: 'p99', header: 'p99' },
        { key: 'baseline', header: 'baseline: round trip p50' },
        { key: 'ratio', header: 'ratio' },
      ],
      rows: [
        probeRow('`SELECT 1` round trip (baseline)', probe.rtt),
        probeRow('per-IP throttle take: whole transaction, its row lock held', probe.take.whole),
        probeRow('per-IP throttle take: its last round trip (the state, COMMIT)', probe.take.commit),
        probeRow("a sign-up alone: whole transaction, the waitlist row's lock held", probe.one.whole),
        probeRow(
          'a sign-up alone: its last round trip (the row, COMMIT with its WAL flush)',
          probe.one.commit,
        ),
        probeRow(`a group of ${GROUP}: whole transaction, the lock held`, probe.group.whole),
        probeRow(
          `a group of ${GROUP}: its last round trip (the rows, COMMIT with its WAL flush)`,
          probe.group.commit,
        ),
      ],
      notes: [
        "One waitlist: its groups take its row's lock one after another, whichever instance they reach, and each " +
          'holds it for two round trips, the second with its WAL flush, ' +
          `whatever its size: ${fmtMs(heldOne)} for one sign-up here unloaded, ${fmtMs(heldGroup)} for ${GROUP}. ` +
          `So one hot waitlist is no longer bounded by 1 ÷ the hold (${fmtInt(1000 / heldOne)}/s): a group carries ` +
          `what arrived during the last one, about ${fmtInt((GROUP * 1000) / heldGroup)}/s at groups of ${GROUP}, ` +
          `more with larger ones. Under load 4a did ${fmtInt(one)}/s with 1 process and ${fmtInt(two)}/s with 2. ` +
          `The throttle rows of one address are grouped the same way (${fmtMs(takeHeld)} held by a take alone).`,
        'More instances: with P processes on one hot waitlist, each process sends one group per turn of the lock, ' +
          'so a turn lasts about P holds and each group holds what its process received in one turn: the rate ' +
          'the waitlist takes stays what the database can write, and what grows with P is the wait for a turn ' +
          `(about P × ${fmtMs(heldOne)} here: ${fmtMs(10 * heldOne)} at 10 processes, ${fmtMs(100 * heldOne)} at ` +
          '100, before scheduling), ' +
          'not the work per sign-up. Different waitlists lock different rows and do not wait for each other. The ' +
          'database does the rest: each sign-up is a share of one flushed commit and of two that do not wait, ' +
          `${fmtInt(med('4a-pg', 'walPerRequest'))} bytes of WAL (the row, its indexes with the trigram entries of ` +
          'the email, its share of the waitlist row and the throttle rows) and ' +
          `${fmtUs(med('4a-pg', 'pgCpuPerRequestUs'))} of PostgreSQL CPU: one core of database CPU is about ` +
          `${fmtInt(1e6 / med('4a-pg', 'pgCpuPerRequestUs'))} sign-ups/s, and the WAL about ` +
          `${fmtInt((med('4a-pg', 'walPerRequest') * 1000) / 1e6)} MB per 1,000 sign-ups. Connections: a process ` +
          'writes sign-ups and takes with one connection per waitlist and per throttle, not one per request, so ' +
          '10 processes fit ' +
          "PostgreSQL's default `max_connections` (100) with the default pool of 10 each; 100 processes need a " +
          'smaller pool each (10 × 100 = 1,000) or a pooler such as PgBouncer in transaction mode.',
      ],
    },
  ];
}
