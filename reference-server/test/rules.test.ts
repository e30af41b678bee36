/**
 * Rules the server implements that no other test checked: the activity entry of a create through
 * a key, the app URL and the listening address of `serve`, X-Forwarded-For with and without
 * `--trust-proxy`, geo from the offline database, the packaged disposable blocklist, a key revoked
 * while its request is in flight, and the status page of a waitlist without referrals or archived.
 */
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { ListPageSchema } from '@waitlistkit/protocol';
import {
  type DnsServer,
  type RunningServer,
  seedTenant,
  startDnsServer,
  startServer,
  type Tenant,
  tempDir,
} from '@waitlistkit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCreate, apiList, errorOf, type Harness, harness, ORIGIN, publicPost, SECRET } from './helpers.js';

const require = createRequire(import.meta.url);
const geoip = require('geoip-country') as { lookup(ip: string): { country: string } | null };
const disposableDomains = require('disposable-email-domains-js') as {
  disposableEmailBlocklistSet(): Set<string>;
};

let plain: Harness;
let proxied: Harness;
beforeAll(async () => {
  [plain, proxied] = await Promise.all([harness(), harness({}, ['--trust-proxy'])]);
});
afterAll(async () => {
  await Promise.all([plain?.close(), proxied?.close()]);
});

const json = { 'Content-Type': 'application/json' };
const forwardedFor = (ip: string) => ({ ...json, Origin: ORIGIN, 'X-Forwarded-For': ip });

interface Accepted {
  status_token: string;
  status_url: string;
}

