/**
 * The reference-server set-ups of the throughput benchmark (item 4), also used by items 6 and 8:
 * a waitlist per scenario in its own SQLite file (or PostgreSQL database), a server process on it
 * (or several), and the wrk script and arguments that load it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, seedTenant, type Tenant } from '@waitlistkit/testkit';
import { countSubscribersPg, isPostgresUrl } from './postgres.js';
import { countSubscribers, seedSubscribers } from './seed.js';
import { type BenchServer, startBenchServer } from './servers.js';
import { wrkScript } from './wrk.js';

export const ORIGIN = 'https://bench.example';
/** Far above what one IP sends here in a run: the throttle is counted but never refuses. */
export const HUGE_LIMIT = '1000000';

export const SUBSCRIBE_PATH = (waitlistId: string, area: 'public' | 'api') =>
  `/v1/${area}/waitlists/${waitlistId}/subscribers`;

export type ScenarioId = '4a' | '4b' | '4c' | '4d' | '4e' | '4f';

/** Every row of item 4, in table order (baselines first). */
export const THROUGHPUT_ROWS = [
  { id: 'node', name: 'plain node:http hello-world JSON', baseline: true },
  { id: 'express', name: 'Express 5 hello-world JSON', baseline: true },
  { id: '4a', name: '4a public subscribe, fresh emails, no gates' },
  { id: '4a-pg', name: '4a on PostgreSQL, 1 server process', postgres: true, processes: 1 },
  { id: '4a-pg2', name: '4a on PostgreSQL, 2 server processes, one database', postgres: true, processes: 2 },
  { id: '4b', name: '4b public subscribe, every cheap gate on' },
  { id: '4c', name: '4c API create (Bearer key)' },
  { id: '4d', name: '4d API list page 1' },
  { id: '4e', name: '4e public subscribe as 4a, with two fields answered and a full source' },
  { id: '4f', name: '4f public subscribe as 4a, welcome message on, SMTP on loopback' },
] as const;

/** 4e's fields (docs/subscribers.md#fields): the two its sign-ups answer, and a consent they leave. */
const FIELDS_4E = [
  { key: 'company', label: 'Company', type: 'text', required: true },
  { key: 'role', label: 'Role', type: 'select', options: ['Engineer', 'Founder', 'Other'] },
  { key: 'news', label: 'Send me news', type: 'checkbox' },
];

/** 4f's welcome message (docs/messages.md): the tags a welcome mail would use, position among them. */
export const WELCOME_4F = {
  subject: 'Welcome to {{waitlist_name}}',
  body: 'Hi {{email}},\n\nYou are number {{position}} on the list, {{people_ahead}} people ahead of you.\n\nSee where you stand: {{status_url}}\n',
};

/** What wrk loads: one URL per server process, the script and its arguments, the status of every answer. */
export interface LoadTarget {
  urls: string[];
  scriptPath: string;
  /** The script's arguments; `prefix` keeps a run's emails apart from every other run's. */
  args(prefix: string): (string | number)[];
  expected: number;
  /** The server processes, whose CPU a run counts. */
  pids: number[];
  stop(): Promise<void>;
}

export interface Scenario extends LoadTarget {
  db: string;
  /** The first server process. */
  server: BenchServer;
  tenant: Tenant;
  /** Sign-ups: the rows the database gained are checked against wrk's answers. */
  countsRows: boolean;
  /** The waitlist's subscribers now. */
  rows(): Promise<number>;
}

/** The waitlist's settings (command-line options) and the server's environment of each scenario. */
const SETUP: Record<ScenarioId, { settings: string[]; env: Record<string, string> }> = {
  '4a': { settings: ['--origins', ORIGIN, '--ip-limit', HUGE_LIMIT], env: {} },
  '4b': {
    settings: [
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
    ],
    env: {},
  },
  '4c': { settings: [], env: { WAITLIST_KEY_RATE_LIMIT: HUGE_LIMIT } },
  '4d': { settings: ['--referrals', 'on'], env: { WAITLIST_KEY_RATE_LIMIT: HUGE_LIMIT } },
  '4e': { settings: ['--origins', ORIGIN, '--ip-limit', HUGE_LIMIT], env: {} },
  // The SMTP server's address comes with the options' env (item 4 starts its sink first).
  '4f': {
    settings: ['--origins', ORIGIN, '--ip-limit', HUGE_LIMIT],
    env: { WAITLIST_MAIL_FROM: 'Launch <waitlist@bench.example>' },
  },
};

