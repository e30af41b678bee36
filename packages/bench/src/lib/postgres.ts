/**
 * PostgreSQL for the benchmarks: the throwaway cluster of the server's PostgreSQL tests
 * (testkit's startPostgres: Debian's binaries, run as the `postgres` user when we are root), and
 * a `pg` client (the server's own copy of the driver) to seed, count, explain and COPY.
 *
 * The tests' cluster skips fsync; a benchmark's does not: DURABLE puts PostgreSQL's defaults back
 * (every commit flushed to disk, as SQLite's synchronous = FULL), with shared buffers large enough
 * for a waitlist of 1M subscribers and its indexes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createDatabase, dropDatabase, startPostgres } from '@waitlistkit/testkit';
import { from as copyFrom } from 'pg-copy-streams';
import { cpuSeconds, statFields } from './cpu.js';
import { WORKSPACE_ROOT } from './paths.js';

/** Settings after the tests' own (later ones win): durability as PostgreSQL ships it. */
const DURABLE = [
  'fsync=on',
  'synchronous_commit=on',
  'full_page_writes=on',
  'shared_buffers=512MB',
  'maintenance_work_mem=256MB',
];

/** The parts of `pg` the benchmarks use. */
export interface PgClient {
  connect(): Promise<void>;
  query<Row = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
  ): Promise<{ rows: Row[]; rowCount: number | null }>;
  end(): Promise<void>;
}

/** `pg` given pg-copy-streams' query object answers it back: the stream to write COPY's rows to. */
interface CopyClient {
  query(query: ReturnType<typeof copyFrom>): ReturnType<typeof copyFrom>;
}

/** The server's `pg`, so the benchmarks need no copy of their own. */
const pg = createRequire(join(WORKSPACE_ROOT, 'reference-server/package.json'))('pg') as {
  Client: new (config: { connectionString: string }) => PgClient;
};

/** Runs `fn(client)` on one connection to `url`, closed afterwards. */
export async function withClient<T>(url: string, fn: (client: PgClient) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * `COPY table (columns) FROM STDIN` of `chunks` (COPY's text format, rows already made), alone in
 * one transaction on a connection opened beforehand; the seconds from BEGIN to COMMIT.
 */
export function copyIn(
  url: string,
  table: string,
  columns: readonly string[],
  chunks: readonly Buffer[],
): Promise<number> {
  return withClient(url, async (client) => {
    const t0 = performance.now();
    await client.query('BEGIN');
    const copy = (client as unknown as CopyClient).query(
      copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`),
    );
    // Finished once PostgreSQL has answered the COPY, every row written.
    await pipeline(Readable.from(chunks), copy);
    await client.query('COMMIT');
    return (performance.now() - t0) / 1000;
  });
}

export interface Cluster {
  url: string;
  /** A fresh database of the cluster (its URL). */
  database(): string;
  drop(url: string): void;
  /** CPU the whole cluster has used so far: the postmaster, its live children and those it reaped. */
  cpuSeconds(): number;
  /** Bytes of WAL written so far (the current WAL position). */
  walBytes(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * What pg_stat_statements needs loaded at start (lib/statement-times.ts): the time of every
 * statement the server runs, counted by PostgreSQL itself, at a small cost to each.
 */
const STATEMENT_TIMES = [
  'shared_preload_libraries=pg_stat_statements',
  'pg_stat_statements.track=top',
  'pg_stat_statements.track_planning=on',
];

/**
 * A durable throwaway cluster (stopped and removed by `stop()`, or when the process exits);
 * `statements`: with the time of each statement kept (only where a benchmark reads them).
 */
export async function startCluster({ statements = false } = {}): Promise<Cluster> {
  const cluster = await startPostgres({ settings: [...DURABLE, ...(statements ? STATEMENT_TIMES : [])] });
  const postmaster = Number(readFileSync(`${cluster.dataDir}/postmaster.pid`, 'utf8').split('\n')[0]);
  return {
    url: cluster.url,
    database: () => createDatabase(cluster.url),
    drop: (url) => dropDatabase(url),
    cpuSeconds: () => clusterCpuSeconds(postmaster),
    walBytes: () =>
      withClient(cluster.url, async (client) => {
        const { rows } = await client.query<{ b: string }>(
          "SELECT pg_current_wal_lsn() - '0/0'::pg_lsn AS b",
        );
        return Number(rows[0]?.b);
      }),
    stop: () => cluster.stop(),
  };
}

/** The postmaster's CPU with its reaped children's, plus every live child's. */
function clusterCpuSeconds(postmaster: number): number {
  let total = cpuSeconds(postmaster, { children: true });
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      // The second field after the name is the parent; a process may end while we read.
      if (Number(statFields(`/proc/${pid}/stat`)[1]) === postmaster) total += cpuSeconds(pid) || 0;
    } catch {}
  }
  return total;
}

/** Number of subscribers of a waitlist (what every process on the database committed). */
export function countSubscribersPg(url: string, waitlistId: string): Promise<number> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM subscribers WHERE waitlist_id = $1',
      [waitlistId],
    );
    return rows[0]?.n ?? 0;
  });
}

export const isPostgresUrl = (db: string) => /^postgres(ql)?:\/\//.test(db);