interface ActivityEntry {
  actor: { type: string; id: string; name: string };
  action: string;
  subject_id: string | null;
  details: Record<string, unknown>;
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('activity entry of a create through a key (docs/protocol.md#activity-log)', () => {
  it('names the key as actor and says whether the create made a new subscriber', async () => {
    const t = await plain.tenant();
    const importer = await plain.cli<{ id: string; value: string }>([
      'key',
      'create',
      '--operator',
      t.operatorId,
      '--name',
      'Nightly importer',
      '--preset',
      'full',
    ]);
    expect(
      (await apiCreate(plain.server, importer.value, t.waitlistId, { email: 'Ada@Example.com' })).status,
    ).toBe(202);
    // A refused create is no accepted create: it writes nothing.
    expect(
      (await apiCreate(plain.server, importer.value, t.waitlistId, { email: 'not an email' })).status,
    ).toBe(400);
    // The same person again (normalised): a re-sign-up, no new subscriber.
    expect(
      (await apiCreate(plain.server, importer.value, t.waitlistId, { email: ' ada@example.COM ' })).status,
    ).toBe(202);

    const page = ListPageSchema.parse(
      await (await apiList(plain.server, importer.value, t.waitlistId)).json(),
    );
    expect(page.total).toBe(1);
    const subscriberId = page.items[0]?.id;

    const activity = await plain.cli<{ items: ActivityEntry[] }>(['activity', '--tenant', t.tenantId]);
    const byKeys = activity.items.filter((entry) => entry.actor.type === 'key');
    const actor = { type: 'key', id: importer.id, name: 'Nightly importer' };
    // Newest first: the re-sign-up, then the fresh sign-up.
    expect(byKeys).toHaveLength(2);
    expect(byKeys[0]).toMatchObject({
      actor,
      subject_id: subscriberId,
      details: { waitlist_id: t.waitlistId, new_subscriber: false },
    });
    expect(byKeys[1]).toMatchObject({
      actor,
      subject_id: subscriberId,
      details: { waitlist_id: t.waitlistId, new_subscriber: true },
    });
    expect(JSON.stringify(activity)).not.toContain(importer.value);
  });
});

describe('serve: app URL, host and port', () => {
  /** The same server, addressed on the socket it listens on rather than by its base URL. */
  const onSocket = (server: RunningServer): RunningServer => ({
    ...server,
    url: `http://127.0.0.1:${server.port}`,
  });

  async function withServer(
    options: { env?: Record<string, string>; args?: string[]; port?: number | null },
    body: (server: RunningServer) => Promise<void>,
  ) {
    const dir = tempDir();
    const server = await startServer({
      db: dir.db,
      ...options,
      env: { WAITLIST_SECRET: SECRET, ...options.env },
    });
    try {
      await body(server);
    } finally {
      await server.stop();
      dir.cleanup();
    }
  }

  async function expectStatusUrlsOn(server: RunningServer, appUrl: string) {
    const t = await seedTenant(server.db, { waitlist: ['--referrals', 'on', '--origins', ORIGIN] });
    const pub = await publicPost(server, t.waitlistId, { email: 'app-url@example.com' });
    const api = await apiCreate(server, t.key, t.waitlistId, { email: 'app-url-api@example.com' });
    expect([pub.status, api.status]).toEqual([202, 202]);
    for (const body of [(await pub.json()) as Accepted, (await api.json()) as Accepted]) {
      expect(body.status_token).not.toBe('');
      expect(body.status_url).toBe(`${appUrl}/s/${body.status_token}`);
    }
  }

  it('puts --app-url, not --base-url, in status_url', async () => {
    const base = 'http://api.waitlist.test';
    const app = 'https://app.waitlist.test';
    await withServer({ args: ['--base-url', base, '--app-url', app] }, async (server) => {
      // The listening line announces the base URL; requests go to the socket.
      expect(server.url).toBe(base);
      expect(server.output()).toContain(`"app_url":"${app}"`);
      await expectStatusUrlsOn(onSocket(server), app);
    });
  });

  it('puts APP_URL, not BASE_URL, in status_url', async () => {
    const base = 'http://api.env-waitlist.test';
    const app = 'https://app.env-waitlist.test';
    await withServer({ env: { BASE_URL: base, APP_URL: app } }, async (server) => {
      expect(server.url).toBe(base);
      expect(server.output()).toContain(`"app_url":"${app}"`);
      await expectStatusUrlsOn(onSocket(server), app);
    });
  });

  it('listens on the address of --host', async () => {
    await withServer({ args: ['--host', '127.0.0.3'] }, async (server) => {
      expect(server.url).toBe(`http://127.0.0.3:${server.port}`);
      const res = await fetch(`http://127.0.0.3:${server.port}/healthz`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'ok' });
    });
  });

  it('listens on HOST and PORT from the environment when no option gives them', async () => {
    // A port the kernel just handed out and took back: free for the server to take.
    const port = await new Promise<number>((resolve, reject) => {
      const probe = createServer();
      probe.once('error', reject);
      probe.listen(0, '127.0.0.2', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    await withServer({ port: null, env: { HOST: '127.0.0.2', PORT: String(port) } }, async (server) => {
      expect(server.port).toBe(port);
      expect(server.url).toBe(`http://127.0.0.2:${port}`);
      const res = await fetch(`http://127.0.0.2:${port}/healthz`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'ok' });
      // The base URL it derived is where it is reached: status URLs point there.
      await expectStatusUrlsOn(server, `http://127.0.0.2:${port}`);
    });
  });
});

describe('X-Forwarded-For: ignored without --trust-proxy, honoured with it', () => {
  it('without --trust-proxy, requests forwarded for different addresses share the peer’s budget', async () => {
    const t = await plain.tenant({ waitlist: ['--origins', ORIGIN, '--ip-limit', '2'] });
    const statuses: number[] = [];
    for (const [i, ip] of ['198.51.100.1', '198.51.100.2', '198.51.100.3'].entries())
      statuses.push(
        (await publicPost(plain.server, t.waitlistId, { email: `p${i}@example.com` }, forwardedFor(ip)))
          .status,
      );
    expect(statuses).toEqual([202, 202, 429]);
  });

  it('with --trust-proxy, each forwarded address has its own budget', async () => {
    const t = await proxied.tenant({ waitlist: ['--origins', ORIGIN, '--ip-limit', '2'] });
    const statuses: number[] = [];
    for (const [i, ip] of [
      '198.51.100.1',
      '198.51.100.1',
      '198.51.100.1',
      '198.51.100.2',
      '198.51.100.3',
    ].entries())
      statuses.push(
        (await publicPost(proxied.server, t.waitlistId, { email: `p${i}@example.com` }, forwardedFor(ip)))
          .status,
      );
    expect(statuses).toEqual([202, 202, 429, 202, 202]);
  });

  it('without --trust-proxy, the geo gate ignores a forwarded public address (loopback has no country)', async () => {
    const country = geoip.lookup('8.8.8.8')?.country as string;
    expect(country).toMatch(/^[A-Z]{2}$/);
    const deny = await plain.tenant({ waitlist: ['--origins', ORIGIN, '--geo-deny', country] });
    const allow = await plain.tenant({ waitlist: ['--origins', ORIGIN, '--geo-allow', country] });
    const headers = forwardedFor('8.8.8.8');
    const apiHeaders = { ...headers, Authorization: `Bearer ${deny.key}` };
    expect(
      (await publicPost(plain.server, deny.waitlistId, { email: 'd@example.com' }, headers)).status,
    ).toBe(202);
    const apiDeny = await fetch(`${plain.server.url}/v1/api/waitlists/${deny.waitlistId}/subscribers`, {
      method: 'POST',
      headers: apiHeaders,
      body: JSON.stringify({ email: 'd-api@example.com' }),
    });
    expect(apiDeny.status).toBe(202);
    const refused = await publicPost(plain.server, allow.waitlistId, { email: 'a@example.com' }, headers);
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).code).toBe('geo_restricted');
  });
});

