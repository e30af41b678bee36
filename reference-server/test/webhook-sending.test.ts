/**
 * Sending webhooks as an attacker would use it (issue 22, items 1 to 3): real servers whose names
 * resolve through a DNS server on loopback (WAITLIST_DNS_SERVERS), and hostile receivers. A name
 * rebound to 127.0.0.1 after the creation check is never called, and the tenant reads a generic
 * error; gzip bombs and endless bodies are recorded as their status with the server's memory
 * flat; a receiver that never answers times out; a redirect is not followed; and lookups stalled
 * on a nameserver that never answers hold up no sign-up.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { type Blackhole, blackhole, cli, type DnsServer, startDnsServer } from '@waitlistkit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELIVERY_ERRORS } from '../src/domain/delivery-errors.js';
import { apiList, type Harness, harness, ORIGIN, publicPost, until } from './helpers.js';
import { deliveriesUntil, rawReceiver } from './webhook-receiver.js';

/** Answered for the creation check (a public address), then 127.0.0.1 to every later question. */
const REBOUND = 'rebind.test';
const PUBLIC_ADDRESS = '93.184.215.14';

let dns: DnsServer;
beforeAll(async () => {
  dns = await startDnsServer(({ name, type, asked }) => {
    if (!name.endsWith('.test')) return undefined;
    if (type !== 'A') return { ttl: 0 };
    return { a: [name === REBOUND && asked === 0 ? PUBLIC_ADDRESS : '127.0.0.1'], ttl: 0 };
  });
});
afterAll(() => dns.close());

type Attempt = { status: number | null; error: string | null };
type Delivery = { id: string; state: string; attempts: Attempt[] };

/** An endpoint made through the command line, its name checked through the loopback DNS server. */
async function endpoint(
  h: Harness,
  operatorId: string,
  url: string,
  { allowPrivate = true, extra = [] as string[] } = {},
) {
  return cli<{ id: string }>(['webhook', 'create', '--operator', operatorId, '--url', url, ...extra], {
    db: h.db,
    env: {
      WAITLIST_DNS_SERVERS: dns.address,
      WAITLIST_WEBHOOK_ALLOW_PRIVATE: allowPrivate ? '1' : undefined,
    },
  });
}

async function deliveries(h: Harness, webhookId: string): Promise<Delivery[]> {
  return (await h.cli<{ items: Delivery[] }>(['webhook', 'deliveries', '--webhook', webhookId])).items;
}

/** Waits until `webhookId` has `count` deliveries, each with an attempt recorded. */
function attempted(h: Harness, webhookId: string, count = 1, timeoutMs = 30_000) {
  return deliveriesUntil(
    () => deliveries(h, webhookId),
    (items) => items.length >= count && items.every((d) => d.attempts.length > 0),
    timeoutMs,
  );
}

const ONE_RETRY_AN_HOUR = { WAITLIST_WEBHOOK_RETRY_SCHEDULE: '3600' };

describe('the address checked is the address connected to', () => {
  it('never calls a name rebound to 127.0.0.1 after the creation check, and tells the tenant only that it is not public', async () => {
    const h = await harness({ WAITLIST_DNS_SERVERS: dns.address, ...ONE_RETRY_AN_HOUR });
    const inside = await rawReceiver((_req, res) => res.writeHead(200).end());
    try {
      const t = await h.tenant({ waitlist: ['--origins', ORIGIN] });
      // The check at creation sees a public address, through the same kind of resolver.
      const hook = await endpoint(h, t.operatorId, `https://${REBOUND}:${inside.port}/hook`, {
        allowPrivate: false,
      });
      expect((await publicPost(h.server, t.waitlistId, { email: 'rebound@example.com' })).status).toBe(202);
      const [delivery] = await attempted(h, hook.id);
      expect(delivery?.attempts[0]).toMatchObject({ status: null, error: DELIVERY_ERRORS.not_public });
      // The server did ask, and was told 127.0.0.1: the connection's own lookup refused it.
      const asked = dns.questions.filter((q) => q.name === REBOUND && q.type === 'A');
      expect(asked.length).toBeGreaterThanOrEqual(2);
      expect(inside.counts.connections).toBe(0);
      expect(JSON.stringify(await deliveries(h, hook.id))).not.toContain('127.0.0.1');
      // The detail is the operator's, in the server's log.
      expect(h.server.output()).toMatch(
        /"msg":"webhook attempt failed".*rebind\.test resolves to 127\.0\.0\.1/,
      );
    } finally {
      await inside.close();
      await h.close();
    }
  });
});

