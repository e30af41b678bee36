/**
 * Item 13: moving a list in (docs/moving-a-list.md). `subscriber import` of a CSV file of N rows
 * (1,000,000; a few thousand with --smoke) into an empty waitlist, the command line as built, in a
 * process of its own whose peak memory (VmHWM) is read while it runs; beside the bare bulk load of
 * each store of the same rows, already parsed and numbered, into the same table and indexes (and
 * the same triggers: the search index, the created event) of a fresh database of the same schema
 * (the server's migrations), in one transaction:
 * - SQLite: better-sqlite3's prepared insert, with the server's durable pragmas;
 * - PostgreSQL: a `COPY subscribers (…) FROM STDIN` on a throwaway cluster as durable as
 *   PostgreSQL ships (lib/postgres.ts). Skipped without PostgreSQL.
 */
import { ok as assert } from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BASE62_ALPHABET, generateReferralCode, IdPrefix, randomString } from '@waitlistkit/protocol';
import { CLI_PATH, seedTenant } from '@waitlistkit/testkit';
import Database from 'better-sqlite3';
import type { Benchmark, Context } from '../lib/bench.js';
import { copyIn, countSubscribersPg, startCluster } from '../lib/postgres.js';
import { countSubscribers } from '../lib/seed.js';
import { fmtInt, fmtRatio, metCell } from '../lib/stats.js';
import type { Section } from '../lib/table.js';

/** The ratio of rates the issue asks for, and the memory ceiling. */
const RATE_GOAL = 0.3;
const RSS_GOAL_MB = 300;

/** Row i: an address, and a join date spread over 2023 (so the import sorts, as real lists need). */
const rowOf = (i: number) => ({
  email: `person${i}@import-bench.example`,
  joinedUs: Date.UTC(2023, 0, 1) * 1000 + ((i * 7919) % 31_536_000) * 1_000_000,
});

