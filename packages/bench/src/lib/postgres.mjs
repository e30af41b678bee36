/**
 * PostgreSQL for the benchmarks: the throwaway cluster of the server's PostgreSQL tests
 * (packages/testkit/src/postgres.ts, Debian's binaries, run as the `postgres` user when we are
 * root), compiled by esbuild once per run and imported from memory, so there is one copy of that
 * code; and a `pg` client (the server's own copy of the driver) to seed, count and explain.
 *
 * The tests' cluster skips fsync; a benchmark's does not: DURABLE puts PostgreSQL's defaults back
 * (every commit flushed to disk, as SQLite's synchronous = FULL), with shared buffers large enough
 * for a waitlist of 1M subscribers and its indexes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { cpuSeconds } from './cpu.mjs';
import { ROOT } from './proc.mjs';
import { bundleServerSource, NODE_BUNDLE } from './server-source.mjs';

const TESTKIT_POSTGRES = `${ROOT}packages/testkit/src/postgres.ts`;

/** Settings after the tests' own (later ones win): durability as PostgreSQL ships it. */
export const DURABLE = [
  'fsync=on',
  'synchronous_commit=on',
  'full_page_writes=on',
  'shared_buffers=512MB',
  'maintenance_work_mem=256MB',
];

let testkit;

/** testkit's postgres.ts as a module: `startPostgres`, `createDatabase`, `dropDatabase`, `postgresInstalled`. */
export function testkitPostgres() {
  testkit ??= build({
    entryPoints: [TESTKIT_POSTGRES],
    ...NODE_BUNDLE,
  }).then(
    ({ outputFiles }) =>
      import(`data:text/javascript;base64,${Buffer.from(outputFiles[0].text).toString('base64')}`),
  );
  return testkit;
}

export async function postgresInstalled() {
  return (await testkitPostgres()).postgresInstalled();
}

/**
 * A durable throwaway cluster (stopped and removed by `stop()`, or when the process exits).
 * `database()` hands out a fresh database of it; `cpuSeconds()` is the CPU the whole cluster has
 * used so far: the postmaster, its live children (backends, WAL writer, checkpointer…) and the
 * children it already reaped; `walBytes()` (a promise) how much WAL it has written.
 */
export async function startCluster() {
  const kit = await testkitPostgres();
  const cluster = await kit.startPostgres({ settings: DURABLE });
  const postmaster = Number(readFileSync(`${cluster.dataDir}/postmaster.pid`, 'utf8').split('\n')[0]);
  return {
    url: cluster.url,
    database: () => kit.createDatabase(cluster.url),
    drop: (url) => kit.dropDatabase(url),
    cpuSeconds: () => clusterCpuSeconds(postmaster),
    /** Bytes of WAL written so far (the current WAL position). */
    walBytes: () =>
      withClient(cluster.url, async (client) =>
        Number((await client.query("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn AS b")).rows[0].b),
      ),
    stop: () => cluster.stop(),
  };
}

/** The postmaster's CPU with its reaped children's, plus every live child's. */
function clusterCpuSeconds(postmaster) {
  const stat = (pid) => {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  };
  const own = stat(postmaster);
  let total = (Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14])) / 100;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      // Field 4, the parent; a process may end while we read.
      if (Number(stat(pid)[1]) === postmaster) total += cpuSeconds(pid) || 0;
    } catch {}
  }
  return total;
}

const serverRequire = createRequire(`${ROOT}reference-server/package.json`);
/** The server's `pg`, so the benchmarks need no copy of their own. */
export const pg = serverRequire('pg');

/** Runs `fn(client)` on one connection to `url`, closed afterwards. */
export async function withClient(url, fn) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Number of subscribers of a waitlist (what every process on the database committed). */
export function countSubscribersPg(url, waitlistId) {
  return withClient(url, async (client) => {
    const { rows } = await client.query('SELECT count(*)::int AS n FROM subscribers WHERE waitlist_id = $1', [
      waitlistId,
    ]);
    return rows[0].n;
  });
}

export const isPostgresUrl = (db) => /^postgres(ql)?:\/\//.test(db);