describe('geo from a public address through the offline database (--trust-proxy)', () => {
  const FIRST = '8.8.8.8';
  const SECOND = '81.2.69.142';
  let first: string;
  let second: string;
  let deny: Tenant;
  let allow: Tenant;
  beforeAll(async () => {
    // The countries as the package itself has them, not as this test believes them to be.
    first = geoip.lookup(FIRST)?.country as string;
    second = geoip.lookup(SECOND)?.country as string;
    expect(first).toMatch(/^[A-Z]{2}$/);
    expect(second).toMatch(/^[A-Z]{2}$/);
    expect(second).not.toBe(first);
    deny = await proxied.tenant({ waitlist: ['--origins', ORIGIN, '--geo-deny', first] });
    allow = await proxied.tenant({ waitlist: ['--origins', ORIGIN, '--geo-allow', first] });
  });

  const cases = [
    { name: 'the denied country', list: 'deny', ip: FIRST, status: 403 },
    { name: 'another country under the deny-list', list: 'deny', ip: SECOND, status: 202 },
    { name: 'the allowed country', list: 'allow', ip: FIRST, status: 202 },
    { name: 'another country under the allow-list', list: 'allow', ip: SECOND, status: 403 },
  ] as const;

  it.each(cases)('public subscribe: $name ($ip) → $status', async ({ list, ip, status }) => {
    const t = list === 'deny' ? deny : allow;
    const res = await publicPost(
      proxied.server,
      t.waitlistId,
      { email: `pub-${ip}@example.com` },
      forwardedFor(ip),
    );
    expect(res.status).toBe(status);
    if (status === 403) expect((await errorOf(res)).code).toBe('geo_restricted');
  });

  it.each(cases)(
    'customer API without client_country: $name ($ip) → $status',
    async ({ list, ip, status }) => {
      const t = list === 'deny' ? deny : allow;
      const res = await fetch(`${proxied.server.url}/v1/api/waitlists/${t.waitlistId}/subscribers`, {
        method: 'POST',
        headers: { ...json, Authorization: `Bearer ${t.key}`, 'X-Forwarded-For': ip },
        body: JSON.stringify({ email: `api-${ip}@example.com` }),
      });
      expect(res.status).toBe(status);
      if (status === 403) expect((await errorOf(res)).code).toBe('geo_restricted');
    },
  );
});

describe('disposable blocklist from the package', () => {
  const DOMAIN = 'mailinator.com';

  it(`refuses ${DOMAIN} with 400 invalid_email on both endpoints when on, accepts it when off`, async () => {
    expect(disposableDomains.disposableEmailBlocklistSet().has(DOMAIN)).toBe(true);
    const t = await plain.tenant({ waitlist: ['--origins', ORIGIN] });
    const blocking = await plain.cli<{
      waitlist_id: string;
      block_disposable: boolean;
      disposable_domains: string[];
    }>([
      'waitlist',
      'create',
      '--tenant',
      t.tenantId,
      '--name',
      'Blocking',
      '--origins',
      ORIGIN,
      '--block-disposable',
      'on',
    ]);
    // No extra domains of its own: the refusal can only come from the packaged list.
    expect(blocking.block_disposable).toBe(true);
    expect(blocking.disposable_domains).toEqual([]);

    for (const res of [
      await publicPost(plain.server, blocking.waitlist_id, { email: `pub@${DOMAIN}` }),
      await apiCreate(plain.server, t.key, blocking.waitlist_id, { email: `api@${DOMAIN}` }),
    ]) {
      expect(res.status).toBe(400);
      expect((await errorOf(res)).code).toBe('invalid_email');
    }
    // The same waitlist takes an ordinary address; a waitlist with the blocklist off takes this one.
    expect((await publicPost(plain.server, blocking.waitlist_id, { email: 'pub@example.com' })).status).toBe(
      202,
    );
    expect((await publicPost(plain.server, t.waitlistId, { email: `pub@${DOMAIN}` })).status).toBe(202);
    expect((await apiCreate(plain.server, t.key, t.waitlistId, { email: `api@${DOMAIN}` })).status).toBe(202);
  });
});