async function writeCsv(path: string, n: number): Promise<void> {
  const out = createWriteStream(path);
  out.write('email,joined_at\n');
  for (let i = 0; i < n; i++) {
    const { email, joinedUs } = rowOf(i);
    if (!out.write(`${email},${new Date(joinedUs / 1000).toISOString()}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/** Peak resident memory of a process so far, in bytes (VmHWM), or 0 once it is gone. */
function peakRss(pid: number): number {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return Number(kb ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** The command line's import, timed, with its peak memory. */
async function timedImport(db: string, operator: string, waitlist: string, file: string) {
  const t0 = performance.now();
  const child = spawn(
    process.execPath,
    [
      CLI_PATH,
      'subscriber',
      'import',
      '--operator',
      operator,
      '--waitlist',
      waitlist,
      '--file',
      file,
      '--db',
      db,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk;
  });
  let peak = 0;
  const probe = setInterval(() => {
    peak = Math.max(peak, peakRss(child.pid as number));
  }, 20);
  const [code] = (await once(child, 'exit')) as [number];
  clearInterval(probe);
  const seconds = (performance.now() - t0) / 1000;
  assert(code === 0, `subscriber import exited ${code}`);
  return { seconds, peak, summary: JSON.parse(out) as { imported: number } };
}

/** A baseline's row: what the import would have made of row i of the file, numbered by join time. */
interface NumberedRow {
  id: string;
  seq: number;
  email: string;
  code: string;
  token: string;
  joinedUs: number;
}

/** The file's rows, numbered by join time, every value made beforehand: the baselines time the load alone. */
function numberedRows(n: number): NumberedRow[] {
  const codes = new Set<string>();
  while (codes.size < n) codes.add(generateReferralCode());
  const code = codes.values();
  return Array.from({ length: n }, (_, i) => rowOf(i))
    .sort((a, b) => a.joinedUs - b.joinedUs)
    .map((row, i) => ({
      id: IdPrefix.subscriber + randomString(BASE62_ALPHABET, 16),
      seq: i + 1,
      email: row.email,
      code: code.next().value as string,
      token: randomString(BASE62_ALPHABET, 24),
      joinedUs: row.joinedUs,
    }));
}

/** The columns both baselines fill (the address three times: as typed, normalised, searched). */
const COLUMNS = [
  'id',
  'waitlist_id',
  'seq',
  'email',
  'email_norm',
  'email_search',
  'referral_code',
  'status_token',
  'referral_count',
  'rank_key',
  'joined_us',
] as const;

const valuesOf = (row: NumberedRow, waitlist: string) => [
  row.id,
  waitlist,
  row.seq,
  row.email,
  row.email,
  row.email,
  row.code,
  row.token,
  0,
  row.seq,
  row.joinedUs,
];

/** SQLite's baseline: the rows inserted straight, in one transaction; its seconds. */
function bareInsert(db: string, waitlist: string, rows: readonly NumberedRow[]): number {
  const values = rows.map((row) => valuesOf(row, waitlist));
  const conn = new Database(db);
  try {
    conn.pragma('journal_mode = WAL');
    conn.pragma('synchronous = FULL');
    const insert = conn.prepare(
      `INSERT INTO subscribers (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`,
    );
    const t0 = performance.now();
    conn.transaction(() => {
      for (const row of values) insert.run(...row);
    })();
    return (performance.now() - t0) / 1000;
  } finally {
    conn.close();
  }
}

/** The rows in COPY's text format, in chunks of about a megabyte. No value holds a tab, newline or backslash. */
function copyChunks(waitlist: string, rows: readonly NumberedRow[]): Buffer[] {
  const chunks: Buffer[] = [];
  let text = '';
  for (const row of rows) {
    text += `${valuesOf(row, waitlist).join('\t')}\n`;
    if (text.length >= 1 << 20) {
      chunks.push(Buffer.from(text));
      text = '';
    }
  }
  if (text !== '') chunks.push(Buffer.from(text));
  return chunks;
}

/** PostgreSQL's baseline: the rows copied straight, in one transaction; its seconds. */
function bareCopy(url: string, waitlist: string, rows: readonly NumberedRow[]): Promise<number> {
  return copyIn(url, 'subscribers', COLUMNS, copyChunks(waitlist, rows));
}

/** One store's import and baseline, each into a fresh database of the server's schema. */
interface Store {
  name: string;
  baseline: string;
  /** A fresh database: a SQLite file's path or a PostgreSQL URL. */
  database(name: string): string;
  bare(db: string, waitlist: string, rows: readonly NumberedRow[]): number | Promise<number>;
  count(db: string, waitlist: string): number | Promise<number>;
}

interface Figures {
  rate: number;
  bareRate: number;
  peakMb: number;
  seconds: number;
  bareSeconds: number;
}

async function measure(
  ctx: Context,
  store: Store,
  file: string,
  rows: readonly NumberedRow[],
): Promise<Figures> {
  const n = rows.length;
  const importDb = store.database('import');
  const target = await seedTenant(importDb);
  ctx.log(`importing ${fmtInt(n)} rows on ${store.name}`);
  const imported = await timedImport(importDb, target.operatorId, target.waitlistId, file);
  assert(imported.summary.imported === n, `imported ${imported.summary.imported} of ${n}`);
  assert((await store.count(importDb, target.waitlistId)) === n, 'every row is on the waitlist');

  const bareDb = store.database('bare');
  const bare = await seedTenant(bareDb);
  ctx.log(`${store.baseline} of ${fmtInt(n)} rows`);
  const bareSeconds = await store.bare(bareDb, bare.waitlistId, rows);
  assert((await store.count(bareDb, bare.waitlistId)) === n, 'every bare row is on the waitlist');
  return {
    rate: n / imported.seconds,
    bareRate: n / bareSeconds,
    peakMb: imported.peak / 1024 / 1024,
    seconds: imported.seconds,
    bareSeconds,
  };
}

function section(store: Store, n: number, f: Figures, intro: string, notes: string[] = []): Section {
  const ratio = f.rate / f.bareRate;
  return {
    title: `Item 13: import of ${fmtInt(n)} rows on ${store.name}`,
    intro,
    columns: [
      { key: 'name', header: 'measure' },
      { key: 'value', header: 'import' },
      { key: 'baseline', header: `baseline: ${store.baseline}` },
      { key: 'ratio', header: 'ratio' },
      { key: 'goal', header: 'goal' },
      { key: 'met', header: 'met' },
    ],
    rows: [
      {
        // The store in the name: the goals table lists rows of every section together.
        name: `rows per second, ${store.name}`,
        value: fmtInt(f.rate),
        baseline: fmtInt(f.bareRate),
        ratio: fmtRatio(ratio),
        goal: `≥ ${RATE_GOAL}×`,
        met: metCell(ratio >= RATE_GOAL),
      },
      {
        name: `peak memory of the importing process, ${store.name} (MB)`,
        value: fmtInt(f.peakMb),
        baseline: '—',
        ratio: '—',
        goal: `≤ ${RSS_GOAL_MB} MB`,
        met: metCell(f.peakMb <= RSS_GOAL_MB),
      },
    ],
    notes: [`Import: ${f.seconds.toFixed(1)} s; ${store.baseline}: ${f.bareSeconds.toFixed(1)} s.`, ...notes],
  };
}

export default {
  id: '13',
  title: 'Import',
  async run(ctx) {
    const n = ctx.smoke ? 3_000 : 1_000_000;
    const dir = ctx.tempDir('import');
    const file = join(dir, 'list.csv');
    await writeCsv(file, n);
    const rows = numberedRows(n);

    const sqlite: Store = {
      name: 'SQLite',
      baseline: 'bare insert',
      database: (name) => join(dir, `${name}.db`),
      bare: bareInsert,
      count: countSubscribers,
    };
    const skipped = ctx.lacks('postgres', 'the PostgreSQL rows (import against a bare COPY)');
    const sections = [
      section(
        sqlite,
        n,
        await measure(ctx, sqlite, file, rows),
        'subscriber import (the built command line, a process of its own: reading, checking, staging and ' +
          'the one transaction) against a bare better-sqlite3 insert of the same rows, parsed and numbered ' +
          'beforehand, into the same table and indexes in one transaction. Rates in rows per second.',
        skipped ? [skipped] : [],
      ),
    ];
    if (skipped) return { sections };

    ctx.log('starting a PostgreSQL cluster (durable: fsync on, synchronous_commit on)');
    const cluster = await startCluster();
    try {
      const postgres: Store = {
        name: 'PostgreSQL',
        baseline: 'bare COPY',
        database: () => cluster.database(),
        bare: bareCopy,
        count: countSubscribersPg,
      };
      const figures = await measure(ctx, postgres, file, rows);
      sections.push(
        section(
          postgres,
          n,
          figures,
          'The same file imported by the same command line into a waitlist of a PostgreSQL database, against ' +
            'a bare COPY subscribers (…) FROM STDIN of the same rows, numbered beforehand, into the same table, ' +
            'indexes and triggers of a fresh database, in one transaction. A throwaway cluster, durable as ' +
            "PostgreSQL ships (fsync, synchronous_commit on). The peak memory is the command line's; " +
            "the cluster's processes are not counted. Rates in rows per second.",
        ),
      );
    } finally {
      await cluster.stop();
    }
    return { sections };
  },
} satisfies Benchmark;