describe('sending with private destinations allowed', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({
      WAITLIST_DNS_SERVERS: dns.address,
      WAITLIST_WEBHOOK_ALLOW_PRIVATE: '1',
      ...ONE_RETRY_AN_HOUR,
    });
  });
  afterAll(() => h.close());

  it('delivers to a name that the configured nameserver resolves to 127.0.0.1, over one kept-alive connection', async () => {
    const r = await rawReceiver((_req, res) =>
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok'),
    );
    try {
      const t = await h.tenant({ waitlist: ['--origins', ORIGIN] });
      const hook = await endpoint(h, t.operatorId, `http://local.test:${r.port}/hook`);
      await publicPost(h.server, t.waitlistId, { email: 'local@example.com' });
      await attempted(h, hook.id);
      await publicPost(h.server, t.waitlistId, { email: 'again@example.com' });
      const items = await attempted(h, hook.id, 2);
      expect(items.map((d) => d.attempts)).toEqual([
        [expect.objectContaining({ status: 200, error: null })],
        [expect.objectContaining({ status: 200, error: null })],
      ]);
      expect(r.requests).toEqual(['/hook', '/hook']);
      // A short answer read to its end leaves the connection to be used again.
      expect(r.counts.connections).toBe(1);
      expect(dns.queries).toContain('local.test');
    } finally {
      await r.close();
    }
  });

  it('records a redirect as its status and follows it nowhere', async () => {
    const elsewhere = await rawReceiver((_req, res) => res.writeHead(200).end());
    const moved = await rawReceiver((_req, res) =>
      res.writeHead(302, { Location: `http://127.0.0.1:${elsewhere.port}/landed` }).end(),
    );
    try {
      const t = await h.tenant({ waitlist: ['--origins', ORIGIN] });
      const hook = await endpoint(h, t.operatorId, `http://moved.test:${moved.port}/hook`);
      await publicPost(h.server, t.waitlistId, { email: 'moved@example.com' });
      const [delivery] = await attempted(h, hook.id);
      expect(delivery?.attempts[0]).toMatchObject({ status: 302, error: null });
      expect(moved.requests).toEqual(['/hook']);
      expect(elsewhere.counts.connections).toBe(0);
    } finally {
      await moved.close();
      await elsewhere.close();
    }
  });

  it('gives up on a receiver that never answers after the 15 s budget, as "did not answer in time"', async () => {
    const silent = await rawReceiver(() => undefined);
    try {
      const t = await h.tenant({ waitlist: ['--origins', ORIGIN] });
      const hook = await endpoint(h, t.operatorId, `http://silent.test:${silent.port}/hook`);
      await publicPost(h.server, t.waitlistId, { email: 'silent@example.com' });
      await until('the request', () => silent.requests.length > 0);
      const [delivery] = await attempted(h, hook.id, 1, 60_000);
      expect(delivery?.attempts[0]).toMatchObject({ status: null, error: DELIVERY_ERRORS.timed_out });
      expect(delivery?.attempts[0]?.error).not.toMatch(/127\.0\.0\.1|silent\.test/);
    } finally {
      await silent.close();
    }
  }, 90_000);
});

/** Resident memory of a process and its peak so far (VmRSS, VmHWM), in bytes. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) * 1024;
  return { rss: kib('VmRSS'), peak: kib('VmHWM') };
}

/** 2 MB of gzip members of 64 MiB of zeros each: 2 GiB once inflated. */
function gzipBomb(): Buffer {
  const member = gzipSync(Buffer.alloc(64 * 2 ** 20), { level: 9 });
  return Buffer.concat(Array.from({ length: 32 }, () => member));
}

/** Writes `chunk` every `everyMs` until the sender goes away: a body with no end. */
function forever(res: ServerResponse, chunk: Buffer | string, everyMs: number): void {
  const timer = setInterval(() => res.write(chunk), everyMs);
  res.on('close', () => clearInterval(timer));
}

