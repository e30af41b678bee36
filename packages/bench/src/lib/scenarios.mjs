/**
 * The reference-server set-ups of the throughput benchmark (item 4), also used by the driver
 * benchmark's profile: a waitlist per scenario in its own SQLite file (or PostgreSQL database), a
 * server process on it (or several), and the wrk script and arguments that load it.
 */
import { join } from 'node:path';
import { countSubscribersPg, isPostgresUrl } from './postgres.mjs';
import { seedTenant, startServer } from './proc.mjs';
import { countSubscribers, seedSubscribers } from './seed.mjs';
import { wrkScript } from './wrk.mjs';

export const ORIGIN = 'https://bench.example';
/** Far above what one IP sends here in a run: the throttle is counted but never refuses. */
export const HUGE_LIMIT = '1000000';

export const SUBSCRIBE_PATH = (waitlistId, area) => `/v1/${area}/waitlists/${waitlistId}/subscribers`;

/** Every scenario of item 4, in table order (baselines first). */
export const THROUGHPUT_SCENARIOS = [
  { id: 'node', name: 'plain node:http hello-world JSON', baseline: true },
  { id: 'express', name: 'Express 5 hello-world JSON', baseline: true },
  { id: '4a', name: '4a public subscribe, fresh emails, no gates' },
  { id: '4a-pg', name: '4a on PostgreSQL, 1 server process', postgres: true, processes: 1 },
  { id: '4a-pg2', name: '4a on PostgreSQL, 2 server processes, one database', postgres: true, processes: 2 },
  { id: '4b', name: '4b public subscribe, every cheap gate on' },
  { id: '4c', name: '4c API create (Bearer key)' },
  { id: '4d', name: '4d API list page 1' },
];

/**
 * Creates the database of a server scenario (a file of its own in `dir`, named after it and
 * `tag`, or `postgres`: the URL of an empty PostgreSQL database) and starts its server (`script`:
 * another build of it, see instrumented-server.mjs), or `processes` servers on the one database.
 * `beforeStart({ db, tenant })` runs once the tenant exists and before the server starts (item 8
 * adds a webhook endpoint there); `env` adds server variables. Returns
 * `{ server, servers, pids, db, waitlistId, url, urls, scriptPath, args(prefix), expected,
 * countsRows, rows(), stop }`: `url` is the first server's, `urls` every server's, and `rows()`
 * a number, or on PostgreSQL a promise of one.
 */
export async function startScenario(
  id,
  {
    dir,
    postgres,
    processes = 1,
    listSize = 10_000,
    nodeArgs = [],
    script,
    tag = '',
    env: extraEnv = {},
    beforeStart,
  },
) {
  const db = postgres ?? join(dir, `${id}${tag}.db`);
  if (id === '4d' && isPostgresUrl(db)) throw new Error('4d seeds a SQLite file: not on PostgreSQL');
  let settings = [];
  let env = {};
  if (id === '4a') settings = ['--origins', ORIGIN, '--ip-limit', HUGE_LIMIT];
  if (id === '4b') {
    settings = [
      '--origins',
      `https://www.bench.example,${ORIGIN},https://app.bench.example`,
      '--ip-limit',
      HUGE_LIMIT,
      '--email-throttle',
      'on',
      '--block-disposable',
      'on',
      '--geo-deny',
      'RU,KP,BY',
    ];
  }
  if (id === '4c' || id === '4d') env = { WAITLIST_KEY_RATE_LIMIT: HUGE_LIMIT };
  if (id === '4d') settings = ['--referrals', 'on'];
  const tenant = await seedTenant(db, settings);
  let seeded;
  if (id === '4d') seeded = seedSubscribers(db, tenant.waitlistId, listSize);
  await beforeStart?.({ db, tenant });
  const servers = [];
  try {
    for (let i = 0; i < processes; i++) {
      servers.push(
        await startServer({
          db,
          env: { ...env, ...extraEnv },
          nodeArgs,
          script,
          name: `server ${id}${tag}${processes > 1 ? ` #${i + 1}` : ''}`,
        }),
      );
    }
  } catch (error) {
    for (const s of servers) await s.stop().catch(() => undefined);
    throw error;
  }
  const [server] = servers;
  const base = {
    id,
    db,
    server,
    servers,
    tenant,
    seeded,
    pid: server.pid,
    pids: servers.map((s) => s.pid),
    async stop() {
      const results = await Promise.allSettled(servers.map((s) => s.stop()));
      const failed = results.find((r) => r.status === 'rejected');
      if (failed) throw failed.reason;
    },
    rows: isPostgresUrl(db)
      ? () => countSubscribersPg(db, tenant.waitlistId)
      : () => countSubscribers(db, tenant.waitlistId),
  };
  const urls = (area) => servers.map((s) => `${s.url}${SUBSCRIBE_PATH(tenant.waitlistId, area)}`);
  if (id === '4a' || id === '4b') {
    return {
      ...base,
      url: `${server.url}${SUBSCRIBE_PATH(tenant.waitlistId, 'public')}`,
      urls: urls('public'),
      scriptPath: wrkScript(dir, 'subscribe'),
      args: (prefix) => [202, prefix, ORIGIN, ''],
      expected: 202,
      countsRows: true,
    };
  }
  if (id === '4c') {
    return {
      ...base,
      url: `${server.url}${SUBSCRIBE_PATH(tenant.waitlistId, 'api')}`,
      urls: urls('api'),
      scriptPath: wrkScript(dir, 'subscribe'),
      args: (prefix) => [202, prefix, '', tenant.key],
      expected: 202,
      countsRows: true,
    };
  }
  return {
    ...base,
    url: `${server.url}${SUBSCRIBE_PATH(tenant.waitlistId, 'api')}`,
    urls: urls('api'),
    scriptPath: wrkScript(dir, 'get'),
    args: () => [200, tenant.key],
    expected: 200,
    countsRows: false,
  };
}