/** The server's PostgreSQL store code, bundled from its source (server-source.mjs). */
const STORE_ENTRY = `
export { openDatabase } from './store/postgres/database.ts';
export { insertOrMatchSubscriber } from './store/postgres/subscribers.ts';
export { postgresLimiter } from './store/postgres/throttles.ts';
export { slidingWindow } from './domain/throttle.ts';
`;

/**
 * A write of `db` whose phases are timed: when its first row lock was asked for (the first
 * statement with FOR UPDATE or FOR NO KEY UPDATE), when its function returned (COMMIT is sent
 * next), when the write settled (COMMIT returned: the WAL flushed and the locks released).
 */
function timedWrite(db, fn, method = 'write') {
  const t = { start: performance.now(), lock: undefined, fnEnd: undefined, end: undefined };
  /** `sql` noted (the time of the first locking statement), then `send()` sends it. */
  const mark = (sql, send) => {
    if (t.lock === undefined && /\bFOR (NO KEY )?UPDATE\b/.test(sql)) t.lock = performance.now();
    return send();
  };
  return db[method](async (tx) => {
    const timed = {
      run: (sql, params) => mark(sql, () => tx.run(sql, params)),
      get: (sql, params) => mark(sql, () => tx.get(sql, params)),
      all: (sql, params) => mark(sql, () => tx.all(sql, params)),
      exec: (sql) => mark(sql, () => tx.exec(sql)),
    };
    const value = await fn(timed);
    t.fnEnd = performance.now();
    return value;
  }).then((value) => {
    t.end = performance.now();
    return { value, ...t };
  });
}

/**
 * The database work of one public sign-up of 4a on PostgreSQL, run by the server's own store
 * code on an otherwise idle cluster, `n` times in turn: a round trip (`SELECT 1`), the per-IP
 * throttle's take (a transaction of its own) and the sign-up's transaction. Times in ms, per
 * phase: the whole transaction (BEGIN to COMMIT returned) and how long its row lock was held
 * (from the locking statement sent to COMMIT returned), and the sign-up's COMMIT alone.
 */
export async function timeSignupTransactions({ tmpDir, url, waitlistId, n }) {
  const file = await bundleServerSource(STORE_ENTRY, join(tmpDir, 'postgres-store.mjs'));
  const code = await import(pathToFileURL(file).href);
  const db = await code.openDatabase(url, { connections: 2 });
  try {
    // The limiter sees only the database's writes (`write`, and `writeUnflushed` where there is
    // one): give it timed ones.
    let lastTake;
    const timed = (method) => (fn) =>
      timedWrite(db, fn, method).then((t) => {
        lastTake = t;
        return t.value;
      });
    const timedDb = { ...db, write: timed('write') };
    if (db.writeUnflushed) timedDb.writeUnflushed = timed('writeUnflushed');
    const limiter = code.postgresLimiter(timedDb, 'ip', code.slidingWindow);
    const limit = { capacity: 1_000_000, windowMs: 60_000 };
    const out = { rtt: [], take: [], takeHeld: [], signup: [], signupHeld: [], commit: [] };
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      await db.reader.get('SELECT 1');
      out.rtt.push(performance.now() - t0);
      const t1 = performance.now();
      await limiter.take(`${waitlistId}|192.0.2.1`, Date.now(), limit);
      out.take.push(lastTake.end - t1);
      out.takeHeld.push(lastTake.end - lastTake.lock);
      const s = await timedWrite(db, (tx) =>
        code.insertOrMatchSubscriber(
          tx,
          {
            waitlistId,
            email: `probe.${i}@bench-mail.example`,
            emailNorm: `probe.${i}@bench-mail.example`,
            referralCode: undefined,
            confirm: false,
          },
          Date.now() * 1000,
        ),
      );
      if (s.value.outcome !== 'created') throw new Error(`sign-up probe ${i}: ${s.value.outcome}`);
      out.signup.push(s.end - s.start);
      out.signupHeld.push(s.end - s.lock);
      out.commit.push(s.end - s.fnEnd);
    }
    return out;
  } finally {
    await db.close();
  }
}