describe('answers are not read', () => {
  it('records a 200 as soon as it comes, whatever follows: gzip bombs, an endless body and a trickle leave memory flat', async () => {
    const bomb = gzipBomb();
    const hostile: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
      bomb: (_req, res) =>
        res.writeHead(200, { 'Content-Encoding': 'gzip', 'Content-Length': String(bomb.length) }).end(bomb),
      endless: (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
        forever(res, Buffer.alloc(256 * 1024, 'x'), 10);
      },
      trickle: (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        forever(res, '.', 100);
      },
    };
    const receivers = await Promise.all(Object.values(hostile).map((respond) => rawReceiver(respond)));
    const h = await harness({
      WAITLIST_DNS_SERVERS: dns.address,
      WAITLIST_WEBHOOK_ALLOW_PRIVATE: '1',
      ...ONE_RETRY_AN_HOUR,
    });
    try {
      const t = await h.tenant({ waitlist: ['--origins', ORIGIN] });
      const hooks: { id: string }[] = [];
      for (const [i, name] of Object.keys(hostile).entries()) {
        hooks.push(await endpoint(h, t.operatorId, `http://${name}.test:${receivers[i]?.port}/hook`));
      }
      const pid = h.server.child.pid as number;
      const before = memoryOf(pid);
      const signups = 3;
      for (let i = 0; i < signups; i++) {
        expect((await publicPost(h.server, t.waitlistId, { email: `hostile${i}@example.com` })).status).toBe(
          202,
        );
      }
      for (const hook of hooks) {
        const items = await attempted(h, hook.id, signups);
        expect(items.map((d) => d.attempts.map((a) => a.status))).toEqual(Array(signups).fill([200]));
      }
      const after = memoryOf(pid);
      expect(after.peak - before.peak).toBeLessThan(100 * 2 ** 20);
      expect(after.rss - before.rss).toBeLessThan(100 * 2 ** 20);
      // And every connection was let go of: none is left reading an endless body.
      await until('every hostile connection closed', () =>
        receivers.every((r) => r.counts.connections >= signups && r.counts.closed === r.counts.connections),
      );
    } finally {
      await h.close();
      for (const r of receivers) await r.close();
    }
  }, 90_000);
});

describe('a nameserver that never answers', () => {
  let hole: Blackhole;
  let h: Harness;
  beforeAll(async () => {
    hole = await blackhole();
    h = await harness({
      WAITLIST_DNS_SERVERS: hole.address,
      WAITLIST_WEBHOOK_ALLOW_PRIVATE: '1',
      ...ONE_RETRY_AN_HOUR,
    });
  });
  afterAll(async () => {
    await h.close();
    await hole.close();
  });

  it('holds up no sign-up and no API request while lookups are stalled, then records the generic error', async () => {
    const t = await h.tenant({ waitlist: ['--origins', ORIGIN, '--ip-limit', '100000'] });
    const other = await h.cli<{ waitlist_id: string }>([
      'waitlist',
      'create',
      '--tenant',
      t.tenantId,
      '--name',
      'Other',
      '--origins',
      ORIGIN,
      '--ip-limit',
      '100000',
    ]);
    // Eight endpoints on the first waitlist, created while their names resolve (elsewhere).
    const names = Array.from({ length: 8 }, (_, i) => `stalled-${i}.test`);
    const hooks: { id: string }[] = [];
    for (const name of names) {
      hooks.push(
        await endpoint(h, t.operatorId, `http://${name}:9/hook`, { extra: ['--waitlist', t.waitlistId] }),
      );
    }
    /** Attempts that gave up so far: the sender logs each (the server's log, read as it comes). */
    const gaveUp = () => h.server.output().split('"msg":"webhook attempt failed"').length - 1;
    expect((await publicPost(h.server, t.waitlistId, { email: 'stalled@example.com' })).status).toBe(202);
    await until('every lookup asked of the silent nameserver', () =>
      names.every((n) => hole.queries.includes(n)),
    );
    // Eight lookups now wait on a nameserver that never answers (each gives up after about 3 s).
    // Were they on libuv's four pool threads, which every sqlite3 statement needs, nothing below
    // could be answered until some gave up: a sign-up and an API read are answered while none has.
    expect(gaveUp()).toBe(0);
    expect((await publicPost(h.server, other.waitlist_id, { email: 'during@example.com' })).status).toBe(202);
    expect((await apiList(h.server, t.key, other.waitlist_id)).status).toBe(200);
    expect(gaveUp()).toBe(0);
    // And a batch on top, answered whatever the lookups are doing meanwhile.
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        publicPost(h.server, other.waitlist_id, { email: `batch${i}@example.com` }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(202));

    // Then each attempt is recorded, after the resolver's timeout, with the generic error.
    for (const hook of hooks) {
      const [delivery] = await attempted(h, hook.id);
      expect(delivery?.attempts[0]).toMatchObject({ status: null, error: DELIVERY_ERRORS.no_address });
    }
  }, 90_000);
});
