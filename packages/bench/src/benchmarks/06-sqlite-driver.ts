/**
 * Item 6: the SQLite driver. The server's own read and write paths (its store functions and
 * group committer, compiled from reference-server/src) on `sqlite3`, the driver it uses, beside
 * the very statements they issue replayed straight on `sqlite3` and on `better-sqlite3` (for
 * comparison only), and the server's code on better-sqlite3 through a Connection adapter. Then:
 * is the driver the bottleneck of item 4? How busy the single writer (the group committer) is
 * under wrk, in a build of the server with that one method timed, what a sign-up costs it with
 * and without load and on each driver, and a CPU profile of the built server under wrk.
 */
import { ok as assert } from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { BASE62_ALPHABET, generateReferralCode, IdPrefix, randomString } from '@waitlistkit/protocol';
import { seedTenant } from '@waitlistkit/testkit';
import Database from 'better-sqlite3';
import sqlite3 from 'sqlite3';
import type { Benchmark } from '../lib/bench.js';
import { BetterConnection, type Call, preparer, recording } from '../lib/better-connection.js';
import { threadCpuSeconds } from '../lib/cpu.js';
import { buildInstrumentedServer, writerRun } from '../lib/instrumented-server.js';
import { summarizeProfile } from '../lib/profile.js';
import { HUGE_LIMIT, ORIGIN, startScenario } from '../lib/scenarios.js';
import { countSubscribers, SEARCH_Q, seedSubscribers } from '../lib/seed.js';
import {
  type FreshSignup,
  loadServerCode,
  type PageQuery,
  type Params,
  type SqlConnection,
} from '../lib/server-code.js';
import { fmtInt, fmtPct, fmtRatio, fmtUs, median } from '../lib/stats.js';
import type { Row, Section } from '../lib/table.js';
import { checkWrkRun, load } from '../lib/wrk.js';

const IN_FLIGHT = 50;
const PRAGMAS = {
  // As reference-server/src/store/sqlite/migrations.ts `configure` sets them.
  writer: [
    'PRAGMA busy_timeout = 10000',
    'PRAGMA foreign_keys = ON',
    'PRAGMA journal_mode = WAL',
    'PRAGMA synchronous = FULL',
  ],
  reader: ['PRAGMA busy_timeout = 10000', 'PRAGMA foreign_keys = ON', 'PRAGMA query_only = ON'],
};

const STALE = 'update the raw replays of packages/bench/src/benchmarks/06-sqlite-driver.ts';

/** Raw sqlite3: prepared statements and promises, no wrapper. */
async function rawSqlite3(path: string, pragmas: string[]): Promise<SqlConnection> {
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const opened: sqlite3.Database = new sqlite3.Database(path, (error) =>
      error ? reject(error) : resolve(opened),
    );
  });
  const statements = new Map<string, sqlite3.Statement>();
  const prepared = (sql: string) => {
    let s = statements.get(sql);
    if (!s) {
      s = db.prepare(sql);
      statements.set(sql, s);
    }
    return s;
  };
  const all = <Row>(sql: string, params: Params = []) =>
    new Promise<Row[]>((resolve, reject) => {
      prepared(sql).all(params, (error: Error | null, rows: Row[]) =>
        error ? reject(error) : resolve(rows),
      );
    });
  const raw: SqlConnection = {
    // Statement#get leaves the statement open, and with it a read snapshot that makes the
    // connection's next BEGIN IMMEDIATE fail with SQLITE_BUSY once others have written; the
    // server reads single rows with #all for that reason, and so does this replay.
    get: async <Row>(sql: string, params?: Params) => (await all<Row>(sql, params))[0],
    all,
    run: (sql, params = []) =>
      new Promise((resolve, reject) => {
        prepared(sql).run(params, function (this: sqlite3.RunResult, error: Error | null) {
          if (error) reject(error);
          else resolve({ changes: this.changes, lastID: this.lastID });
        });
      }),
    exec: (sql) =>
      new Promise((resolve, reject) => db.exec(sql, (error) => (error ? reject(error) : resolve()))),
    close: async () => {
      await Promise.all([...statements.values()].map((s) => new Promise<void>((r) => s.finalize(() => r()))));
      await new Promise<void>((r) => db.close(() => r()));
    },
  };
  await raw.exec(`${pragmas.join('; ')};`);
  return raw;
}