describe('hosted status page: 404 without referrals and once archived', () => {
  it('answers 404 after referrals are turned off, 200 when they are back, 404 once the waitlist is archived', async () => {
    const t = await plain.tenant({ waitlist: ['--referrals', 'on', '--origins', ORIGIN] });
    const accepted = (await (
      await publicPost(plain.server, t.waitlistId, { email: 'me@example.com' })
    ).json()) as Accepted;
    const page = () => fetch(accepted.status_url);
    expect((await page()).status).toBe(200);

    await plain.cli(['waitlist', 'update', '--waitlist', t.waitlistId, '--referrals', 'off']);
    const off = await page();
    expect(off.status).toBe(404);
    expect(await off.text()).toContain('Page not found');

    await plain.cli(['waitlist', 'update', '--waitlist', t.waitlistId, '--referrals', 'on']);
    expect((await page()).status).toBe(200);

    await plain.cli(['waitlist', 'archive', '--waitlist', t.waitlistId]);
    const archived = await page();
    expect(archived.status).toBe(404);
    expect(await archived.text()).toContain('Page not found');
  });
});

describe('a key revoked while its create is in flight (docs/protocol.md#api-keys)', () => {
  const held = deferred();
  const asked = deferred();
  let dns: DnsServer;
  let h: Harness;
  beforeAll(async () => {
    dns = await startDnsServer(
      { 'held.example': [{ exchange: 'mx.held.example', priority: 10 }] },
      {
        // The first lookup of the held domain waits for the test to release it.
        beforeAnswer: async (name) => {
          if (name !== 'held.example') return;
          asked.resolve();
          await held.promise;
        },
      },
    );
    h = await harness({ WAITLIST_DNS_SERVERS: dns.address });
  });
  afterAll(async () => {
    held.resolve();
    await h?.close();
    await dns?.close();
  });

  it('answers 401 and creates nothing when the revocation lands during the MX lookup', async () => {
    const t = await h.tenant({ waitlist: ['--mx-check', 'on'] });
    const keyId = (await h.cli<{ items: { id: string }[] }>(['key', 'list', '--tenant', t.tenantId])).items[0]
      ?.id as string;
    const witness = await h.cli<{ value: string }>([
      'key',
      'create',
      '--operator',
      t.operatorId,
      '--name',
      'Witness',
      '--preset',
      'full',
    ]);

    const inFlight = apiCreate(h.server, t.key, t.waitlistId, { email: 'ada@held.example' });
    // Past authentication and every check before it: the server is waiting on the DNS.
    const first = await Promise.race([
      asked.promise.then(() => 'mx lookup' as const),
      inFlight.then((early) => `answered ${early.status} first`),
    ]);
    expect(first).toBe('mx lookup');
    const revoked = await h.cli<{ state: string }>([
      'key',
      'revoke',
      '--operator',
      t.operatorId,
      '--key',
      keyId,
    ]);
    expect(revoked.state).toBe('revoked');
    held.resolve();

    const res = await inFlight;
    expect(res.status).toBe(401);
    expect((await errorOf(res)).code).toBe('unauthorized');

    const page = ListPageSchema.parse(await (await apiList(h.server, witness.value, t.waitlistId)).json());
    expect(page.total).toBe(0);
    const activity = await h.cli<{ items: ActivityEntry[] }>(['activity', '--tenant', t.tenantId]);
    expect(activity.items.filter((entry) => entry.actor.type === 'key')).toEqual([]);
    // The DNS answer was an accepting MX: the same domain passes for the active key.
    expect(
      (await apiCreate(h.server, witness.value, t.waitlistId, { email: 'bob@held.example' })).status,
    ).toBe(202);
  });
});
