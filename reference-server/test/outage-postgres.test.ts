/**
 * PostgreSQL goes away and comes back (issue 22, item 0): a throwaway cluster of this file's own,
 * stopped as a crash stops it (`pg_ctl -m immediate`) and started again, under a burst of
 * sign-ups and while idle. The server never exits, answers 202 or 503 with Retry-After and never
 * anything else, logs the outage once and its end once, reconnects by itself, and every 202 it
 * gave is a row afterwards. And a database that takes connections and never answers: no request
 * hangs on it. In the PostgreSQL-only list (vitest.config.ts): the `server-pg`
 * project runs it, which needs PostgreSQL anyway.
 */
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import {
  createDatabase,
  type PostgresCluster,
  type RunningServer,
  seedTenant,
  startPostgres,
  startServer,
  type Tenant,
} from '@waitlistkit/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from './database.js';
import { apiCreate, Browser, ORIGIN, publicPost, SECRET, until } from './helpers.js';

/** Longest any one request may take while the database is away: connection attempts are bounded. */
const REQUEST_BOUND_MS = 20_000;

let cluster: PostgresCluster;
beforeAll(async () => {
  // Commits wait for their WAL record to be written, as in production: a crash keeps what was
  // answered. (The tests' default, off, would lose the last commits to an immediate stop.)
  cluster = await startPostgres({ settings: ['synchronous_commit=on'] });
});
afterAll(() => cluster?.stop());

let server: RunningServer | undefined;
let relay: Relay | undefined;
afterEach(async () => {
  await cluster.restart();
  await server?.stop();
  server = undefined;
  await relay?.close();
  relay = undefined;
});

/** A fresh database, a server on it (at `serverUrl(db)`, by default the database itself), a tenant. */
async function started(
  serverUrl: (db: string) => string = (db) => db,
): Promise<{ server: RunningServer; db: string; tenant: Tenant }> {
  const db = createDatabase(cluster.url);
  server = await startServer({
    db: serverUrl(db),
    env: { WAITLIST_SECRET: SECRET, WAITLIST_KEY_RATE_LIMIT: '1000000' },
  });
  const tenant = await seedTenant(db, {
    waitlist: ['--origins', ORIGIN, '--ip-limit', '1000000', '--referrals', 'on'],
  });
  return { server, db, tenant };
}

const lines = (s: RunningServer, msg: string) =>
  s
    .output()
    .split('\n')
    .filter((line) => line.includes(`"msg":"${msg}"`));

interface Relay {
  port: number;
  /** Cuts every connection, and from now on takes new ones and never answers them. */
  silence(): void;
  /** Forwards new connections again. */
  resume(): void;
  close(): Promise<void>;
}

/** A TCP relay on loopback in front of the cluster: the network between the server and PostgreSQL. */
async function relayTo(port: number): Promise<Relay> {
  let silent = false;
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const listener: Server = createServer((client) => {
    track(client);
    if (silent) return;
    const upstream = tcpConnect(port, '127.0.0.1');
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  return {
    port: (listener.address() as { port: number }).port,
    silence() {
      silent = true;
      for (const socket of sockets) socket.destroy();
    },
    resume() {
      silent = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        listener.close(() => resolve());
      }),
  };
}

interface Answer {
  email: string;
  status: number | 'no answer';
  retryAfter: string | null;
  code?: string;
}

/** One sign-up, through the public door or the customer API, bounded in time. */
async function signUp(s: RunningServer, t: Tenant, email: string, door: 'public' | 'api'): Promise<Answer> {
  try {
    const res = await Promise.race([
      door === 'public'
        ? publicPost(s, t.waitlistId, { email })
        : apiCreate(s, t.key, t.waitlistId, { email }),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('no answer in time')), REQUEST_BOUND_MS).unref(),
      ),
    ]);
    const body = (await res.json().catch(() => undefined)) as { error?: { code: string } } | undefined;
    return { email, status: res.status, retryAfter: res.headers.get('Retry-After'), code: body?.error?.code };
  } catch {
    return { email, status: 'no answer', retryAfter: null };
  }
}

