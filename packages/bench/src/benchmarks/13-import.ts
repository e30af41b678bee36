/**
 * Item 13: moving a list in (docs/moving-a-list.md). `subscriber import` of a CSV file of N rows
 * (1,000,000; a few thousand with --smoke) into an empty waitlist on SQLite, the command line as
 * built, in a process of its own whose peak memory (VmHWM) is read while it runs; beside a bare
 * better-sqlite3 bulk insert of the same rows, already parsed and numbered, into the same table
 * and indexes (and the same triggers: the search index, the created event) of a fresh database of
 * the same schema, in one transaction, with the server's durable pragmas.
 */
import { ok as assert } from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BASE62_ALPHABET, generateReferralCode, IdPrefix, randomString } from '@waitlistkit/protocol';
import { CLI_PATH, seedTenant } from '@waitlistkit/testkit';
import Database from 'better-sqlite3';
import type { Benchmark } from '../lib/bench.js';
import { countSubscribers } from '../lib/seed.js';
import { fmtInt, fmtRatio, metCell } from '../lib/stats.js';

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

/** The same rows inserted straight, numbered by join time, in one transaction; its seconds. */
function bareInsert(db: string, waitlist: string, n: number): number {
  // Every value made beforehand: the baseline times the insert alone.
  const codes = new Set<string>();
  while (codes.size < n) codes.add(generateReferralCode());
  const code = codes.values();
  const rows = Array.from({ length: n }, (_, i) => rowOf(i))
    .sort((a, b) => a.joinedUs - b.joinedUs)
    .map((row, i) => [
      IdPrefix.subscriber + randomString(BASE62_ALPHABET, 16),
      waitlist,
      i + 1,
      row.email,
      row.email,
      row.email,
      code.next().value as string,
      randomString(BASE62_ALPHABET, 24),
      i + 1,
      row.joinedUs,
    ]);
  const conn = new Database(db);
  try {
    conn.pragma('journal_mode = WAL');
    conn.pragma('synchronous = FULL');
    const insert = conn.prepare(
      `INSERT INTO subscribers (id, waitlist_id, seq, email, email_norm, email_search, referral_code, status_token,
                                referral_count, rank_key, joined_us) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)`,
    );
    const t0 = performance.now();
    conn.transaction(() => {
      for (const row of rows) insert.run(...row);
    })();
    return (performance.now() - t0) / 1000;
  } finally {
    conn.close();
  }
}

export default {
  id: '13',
  title: 'Import',
  async run(ctx) {
    const n = ctx.smoke ? 3_000 : 1_000_000;
    const dir = ctx.tempDir('import');
    const file = join(dir, 'list.csv');
    await writeCsv(file, n);

    const importDb = join(dir, 'import.db');
    const target = await seedTenant(importDb);
    ctx.log(`importing ${fmtInt(n)} rows`);
    const imported = await timedImport(importDb, target.operatorId, target.waitlistId, file);
    assert(imported.summary.imported === n, `imported ${imported.summary.imported} of ${n}`);
    assert(countSubscribers(importDb, target.waitlistId) === n, 'every row is on the waitlist');

    const bareDb = join(dir, 'bare.db');
    const bare = await seedTenant(bareDb);
    ctx.log(`inserting ${fmtInt(n)} rows with better-sqlite3`);
    const bareSeconds = bareInsert(bareDb, bare.waitlistId, n);
    assert(countSubscribers(bareDb, bare.waitlistId) === n, 'every bare row is on the waitlist');

    const rate = n / imported.seconds;
    const bareRate = n / bareSeconds;
    const ratio = rate / bareRate;
    const peakMb = imported.peak / 1024 / 1024;
    return {
      sections: [
        {
          title: `Item 13: import of ${fmtInt(n)} rows on SQLite`,
          intro:
            'subscriber import (the built command line, a process of its own: reading, checking, staging and ' +
            'the one transaction) against a bare better-sqlite3 insert of the same rows, parsed and numbered ' +
            'beforehand, into the same table and indexes in one transaction. Rates in rows per second.',
          columns: [
            { key: 'name', header: 'measure' },
            { key: 'value', header: 'import' },
            { key: 'baseline', header: 'baseline: bare insert' },
            { key: 'ratio', header: 'ratio' },
            { key: 'goal', header: 'goal' },
            { key: 'met', header: 'met' },
          ],
          rows: [
            {
              name: 'rows per second',
              value: fmtInt(rate),
              baseline: fmtInt(bareRate),
              ratio: fmtRatio(ratio),
              goal: `≥ ${RATE_GOAL}×`,
              met: metCell(ratio >= RATE_GOAL),
            },
            {
              name: 'peak memory of the importing process (MB)',
              value: fmtInt(peakMb),
              baseline: '—',
              ratio: '—',
              goal: `≤ ${RSS_GOAL_MB} MB`,
              met: metCell(peakMb <= RSS_GOAL_MB),
            },
          ],
          notes: [
            `Import: ${imported.seconds.toFixed(1)} s; bare insert: ${bareSeconds.toFixed(1)} s.`,
            'PostgreSQL against a bare COPY is not measured yet.',
          ],
        },
      ],
    };
  },
} satisfies Benchmark;