export interface ScenarioOptions {
  /** The folder of the scenario's SQLite file. */
  dir: string;
  /** The URL of an empty PostgreSQL database instead of a SQLite file (not for 4d, which seeds a file). */
  postgres?: string;
  /** Server processes on the one database. */
  processes?: number;
  /** 4d's seeded subscribers. */
  listSize?: number;
  nodeArgs?: string[];
  /** Another build of the server (see instrumented-server.ts). */
  script?: string;
  /** Added to the file's name, so a scenario can be set up again beside the first. */
  tag?: string;
  /** Server variables added to the scenario's own. */
  env?: Record<string, string>;
  /** Runs once the tenant exists and before the server starts (item 8 adds webhook endpoints there). */
  beforeStart?(setup: { db: string; tenant: Tenant }): Promise<unknown>;
}

/** Creates the scenario's database and tenant, and starts its server (or `processes` of them). */
export async function startScenario(
  id: ScenarioId,
  {
    dir,
    postgres,
    processes = 1,
    listSize = 10_000,
    nodeArgs,
    script,
    tag = '',
    env,
    beforeStart,
  }: ScenarioOptions,
): Promise<Scenario> {
  const db = postgres ?? join(dir, `${id}${tag}.db`);
  if (id === '4d' && isPostgresUrl(db)) throw new Error('4d seeds a SQLite file: not on PostgreSQL');
  const setup = SETUP[id];
  const settings = [...setup.settings];
  if (id === '4e') {
    const file = join(dir, `fields${tag}.json`);
    writeFileSync(file, JSON.stringify(FIELDS_4E));
    settings.push('--fields', file);
  }
  const tenant = await seedTenant(db, { waitlist: settings });
  if (id === '4d') seedSubscribers(db, tenant.waitlistId, listSize);
  if (id === '4f') await setWelcome(db, tenant, join(dir, `welcome${tag}.txt`));
  await beforeStart?.({ db, tenant });
  const servers: BenchServer[] = [];
  try {
    for (let i = 0; i < processes; i++) {
      servers.push(await startBenchServer({ db, env: { ...setup.env, ...env }, nodeArgs, script }));
    }
  } catch (error) {
    for (const s of servers) await s.stop().catch(() => undefined);
    throw error;
  }
  const [server] = servers as [BenchServer];
  const area = id === '4c' || id === '4d' ? 'api' : 'public';
  const signUps = id !== '4d';
  return {
    db,
    server,
    tenant,
    pids: servers.map((s) => s.pid),
    urls: servers.map((s) => `${s.url}${SUBSCRIBE_PATH(tenant.waitlistId, area)}`),
    scriptPath: wrkScript(dir, id === '4e' ? 'subscribe-fields' : signUps ? 'subscribe' : 'get'),
    args: (prefix) =>
      id === '4d'
        ? [200, tenant.key]
        : [202, prefix, area === 'public' ? ORIGIN : '', area === 'api' ? tenant.key : ''],
    expected: signUps ? 202 : 200,
    countsRows: signUps,
    rows: async () =>
      isPostgresUrl(db) ? countSubscribersPg(db, tenant.waitlistId) : countSubscribers(db, tenant.waitlistId),
    async stop() {
      const results = await Promise.allSettled(servers.map((s) => s.stop()));
      const failed = results.find((r) => r.status === 'rejected');
      if (failed) throw failed.reason;
    },
  };
}

/** Saves 4f's welcome message, switched on, as an operator would: with the command line. */
async function setWelcome(db: string, tenant: Tenant, file: string): Promise<void> {
  writeFileSync(file, WELCOME_4F.body);
  await cli(
    [
      'message',
      'set',
      '--operator',
      tenant.operatorId,
      '--waitlist',
      tenant.waitlistId,
      '--kind',
      'welcome',
      '--subject',
      WELCOME_4F.subject,
      '--body-file',
      file,
      '--on',
    ],
    { db },
  );
}