describe('PostgreSQL stopped hard and started again', () => {
  it('under a burst: only 202 or 503 with Retry-After, one outage and one recovery in the log, every 202 a row', {
    timeout: 240_000,
  }, async () => {
    const { server, db, tenant } = await started();
    const answers: Answer[] = [];
    let n = 0;
    let burst = true;
    const worker = async (w: number) => {
      while (burst) {
        const door = w % 2 === 0 ? 'public' : 'api';
        answers.push(await signUp(server, tenant, `burst-${w}-${n++}@example.com`, door));
      }
    };
    const workers = Array.from({ length: 8 }, (_, w) => worker(w));
    const accepted = () => answers.filter((a) => a.status === 202).length;

    try {
      const alive = () => server.child.exitCode === null && server.child.signalCode === null;

      await until('sign-ups accepted before the outage', () => accepted() >= 40, 60_000);
      await cluster.halt('immediate');
      const refusedAt = answers.length;
      await until(
        'a burst of answers while PostgreSQL is down (or the server gone)',
        () => answers.length >= refusedAt + 40 || !alive(),
        60_000,
      );
      expect(alive(), `the server exited:\n${server.output().slice(-3000)}`).toBe(true);
      await cluster.restart();
      const backAt = answers.length;
      await until(
        'a sign-up accepted after the restart',
        () => answers.slice(backAt).filter((a) => a.status === 202).length >= 20,
        60_000,
      );
    } finally {
      burst = false;
      await Promise.all(workers);
    }

    expect(server.child.exitCode, server.output()).toBeNull();
    expect(server.child.signalCode).toBeNull();
    const odd = answers.filter(
      (a) => !(a.status === 202 || (a.status === 503 && /^\d+$/.test(a.retryAfter ?? ''))),
    );
    expect(odd).toEqual([]);
    expect(answers.some((a) => a.status === 503)).toBe(true);
    expect(answers.filter((a) => a.status === 503).every((a) => a.code === 'service_unavailable')).toBe(true);

    // The probe finds the database within seconds of its return.
    await until('the recovery in the log', () => lines(server, 'database available again').length > 0);
    expect(lines(server, 'database unavailable')).toHaveLength(1);
    expect(lines(server, 'database available again')).toHaveLength(1);
    expect(lines(server, 'request failed')).toEqual([]);
    expect(lines(server, 'public subscribe failed')).toEqual([]);
    expect(lines(server, 'outbox tick failed')).toEqual([]);

    const rows = new Set(
      (await sql<{ email: string }>(db, 'SELECT email FROM subscribers')).map((r) => r.email),
    );
    const lost = answers.filter((a) => a.status === 202 && !rows.has(a.email)).map((a) => a.email);
    expect(lost).toEqual([]);

    const after = await signUp(server, tenant, 'after-the-outage@example.com', 'public');
    expect(after.status).toBe(202);
  });

  it('idle: 503 with Retry-After on every door while down, 202 at once after, /healthz follows, the outbox quiet', {
    timeout: 120_000,
  }, async () => {
    const { server, tenant } = await started();
    const first = await publicPost(server, tenant.waitlistId, { email: 'before@example.com' });
    expect(first.status).toBe(202);
    const { status_url } = (await first.json()) as { status_url: string };
    const operator = new Browser(server.url);
    expect((await operator.signIn(`admin-${tenant.tenantId}@test.example`)).res.status).toBe(303);

    await cluster.halt('immediate');

    const api = await signUp(server, tenant, 'api-while-down@example.com', 'api');
    expect(api).toMatchObject({ status: 503, code: 'service_unavailable' });
    expect(api.retryAfter).toMatch(/^\d+$/);
    const pub = await publicPost(server, tenant.waitlistId, { email: 'public-while-down@example.com' });
    expect(pub.status).toBe(503);
    expect(pub.headers.get('Retry-After')).toMatch(/^\d+$/);
    // The answer a browser's form can read: CORS headers on the 503 too.
    expect(pub.headers.get('Access-Control-Allow-Origin')).toBe(ORIGIN);
    const page = await fetch(status_url);
    expect(page.status).toBe(503);
    expect(page.headers.get('Retry-After')).toMatch(/^\d+$/);
    expect(page.headers.get('Content-Type')).toMatch(/^text\/html/);
    const dashboard = await operator.get('/dashboard/waitlists');
    expect(dashboard.res.status).toBe(503);
    expect(dashboard.html).toContain('Back in a moment');
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: 'unavailable' });

    await cluster.restart();
    const back = await signUp(server, tenant, 'after@example.com', 'api');
    expect(back.status).toBe(202);
    expect((await fetch(status_url)).status).toBe(200);
    await until('/healthz ok again', async () => (await fetch(`${server.url}/healthz`)).status === 200);

    expect(server.child.exitCode).toBeNull();
    expect(lines(server, 'database unavailable')).toHaveLength(1);
    expect(lines(server, 'database available again')).toHaveLength(1);
    expect(
      server
        .output()
        .split('\n')
        .filter((line) => line.includes('outbox')).length,
    ).toBeLessThanOrEqual(1);
  });

  it('a database that takes connections and never answers: every request answered 503 in bounded time, 202 once it answers', {
    timeout: 180_000,
  }, async () => {
    relay = await relayTo(Number(new URL(cluster.url).port));
    const through = (db: string) => {
      const url = new URL(db);
      url.port = String(relay?.port);
      return url.toString();
    };
    const { server, db, tenant } = await started(through);
    expect((await signUp(server, tenant, 'before@example.com', 'api')).status).toBe(202);

    relay.silence();
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        signUp(server, tenant, `silent-${i}@example.com`, i % 2 === 0 ? 'public' : 'api'),
      ),
    );
    expect(answers.map((a) => [a.status, a.code])).toEqual(answers.map(() => [503, 'service_unavailable']));
    expect((await fetch(`${server.url}/healthz`)).status).toBe(503);

    relay.resume();
    expect((await signUp(server, tenant, 'after@example.com', 'public')).status).toBe(202);
    await until('/healthz ok again', async () => (await fetch(`${server.url}/healthz`)).status === 200);
    expect(lines(server, 'database unavailable')).toHaveLength(1);
    expect(lines(server, 'database available again')).toHaveLength(1);
    const rows = await sql<{ email: string }>(db, 'SELECT email FROM subscribers ORDER BY email');
    expect(rows.map((r) => r.email)).toEqual(['after@example.com', 'before@example.com']);
  });
});