/** Raw better-sqlite3: prepared statements, synchronous calls. */
function rawBetter(path: string, pragmas: string[]) {
  const db = new Database(path);
  for (const p of pragmas) db.exec(p);
  const prepared = preparer(db);
  return {
    db,
    call(method: 'run' | 'all' | 'get', sql: string, params: Params = []): unknown {
      const { statement, args } = prepared(sql);
      return statement[method](...args(params));
    },
    close: async () => {
      db.close();
    },
  };
}

/** Median per-call time (µs) of `fn` over `calls` calls. */
async function perCall(calls: number, fn: () => unknown): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now();
    await fn();
    times.push((performance.now() - t0) * 1000);
  }
  return median(times);
}

/** A fresh sign-up's fields, generated like the server generates them. */
function freshSignup(waitlistId: string, prefix: string, i: number): FreshSignup {
  const email = `${prefix}.${i}@driver-bench.example`;
  return { waitlistId, email, emailNorm: email, confirm: false };
}

export default {
  id: '6',
  title: 'SQLite driver',
  async run(ctx) {
    const size = ctx.smoke ? 2_000 : 100_000;
    const rounds = ctx.smoke ? 1 : 3;
    const writeSeconds = ctx.smoke ? 0.3 : 3;
    const pageCalls = ctx.smoke ? 20 : 400;
    const searchCalls = ctx.smoke ? 3 : 15;
    const dir = ctx.tempDir('driver');
    const path = join(dir, 'driver.db');
    const tenant = await seedTenant(path, { waitlist: ['--origins', ORIGIN, '--ip-limit', HUGE_LIMIT] });
    const wl = tenant.waitlistId;
    seedSubscribers(path, wl, size);
    const S = await loadServerCode(dir);

    // The four ways in: the server's Connection on sqlite3, the same code on better-sqlite3,
    // and the raw drivers.
    const serverWriter = await S.Connection.open(path);
    await S.configure(serverWriter, { writer: true });
    const serverReader = await S.Connection.open(path);
    await S.configure(serverReader, { writer: false });
    const betterWriter = new BetterConnection(new Database(path));
    await S.configure(betterWriter, { writer: true });
    const betterReader = new BetterConnection(new Database(path));
    await S.configure(betterReader, { writer: false });
    const rawReader = await rawSqlite3(path, PRAGMAS.reader);
    const rawWriter = await rawSqlite3(path, PRAGMAS.writer);
    const bReader = rawBetter(path, PRAGMAS.reader);
    const bWriter = rawBetter(path, PRAGMAS.writer);
    const closers: { close(): Promise<void> }[] = [
      serverWriter,
      serverReader,
      betterWriter,
      betterReader,
      rawReader,
      rawWriter,
      bReader,
      bWriter,
    ];

    try {
      const row = await serverReader.get<{ settings: string }>(
        'SELECT settings FROM waitlists WHERE id = ?',
        [wl],
      );
      assert(row, 'the seeded waitlist');
      const settings = S.settingsFromJson(row.settings);

      const versions = {
        sqlite3: (await serverReader.get<{ v: string }>('SELECT sqlite_version() AS v'))?.v,
        better: bReader.db.prepare('SELECT sqlite_version() AS v').get<{ v: string }>()?.v,
      };

      // ---- Which statements the server issues (recorded from its own store functions).
      const page1: PageQuery = { page: 1, limit: 25, q: '', status: 'waiting' };
      const search: PageQuery = { page: 1, limit: 25, q: SEARCH_Q, status: 'waiting' };
      const recPage = recording(serverReader);
      const pageResult = await S.listSubscribers(recPage, wl, settings, page1);
      assert(pageResult.items.length === 25 && pageResult.total === size, 'page 1 from the store');
      const recSearch = recording(serverReader);
      const searchResult = await S.listSubscribers(recSearch, wl, settings, search);
      assert(searchResult.total > 0, 'the search finds the seeded matches');
      const recWrite = recording(serverWriter);
      const created = await S.insertOrMatchSubscriber(
        recWrite,
        { ...freshSignup(wl, 'probe', 0), referralCode: undefined },
        S.systemClock.nowMicros(),
      );
      assert(created.outcome === 'created', 'the probe sign-up is created');
      const writeShape = recWrite.calls.map((c) => `${c.method}:${c.params.length}`).join(',');
      assert(
        writeShape === 'run:15',
        `store/subscribers.ts now issues ${writeShape} for a sign-up: ${STALE}`,
      );
      // A fresh sign-up without a referral code is one INSERT … SELECT (store/subscribers.ts).
      const insertSql = recWrite.calls[0]?.sql ?? '';
      // Fresh sign-ups that wait for the writer together are one INSERT … RETURNING for them all.
      const recGroup = recording(serverWriter);
      const pair = [freshSignup(wl, 'probe', 1), freshSignup(wl, 'probe', 2)];
      const grouped = await S.insertOrMatchMany(recGroup, pair, S.systemClock.nowMicros());
      assert(
        grouped.every((r) => r.outcome === 'created'),
        'the probe group is created',
      );
      const groupShape = recGroup.calls.map((c) => `${c.method}:${c.params.length}`).join(',');
      assert(groupShape === 'all:2', `store/subscribers.ts now issues ${groupShape} for a group: ${STALE}`);
      const groupSql = recGroup.calls[0]?.sql ?? '';

      // ---- Reads: per-call latency of page 1 and of the search, four ways.
      const readVariants = (rec: { calls: Call[] }, q: PageQuery) => [
        {
          name: 'server code, sqlite3 (its Connection)',
          fn: () => S.listSubscribers(serverReader, wl, settings, q),
        },
        {
          name: 'raw sqlite3, same statements',
          fn: async () => {
            for (const c of rec.calls) await rawReader[c.method === 'get' ? 'get' : 'all'](c.sql, c.params);
          },
        },
        {
          name: 'server code, better-sqlite3 (adapter)',
          fn: () => S.listSubscribers(betterReader, wl, settings, q),
        },
        {
          name: 'raw better-sqlite3, same statements (baseline)',
          baseline: true,
          fn: () => {
            for (const c of rec.calls) bReader.call(c.method === 'get' ? 'get' : 'all', c.sql, c.params);
          },
        },
      ];
      const readRows: Row[] = [];
      for (const [label, rec, q, calls] of [
        [`list page 1 (${recPage.calls.length} statements)`, recPage, page1, pageCalls],
        [`search q="${SEARCH_Q}" (${recSearch.calls.length} statements)`, recSearch, search, searchCalls],
      ] as const) {
        const variants = readVariants(rec, q);
        const times = variants.map((): number[] => []);
        for (let r = 0; r < rounds; r++) {
          for (const [i, v] of variants.entries()) {
            await perCall(Math.min(5, calls), v.fn); // warm-up
            times[i]?.push(await perCall(calls, v.fn));
          }
        }
        const base = median(times[variants.findIndex((v) => 'baseline' in v)] ?? []);
        for (const [i, v] of variants.entries()) {
          const value = median(times[i] ?? []);
          readRows.push({
            name: `${label}: ${v.name}`,
            value: fmtUs(value),
            baseline: fmtUs(base),
            ratio: fmtRatio(value / base),
          });
        }
      }

      // ---- Writes: sustainable fresh sign-ups per second, durable (WAL, synchronous = FULL).
      let written = 0;
      /** Sign-ups written from now until `deadline`, their emails made from `prefix`. */
      type Writes = (prefix: string, deadline: number) => Promise<number>;
      const committerVariant =
        (connection: SqlConnection): Writes =>
        async (prefix, deadline) => {
          const committer = new S.Committer(connection);
          // The server's store over this committer: its fresh sign-ups share one statement.
          const store = S.storeOver(
            { writer: committer, reader: connection, close: () => committer.close() },
            { nowMicros: S.systemClock.nowMicros },
          );
          let done = 0;
          const worker = async (w: number) => {
            for (let i = 0; performance.now() < deadline; i++) {
              const s = freshSignup(wl, `${prefix}.${w}`, i);
              const result = await store.signUpFresh(s);
              assert(result.outcome === 'created', `sign-up ${s.email}: ${result.outcome}`);
              done++;
            }
          };
          await Promise.all(Array.from({ length: IN_FLIGHT }, (_, w) => worker(w)));
          await committer.close();
          return done;
        };
      // The parameters of that statement, generated as insertOrMatchSubscriber generates them.
      // The waitlist's version: the server writes a sign-up decided on a remembered waitlist only
      // while the waitlist still has it (app/remembered-waitlists.ts).
      const { version } = (await serverReader.get<{ version: number }>(
        'SELECT version FROM waitlists WHERE id = ?',
        [wl],
      )) ?? { version: 0 };
      const signupParams = (s: FreshSignup): unknown[] => [
        IdPrefix.subscriber + randomString(BASE62_ALPHABET, 16),
        wl,
        s.email,
        s.emailNorm,
        s.email.toLowerCase(),
        generateReferralCode(),
        randomString(`${BASE62_ALPHABET}-_`, 24),
        S.systemClock.nowMicros(),
        null, // no confirm token: the waitlist does not confirm emails
        version, // decided on the remembered waitlist, as the server's hot path is
        null, // no answers to fields
        null, // no source
        null, // no source channel: direct
        null, // no variant key: not an address of a listed provider
        null, // no language of its own: the waitlist's
      ];
      // The single statement writes nothing on a conflict, and with fresh emails the one conflict
      // it can meet is a referral code already taken in the waitlist (one in a few thousand at a few
      // hundred thousand rows): drawn again, as the server does. True once the row is written.
      const inserted = (result: { changes: number }, attempt: number, params: unknown[]) => {
        if (result.changes === 1) return true;
        assert(attempt < 5, 'a fresh sign-up inserts its row');
        params[5] = generateReferralCode();
        return false;
      };
      // A referral code already taken in the waitlist aborts the group statement with this error.
      const codeTaken = (error: unknown, attempt: number) => {
        const message = error instanceof Error ? error.message : '';
        return attempt < 5 && /UNIQUE/.test(message) && message.includes('referral_code');
      };
      const batched =
        (batch: number, oneTransaction: (signups: FreshSignup[]) => Promise<void>): Writes =>
        async (prefix, deadline) => {
          let done = 0;
          for (let b = 0; performance.now() < deadline; b++) {
            await oneTransaction(
              Array.from({ length: batch }, (_, i) => freshSignup(wl, `${prefix}.${b}`, i)),
            );
            done += batch;
          }
          return done;
        };
      const rawSqlite3Batch = batched(IN_FLIGHT, async (signups) => {
        await rawWriter.run('BEGIN IMMEDIATE');
        for (const s of signups) {
          const params = signupParams(s);
          for (
            let attempt = 0;
            !inserted(await rawWriter.run(insertSql, params), attempt, params);
            attempt++
          );
        }
        await rawWriter.run('COMMIT');
      });
      // The group statement's parameters: the rows as JSON, as insertOrMatchMany writes them.
      const groupParams = (signups: FreshSignup[]) => [
        JSON.stringify(
          signups.map((s) => {
            const [id, , email, norm, search, code, token] = signupParams(s);
            return [wl, email, norm, id, code, token, search, null, version, null, null, null, null, null];
          }),
        ),
        S.systemClock.nowMicros(),
      ];
      // A drawn referral code already taken aborts the group statement (nothing written); as the
      // server then does, the sign-ups are written again, here as a group with codes drawn anew.
      const group = async (signups: FreshSignup[], insert: (params: Params) => unknown) => {
        for (let attempt = 0; ; attempt++) {
          try {
            const rows = (await insert(groupParams(signups))) as unknown[];
            return assert(rows.length === signups.length, 'the group statement inserts every row');
          } catch (error) {
            if (!codeTaken(error, attempt)) throw error;
          }
        }
      };
      const rawSqlite3Group = batched(IN_FLIGHT, async (signups) => {
        await rawWriter.run('BEGIN IMMEDIATE');
        await group(signups, (params) => rawWriter.all(groupSql, params));
        await rawWriter.run('COMMIT');
      });
      const betterGroup = batched(IN_FLIGHT, async (signups) => {
        bWriter.db.prepare('BEGIN IMMEDIATE').run();
        await group(signups, (params) => bWriter.call('all', groupSql, params));
        bWriter.db.prepare('COMMIT').run();
      });
      const betterBatch = (batch: number) =>
        batched(batch, async (signups) => {
          bWriter.db
            .transaction(() => {
              for (const s of signups) {
                const params = signupParams(s);
                for (
                  let attempt = 0;
                  !inserted(bWriter.call('run', insertSql, params) as { changes: number }, attempt, params);
                  attempt++
                );
              }
            })
            .immediate();
        });
      const writeVariants: { name: string; baseline?: true; fn: Writes }[] = [
        {
          name: `server write path on sqlite3: Committer + the store's signUpFresh, ${IN_FLIGHT} in flight`,
          fn: committerVariant(serverWriter),
        },
        {
          name: `raw sqlite3, the group statement, ${IN_FLIGHT} rows per statement and transaction`,
          fn: rawSqlite3Group,
        },
        { name: `raw sqlite3, a statement per sign-up, ${IN_FLIGHT} per transaction`, fn: rawSqlite3Batch },
        {
          name: `server write path on better-sqlite3 (adapter), ${IN_FLIGHT} in flight`,
          fn: committerVariant(betterWriter),
        },
        {
          name: `raw better-sqlite3, the group statement, ${IN_FLIGHT} rows per statement and transaction (baseline)`,
          baseline: true,
          fn: betterGroup,
        },
        {
          name: `raw better-sqlite3, a statement per sign-up, ${IN_FLIGHT} per transaction`,
          fn: betterBatch(IN_FLIGHT),
        },
        { name: 'raw better-sqlite3, one sign-up per transaction (an fsync each)', fn: betterBatch(1) },
      ];
      const rowsBefore = countSubscribers(path, wl);
      const rates = writeVariants.map((): number[] => []);
      for (let r = 0; r < rounds; r++) {
        for (const [i, v] of writeVariants.entries()) {
          const t0 = performance.now();
          const n = await v.fn(`w${r}v${i}`, t0 + writeSeconds * 1000);
          written += n;
          rates[i]?.push(n / ((performance.now() - t0) / 1000));
        }
      }
      const rate = (i: number) => median(rates[i] ?? []);
      const gained = countSubscribers(path, wl) - rowsBefore;
      assert(
        gained === written,
        `the write variants reported ${written} sign-ups, the table gained ${gained}`,
      );
      const dense = await serverReader.get<{ n: number; top: number }>(
        'SELECT count(*) AS n, max(seq) AS top FROM subscribers WHERE waitlist_id = ?',
        [wl],
      );
      assert(dense?.n === dense?.top, `seq is no longer dense: ${dense?.n} rows, max seq ${dense?.top}`);
      const baseRate = rate(writeVariants.findIndex((v) => v.baseline));
      const serverRate = rate(0);
      const betterServerRate = rate(3);
      const writeRows = writeVariants.map((v, i) => ({
        name: v.name,
        value: `${fmtInt(rate(i))} /s`,
        baseline: `${fmtInt(baseRate)} /s`,
        ratio: fmtRatio(rate(i) / baseRate),
      }));

      const sections: Section[] = [
        {
          title: 'Item 6: SQLite driver, reads (per call, median)',
          intro:
            `Waitlist of ${fmtInt(size)} subscribers, boost 0. ${rounds} round(s) of ${pageCalls} calls (page 1) and ` +
            `${searchCalls} calls (search) per variant, interleaved; median per-call time. "Server code" runs ` +
            '`listSubscribers` of store/subscribers.ts; "raw" replays the statements it issued (recorded) on the ' +
            'driver directly. Baseline: raw better-sqlite3.',
          rows: readRows,
        },
        {
          title: 'Item 6: SQLite driver, sign-up writes (durable: WAL, synchronous = FULL)',
          intro:
            'Fresh sign-ups without a referral code, as the public endpoint makes them: the group statement ' +
            'insertOrMatchMany issues for all the sign-ups waiting for the writer (what the server runs), and the ' +
            'single statement insertOrMatchSubscriber issues for one (what it ran before grouping), on the same ' +
            `file. ${rounds} round(s) of ${writeSeconds} s per variant, interleaved; median sign-ups per second. ` +
            'Baseline: raw better-sqlite3 running the group statement.',
          rows: writeRows,
          notes: [
            `Checked: every variant's sign-ups are rows (${fmtInt(written)} in all) and seq stayed dense.`,
            `Each driver bundles its own SQLite: sqlite3 ${versions.sqlite3}, better-sqlite3 ${versions.better}; ` +
              'both run with the pragmas the server sets (WAL, synchronous = FULL, foreign keys on).',
          ],
        },
      ];

      // ---- Is the driver the bottleneck of item 4? How busy the single writer is under wrk
      // (a probed build of the server), and a CPU profile of the real build.
      const verdict: string[] = [];
      const http4a = ctx.shared.throughputRps?.['4a'];
      const express = ctx.shared.throughputRps?.express;
      const noWrk = ctx.lacks('wrk', 'the bottleneck runs');
      if (noWrk) {
        sections.push({ title: 'Item 6: is the driver the bottleneck of item 4?', intro: noWrk, rows: [] });
        return { sections };
      }
      const seconds = ctx.smoke ? 1 : 5;
      const probed = await buildInstrumentedServer(dir);
      const writerRows: Row[] = [];
      let writer4a = { busy: Number.NaN, perJobUs: Number.NaN, statementUs: Number.NaN };
      for (const id of ['4a', '4c'] as const) {
        const scenario = await startScenario(id, { dir, script: probed, tag: '-probed' });
        try {
          const { run, stats, busy, perRequestUs } = await writerRun(scenario, {
            id,
            warmup: ctx.smoke ? 1 : 2,
            seconds,
          });
          // Per sign-up, not per job: a group of fresh sign-ups is one job.
          const perJobUs = perRequestUs;
          const statementUs = (stats.statementMs * 1000) / run.ok;
          if (id === '4a') writer4a = { busy, perJobUs, statementUs };
          writerRows.push({
            name: id === '4a' ? '4a public subscribe' : '4c API create',
            value: `${fmtInt(run.rps)} req/s`,
            busy: fmtPct(busy),
            batch: fmtInt(run.ok / stats.batches),
            perJob: fmtUs(perJobUs),
            statements: fmtUs(statementUs),
            ours: fmtUs(perJobUs - statementUs),
            alone: id === '4a' ? fmtUs(1e6 / serverRate) : '',
          });
        } finally {
          await scenario.stop();
        }
      }
      const saturated = writer4a.busy >= 0.9;
      const perSignup = (perSecond: number) => 1e6 / perSecond;
      const rawSqlite3Rate = rate(1);
      verdict.push(
        'Under wrk the group committer (the one writer; it writes the fresh sign-ups waiting for it with one ' +
          `statement, in one transaction) was busy ${fmtPct(writer4a.busy)} of the 4a run` +
          (saturated
            ? `: it is the bottleneck of 4a. A sign-up holds the writer ${fmtUs(writer4a.perJobUs)} under load. ` +
              `Without HTTP, the same code needs ${fmtUs(perSignup(serverRate))}, the same statement on raw sqlite3 ` +
              `${fmtUs(perSignup(rawSqlite3Rate))} and on raw better-sqlite3 ${fmtUs(perSignup(baseRate))} (the ` +
              "table above): SQLite's own work (the row, its indexes, the triggers that keep the search index, " +
              'the day counts and the outbox, the WAL and a share of each fsync) is ' +
              (baseRate >= serverRate
                ? "all of the writer's time without load, within this run's noise. "
                : `${fmtPct(perSignup(baseRate) / perSignup(serverRate))} of the writer's time without load, the ` +
                  `sqlite3 round trips and the server's code the other ` +
                  `${fmtUs(perSignup(serverRate) - perSignup(baseRate))}. `) +
              `Under load, ${fmtPct(writer4a.statementUs / writer4a.perJobUs)} of the writer's time was its ` +
              'statements in flight (the table below), all of it slower than without load, sharing the ' +
              'two cores with the HTTP handling and wrk. Another driver would shorten, not remove, the bottleneck: ' +
              `the server's code on better-sqlite3 made ${fmtInt(betterServerRate)}/s without HTTP, ` +
              `${fmtRatio(betterServerRate / serverRate)} sqlite3.`
            : ': it has head-room; the request handling, not the driver, caps 4a.'),
      );
      if (http4a !== undefined) {
        verdict.push(
          `(Item 4 measured 4a at ${fmtInt(http4a)} req/s; the write path alone sustains ${fmtInt(serverRate)}/s.)`,
        );
      }
      if (express !== undefined) {
        const goal = 0.6 * express;
        verdict.push(
          `The 4a goal (0.6 × the Express hello-world) means ${fmtInt(goal)} durable sign-ups/s here; the storage ` +
            `alone, raw better-sqlite3 with 50 sign-ups per commit and no HTTP at all, made ${fmtInt(baseRate)}/s ` +
            `(${fmtRatio(baseRate / express)} Express hello)` +
            (baseRate < goal
              ? ', so on this machine the goal is out of reach of any driver: each sign-up writes the table and ' +
                'its indexes and triggers, and is fsynced before it is answered.'
              : ': durable storage leaves little room above the goal for everything else a request does.'),
        );
      }
      sections.push({
        title: 'Item 6: is the driver the bottleneck of item 4? The single writer under wrk',
        intro: verdict.join(' '),
        columns: [
          { key: 'name', header: 'scenario (probed build, 50 connections)' },
          { key: 'value', header: 'throughput' },
          { key: 'busy', header: 'writer busy' },
          { key: 'batch', header: 'sign-ups per commit (mean)' },
          { key: 'perJob', header: 'writer time per sign-up' },
          { key: 'statements', header: 'of it in SQLite (statements in flight)' },
          { key: 'ours', header: 'of it waiting for our code' },
          { key: 'alone', header: 'baseline: same, no HTTP' },
        ],
        rows: writerRows,
        notes: [
          'The probed build is the server compiled from source with `Committer#commit` timed, and the ' +
            "statements of the writer's connection within it (see lib/instrumented-server.ts); its throughput " +
            'differs a little from dist/ (bundled packages). A statement is in flight from the call until its answer ' +
            "reaches the job: the hand-off to libuv's thread pool, SQLite's work (the rows, their indexes and " +
            "triggers, the WAL), a commit's fsync, and the wait for the main thread's event loop to take the answer " +
            "(under load it is busy with HTTP). The rest of a commit is the job's own code on the main thread.",
          '4c holds the writer for five round trips per create (savepoint, key re-check, insert, activity entry, release).',
        ],
      });

      const profDir = join(dir, 'profile');
      const scenario = await startScenario('4a', {
        dir,
        tag: '-profiled',
        nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profDir}`],
      });
      let rps: number;
      let exitAfterUs: number;
      let signups: number;
      let threads: { main: number; others: number };
      try {
        const pid = scenario.server.pid;
        const before = threadCpuSeconds(pid);
        const run = await load(scenario, { prefix: 'prof', seconds });
        const after = threadCpuSeconds(pid);
        checkWrkRun('profiled run', run, scenario.expected);
        rps = run.rps;
        signups = run.ok;
        const used = (tid: number) => (after.get(tid) ?? 0) - (before.get(tid) ?? 0);
        const all = [...after.keys()].reduce((sum, tid) => sum + used(tid), 0);
        threads = { main: used(pid), others: all - used(pid) };
        const t = performance.now();
        await scenario.stop();
        exitAfterUs = (performance.now() - t) * 1000;
      } finally {
        await scenario.stop().catch(() => undefined);
      }
      const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
      assert(file, 'node --cpu-prof wrote no profile');
      const summary = summarizeProfile(join(profDir, file), {
        top: 10,
        // The wrk run only, less a quarter second at each end.
        window: { endBeforeExitUs: exitAfterUs + 250_000, lengthUs: seconds * 1e6 - 500_000 },
      });
      // Per sign-up: the main thread's CPU, shared out as its busy samples were.
      const cpuPerSignup = (cpuSeconds: number) => (cpuSeconds * 1e6) / signups;
      const mainUs = cpuPerSignup(threads.main);
      sections.push({
        title: "Item 6: where a sign-up's microseconds go (4a under wrk)",
        intro:
          `The built server (dist/) under \`node --cpu-prof\`, 4a for ${seconds} s: ${fmtInt(rps)} req/s. CPU ` +
          "per sign-up of each thread of the process (from /proc), and the main thread's shared out by what its " +
          "profile's samples were running (the server's bundled code mapped back to its source files). The writer's " +
          "time per sign-up, and how much of it was SQLite, is the probed run's of the table above.",
        columns: [
          { key: 'name', header: 'where' },
          { key: 'us', header: 'per sign-up' },
          { key: 'share', header: "share of the main thread's busy time" },
        ],
        rows: [
          { name: '**main thread, all of it**', us: fmtUs(mainUs), share: fmtPct(1) },
          ...summary.groups
            .filter((g) => g.busyShare > 0)
            .map((g) => ({
              name: `main thread: ${g.name}`,
              us: fmtUs(mainUs * g.busyShare),
              share: fmtPct(g.busyShare),
            })),
          {
            name: "other threads: sqlite3's statements on libuv's thread pool (the writer), V8's GC helpers",
            us: fmtUs(cpuPerSignup(threads.others)),
            share: '',
          },
          {
            name: 'writer time per sign-up (probed run): in SQLite, statements in flight',
            us: fmtUs(writer4a.statementUs),
            share: '',
          },
          {
            name: 'writer time per sign-up (probed run): waiting for our code on the main thread',
            us: fmtUs(writer4a.perJobUs - writer4a.statementUs),
            share: '',
          },
        ],
        notes: [
          "The threads' rows are CPU time. The writer's rows are wall time: they count the time a sign-up held the single writer (its share of " +
            "each commit), SQLite's including the fsync and the thread pool's hand-offs; on a loaded machine the " +
            "thread also waits for a core. The main thread's groups share out its CPU by where its samples fell.",
        ],
      });
      sections.push({
        title: 'Item 6: where the server spends its main thread under wrk (4a, top self time)',
        intro:
          `The built server (dist/) under \`node --cpu-prof\`, 4a for ${seconds} s: ${fmtInt(rps)} req/s. The main ` +
          `thread was busy ${fmtPct(summary.busyShare)} of the run; idle, it waits for the thread pool, where ` +
          'sqlite3 runs each statement and the fsync of each commit.',
        columns: [
          { key: 'name', header: 'function' },
          { key: 'where', header: 'where' },
          { key: 'share', header: 'share of run' },
          { key: 'busy', header: 'share of busy time' },
        ],
        rows: summary.functions.map((f) => ({
          name: f.name,
          where: f.where,
          share: fmtPct(f.share),
          busy: fmtPct(f.busyShare),
        })),
        notes: [
          'By origin (share of busy time): ' +
            summary.origins
              .filter((o) => o.name !== '(idle)' && o.busyShare >= 0.005)
              .map((o) => `${o.name} ${fmtPct(o.busyShare)}`)
              .join(', ') +
            '.',
          "Calls into a native addon (sqlite3's Statement.run/all) have no frame of their own: their time is the " +
            "self time of the JavaScript function that calls them (in the server's store/sqlite/connection.ts). The ids, " +
            'status tokens and referral codes are drawn from a 4 KB pool of CSPRNG bytes (randomFillSync refills it).',
        ],
      });
      return { sections };
    } finally {
      for (const c of closers) await c.close();
    }
  },
} satisfies Benchmark;
