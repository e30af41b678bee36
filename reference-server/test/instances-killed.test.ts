/**
 * A process dies behind the load balancer (docs/self-hosting.md#a-server-that-dies): three `serve`
 * processes on one PostgreSQL database, a burst of sign-ups spread over them, and one of them
 * killed with SIGKILL in the middle of it, while it holds deliveries to a webhook endpoint (a
 * real receiver on loopback, holding its answers until the kill). The other two answer every
 * request sent to them, every 202 from any of the three is a row, and the receiver gets the event
 * of every row, signed as Standard Webhooks say; the attempts the killed process had under way
 * are made again by the others once its leases run out (docs/webhooks.md#the-outbox).
 *
 * PostgreSQL only: SQLite's servers share a file on one machine, where no lease outlives a
 * process that the next start does not see.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cli, type RunningServer, seedTenant, startServer, tempDir } from '@waitlistkit/testkit';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from './database.js';
import { ORIGIN, publicPost, SECRET, until } from './helpers.js';

const ENV = {
  WAITLIST_SECRET: SECRET,
  WAITLIST_WEBHOOK_ALLOW_PRIVATE: '1',
  WAITLIST_KEY_RATE_LIMIT: '100000',
  WAITLIST_LOG: 'quiet',
};
/** The outbox's lease (app/outbox.ts): how long a claimed delivery stays its worker's. */
const LEASE_MS = 60_000;
/** Per endpoint and process, attempts under way at once (app/outbox.ts `perEndpoint`). */
const PER_ENDPOINT = 4;
/** Sign-ups sent after the kill, so that the kill falls in the middle of the burst. */
const AFTER_KILL = 150;

/** One webhook request as the receiver saw it, and whether its sender stayed for the answer. */
interface Arrival {
  id: string;
  at: number;
  body: string;
  headers: Record<string, string>;
  answered: boolean;
  abandoned: boolean;
}

/**
 * A receiver on loopback that holds every answer until `release()`, then answers 204 at once. A
 * request whose connection closes before its answer was abandoned by its sender: the killed process.
 */
async function holdingReceiver() {
  const arrivals: Arrival[] = [];
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', async () => {
      const arrival: Arrival = {
        id: String(req.headers['webhook-id']),
        at: Date.now(),
        body,
        headers: req.headers as Record<string, string>,
        answered: false,
        abandoned: false,
      };
      arrivals.push(arrival);
      res.on('finish', () => {
        arrival.answered = true;
      });
      res.on('close', () => {
        arrival.abandoned = !arrival.answered;
      });
      await released;
      if (!res.destroyed) res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrivals,
    release,
    abandoned: () => arrivals.filter((a) => a.abandoned),
    /** Requests waiting for their answer now. */
    held: () => arrivals.filter((a) => !a.answered && !a.abandoned).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const dir = tempDir();
let servers: RunningServer[];
beforeAll(async () => {
  servers = await Promise.all([0, 1, 2].map(() => startServer({ db: dir.db, env: ENV })));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  dir.cleanup();
});

describe('three servers on one PostgreSQL, one killed with SIGKILL during a burst', () => {
  it('keep answering on the other two, keep every 202, and deliver every event, the killed one’s after its lease', async () => {
    const receiver = await holdingReceiver();
    try {
      const t = await seedTenant(dir.db, { waitlist: ['--origins', ORIGIN, '--ip-limit', '100000'] });
      const hook = await cli<{ secret: string }>(
        [
          'webhook',
          'create',
          '--operator',
          t.operatorId,
          '--url',
          receiver.url,
          '--events',
          'subscriber.created',
        ],
        { db: dir.db, env: ENV },
      );
      const victim = 2;
      let killedAt: number | undefined;
      let afterKill = 0;
      const accepted = new Set<string>();
      /** Per server: requests sent, and those without an answer (a socket error or a status other than 202). */
      const sent = [0, 0, 0];
      const answered = [0, 0, 0];
      const failed: string[][] = [[], [], []];

      // Twelve loops, as many connections behind a load balancer, each request to the next server.
      let n = 0;
      const loop = async () => {
        while (killedAt === undefined || afterKill < AFTER_KILL) {
          const i = n++;
          const s = i % 3;
          const email = `burst${i}@example.com`;
          if (killedAt !== undefined) afterKill++;
          sent[s] = (sent[s] ?? 0) + 1;
          const res = await publicPost(servers[s] as RunningServer, t.waitlistId, { email }).catch(
            (error: Error) => error,
          );
          if (!(res instanceof Error) && res.status === 202) {
            accepted.add(email);
            answered[s] = (answered[s] ?? 0) + 1;
          } else failed[s]?.push(`${email}: ${res instanceof Error ? res.message : res.status}`);
        }
      };
      const burst = Promise.all(Array.from({ length: 12 }, loop));

      // Each process holds as many attempts as it may at the receiver: the victim's among them.
      await until(
        'every process holding its attempts at the receiver',
        () => receiver.held() >= 3 * PER_ENDPOINT,
        60_000,
      );
      await (servers[victim] as RunningServer).stop('SIGKILL');
      killedAt = Date.now();
      // Its held attempts are those whose connections its death closed.
      await until('the victim’s attempts abandoned', () => receiver.abandoned().length === PER_ENDPOINT);
      receiver.release();
      await burst;

      // The other two answered every request sent to them; the victim some before it died.
      expect(failed[0]).toEqual([]);
      expect(failed[1]).toEqual([]);
      expect(sent[0]).toBeGreaterThan(AFTER_KILL / 3);
      expect(answered[victim]).toBeGreaterThan(0);

      // Every 202 is a row, and every row was asked for.
      const rows = await sql<{ email: string }>(
        dir.db,
        'SELECT email FROM subscribers WHERE waitlist_id = ?',
        [t.waitlistId],
      );
      const stored = new Set(rows.map((r) => r.email));
      expect([...accepted].filter((e) => !stored.has(e))).toEqual([]);
      expect([...stored].filter((e) => !/^burst\d+@example\.com$/.test(e))).toEqual([]);

      // The attempts the victim abandoned at its death, each made again by another after the lease.
      const abandoned = receiver.abandoned();
      expect(abandoned).toHaveLength(PER_ENDPOINT);
      expect(abandoned.every((a) => a.at < (killedAt as number))).toBe(true);

      // Every row's event arrives, answered, and verifies as Standard Webhooks.
      const webhook = new Webhook(hook.secret);
      const delivered = () => {
        const emails = new Map<string, Arrival>();
        for (const a of receiver.arrivals) {
          if (!a.answered) continue;
          const event = webhook.verify(a.body, a.headers) as { type: string; data: { email: string } };
          expect(event.type).toBe('subscriber.created');
          if (!emails.has(event.data.email)) emails.set(event.data.email, a);
        }
        return emails;
      };
      const emails = await until(
        'the event of every row delivered',
        () => {
          const got = delivered();
          return [...stored].every((e) => got.has(e)) && got;
        },
        LEASE_MS + 120_000,
      );
      expect([...emails.keys()].filter((e) => !stored.has(e))).toEqual([]);
      for (const lost of abandoned) {
        const again = receiver.arrivals.find((a) => a.id === lost.id && a.answered);
        expect(again, `the abandoned attempt ${lost.id} made again`).toBeDefined();
        // Not before the lease the victim took ran out: the claim came shortly before the first arrival.
        expect((again as Arrival).at - lost.at).toBeGreaterThan(LEASE_MS - 5_000);
      }
    } finally {
      receiver.release();
      await receiver.close();
    }
  }, 300_000);
});
