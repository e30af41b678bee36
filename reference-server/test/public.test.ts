import { request } from 'node:http';
import type { Tenant } from '@waitlistkit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from './database.js';
import { errorOf, type Harness, harness, ORIGIN, publicPost } from './helpers.js';

let h: Harness;
let t: Tenant;
beforeAll(async () => {
  h = await harness({}, ['--trust-proxy']);
  t = await h.tenant({
    waitlist: ['--referrals', 'on', '--origins', `${ORIGIN},https://other.example`, '--ip-limit', '1000'],
  });
});
afterAll(() => h.close());

const json = { 'Content-Type': 'application/json' };
const CORS_HEADERS = [
  'access-control-allow-origin',
  'access-control-allow-methods',
  'access-control-expose-headers',
  'vary',
];

describe('public subscribe: 404 for every refusal, without CORS headers', () => {
  it('answers one body for a missing or archived waitlist, a missing or refused Origin', async () => {
    const archived = await h.cli<{ waitlist_id: string }>([
      'waitlist',
      'create',
      '--tenant',
      t.tenantId,
      '--name',
      'Old',
      '--origins',
      ORIGIN,
    ]);
    await h.cli(['waitlist', 'archive', '--waitlist', archived.waitlist_id]);
    const answers = await Promise.all([
      publicPost(h.server, 'wl_missing', { email: 'a@example.com' }),
      publicPost(h.server, archived.waitlist_id, { email: 'a@example.com' }),
      publicPost(h.server, t.waitlistId, { email: 'a@example.com' }, json),
      publicPost(
        h.server,
        t.waitlistId,
        { email: 'a@example.com' },
        { ...json, Origin: 'https://evil.example' },
      ),
      publicPost(h.server, t.waitlistId, { email: 'a@example.com' }, { ...json, Origin: `${ORIGIN}/` }),
      publicPost(h.server, t.waitlistId, { email: 'a@example.com' }, { ...json, Origin: 'null' }),
    ]);
    const bodies = await Promise.all(answers.map((r) => r.text()));
    expect(answers.map((r) => r.status)).toEqual([404, 404, 404, 404, 404, 404]);
    expect(new Set(bodies).size).toBe(1);
    expect(JSON.parse(bodies[0] as string).error.code).toBe('not_found');
    for (const res of answers) for (const name of CORS_HEADERS) expect(res.headers.get(name)).toBeNull();
  });
});

describe('CORS (docs/protocol.md#cors)', () => {
  const preflight = (waitlistId: string, origin?: string) =>
    fetch(`${h.server.url}/v1/public/waitlists/${waitlistId}/subscribers`, {
      method: 'OPTIONS',
      headers: {
        ...(origin ? { Origin: origin } : {}),
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type',
      },
    });

  it('answers an allowlisted preflight with 204 and exactly the contract headers', async () => {
    for (const origin of [ORIGIN, 'https://other.example']) {
      const res = await preflight(t.waitlistId, origin);
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
      expect(res.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
      expect(res.headers.get('access-control-allow-headers')).toBe('Content-Type');
      expect(res.headers.get('access-control-max-age')).toBe('600');
      expect(res.headers.get('vary')).toBe('Origin');
    }
  });

  it('answers any other preflight with 404 and no CORS headers', async () => {
    for (const res of [
      await preflight(t.waitlistId, 'https://evil.example'),
      await preflight(t.waitlistId),
      await preflight('wl_missing', ORIGIN),
    ]) {
      expect(res.status).toBe(404);
      for (const name of CORS_HEADERS) expect(res.headers.get(name)).toBeNull();
    }
  });

  it('puts Allow-Origin, Vary and Expose-Headers on every answer to an allowlisted origin', async () => {
    const challenged = await h.tenant({
      waitlist: ['--origins', ORIGIN, '--challenge', 'on', '--ip-limit', '2'],
    });
    const answers = [
      await publicPost(h.server, t.waitlistId, { email: 'cors@example.com' }),
      await publicPost(h.server, t.waitlistId, { email: 'nope' }),
      await publicPost(h.server, challenged.waitlistId, { email: 'a@example.com' }),
      await publicPost(h.server, challenged.waitlistId, { email: 'a@example.com' }),
      await publicPost(h.server, challenged.waitlistId, { email: 'a@example.com' }),
    ];
    expect(answers.map((r) => r.status)).toEqual([202, 400, 428, 428, 429]);
    for (const res of answers) {
      expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      expect(res.headers.get('vary')).toBe('Origin');
      expect(res.headers.get('access-control-expose-headers')).toBe('Retry-After, Waitlist-Confirm-Email');
    }
  });
});

describe('public subscribe: per-IP per-waitlist throttle', () => {
  it('admits at most the limit in any rolling minute, however the requests are spread', async () => {
    const t = await h.tenant({ waitlist: ['--origins', ORIGIN, '--ip-limit', '300'] });
    const from = { ...json, Origin: ORIGIN, 'X-Forwarded-For': '198.51.100.77' };
    const statuses: number[] = [];
    for (let round = 0; round < 30; round++) {
      const batch = await Promise.all(
        Array.from({ length: 10 }, () => publicPost(h.server, t.waitlistId, {}, from)),
      );
      statuses.push(...batch.map((r) => r.status));
    }
    expect(statuses).toEqual(Array(300).fill(400));
    // A token bucket would let one more through every 200 ms from here on (300 per 60 s); the
    // window admits nothing until the first of the 300 is a minute old. Keep asking for 1.5 s,
    // and at least 10 times however slow the machine.
    const since = performance.now();
    const later: number[] = [];
    while ((performance.now() - since < 1500 || later.length < 10) && later.length < 5000) {
      later.push((await publicPost(h.server, t.waitlistId, {}, from)).status);
    }
    expect(later.filter((status) => status !== 429)).toEqual([]);
  });

  it('answers 429 with Retry-After: 60 past the limit, counting 400s and 428s, per IP and per waitlist', async () => {
    const a = await h.tenant({ waitlist: ['--origins', ORIGIN, '--ip-limit', '3', '--challenge', 'on'] });
    const b = await h.tenant({ waitlist: ['--origins', ORIGIN, '--ip-limit', '3'] });
    const from = (ip: string) => ({ ...json, Origin: ORIGIN, 'X-Forwarded-For': `203.0.113.9, ${ip}` });
    expect((await publicPost(h.server, a.waitlistId, { email: 'x' }, from('198.51.100.1'))).status).toBe(400);
    expect((await publicPost(h.server, a.waitlistId, '{', from('198.51.100.1'))).status).toBe(400);
    expect(
      (await publicPost(h.server, a.waitlistId, { email: 'a@example.com' }, from('198.51.100.1'))).status,
    ).toBe(428);
    const refused = await publicPost(
      h.server,
      a.waitlistId,
      { email: 'a@example.com' },
      from('198.51.100.1'),
    );
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect((await errorOf(refused)).code).toBe('rate_limit_exceeded');
    // Another address, and the same address on another waitlist, have their own budgets.
    expect(
      (await publicPost(h.server, a.waitlistId, { email: 'a@example.com' }, from('198.51.100.2'))).status,
    ).toBe(428);
    expect(
      (await publicPost(h.server, b.waitlistId, { email: 'a@example.com' }, from('198.51.100.1'))).status,
    ).toBe(202);
    // 404s are not counted: they come first.
    expect(
      (
        await publicPost(
          h.server,
          a.waitlistId,
          { email: 'a@example.com' },
          { ...from('198.51.100.3'), Origin: 'https://evil.example' },
        )
      ).status,
    ).toBe(404);
  });

  it('counts an IPv6 client by its /64 and an IPv4-mapped address as its IPv4 client (docs/protocol.md#client-addresses)', async () => {
    const w = await h.tenant({ waitlist: ['--origins', ORIGIN, '--ip-limit', '3'] });
    const from = (ip: string) => ({ ...json, Origin: ORIGIN, 'X-Forwarded-For': ip });
    const post = async (ip: string, i: number) =>
      (await publicPost(h.server, w.waitlistId, { email: `v6-${i}@example.com` }, from(ip))).status;
    const ofOne64 = [
      '2001:db8:5:6::1',
      '2001:db8:5:6::2',
      '2001:DB8:5:6:ABCD::9',
      '2001:db8:5:6:ffff:ffff:ffff:ffff',
    ];
    const statuses: number[] = [];
    for (const [i, ip] of ofOne64.entries()) statuses.push(await post(ip, i));
    expect(statuses).toEqual([202, 202, 202, 429]);
    // Another /64, even the next one, has its own budget.
    expect(await post('2001:db8:5:7::1', 10)).toBe(202);
    // ::ffff:a.b.c.d is the IPv4 client a.b.c.d: one budget between them.
    const v4: number[] = [];
    for (const [i, ip] of [
      '198.51.100.60',
      '::ffff:198.51.100.60',
      '::FFFF:c633:643c',
      '198.51.100.60',
    ].entries())
      v4.push(await post(ip, 20 + i));
    expect(v4).toEqual([202, 202, 202, 429]);
  });
});

describe('public subscribe: bodies', () => {
  it.each([
    ['not json', 'invalid_request'],
    ['', 'invalid_request'],
    ['[]', 'invalid_request'],
    ['"a@example.com"', 'invalid_request'],
    ['{"email": null}', 'invalid_request'],
    ['{"email": "a@example.com", "pow": {"nonce": "n", "solution": "1"}}', 'invalid_request'],
    ['{"email": "a@example.com", "challenge_token": 5}', 'invalid_request'],
    ['{"email": "@@"}', 'invalid_email'],
    ['{"email": "a@localhost"}', 'invalid_email'],
  ])('answers 400 for %s', async (body, code) => {
    const res = await publicPost(h.server, t.waitlistId, body);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).code).toBe(code);
  });

  it('answers 415 and 413 in the public area too', async () => {
    const text = await publicPost(h.server, t.waitlistId, '{"email":"a@b.co"}', {
      Origin: ORIGIN,
      'Content-Type': 'text/plain',
    });
    expect(text.status).toBe(415);
    const big = await publicPost(
      h.server,
      t.waitlistId,
      JSON.stringify({ email: 'a@example.com', x: 'y'.repeat(20_000) }),
    );
    expect(big.status).toBe(413);
    expect((await errorOf(big)).code).toBe('payload_too_large');
  });

  it('de-duplicates by normalised email with identical answers', async () => {
    const first = await publicPost(h.server, t.waitlistId, { email: 'Dup@Example.COM' });
    const again = await publicPost(h.server, t.waitlistId, { email: '  dup@example.com ' });
    const idn = await publicPost(h.server, t.waitlistId, { email: 'x@bücher.example' });
    const idnAgain = await publicPost(h.server, t.waitlistId, { email: 'X@xn--bcher-kva.example' });
    expect([first.status, again.status, idn.status, idnAgain.status]).toEqual([202, 202, 202, 202]);
    expect(await again.text()).toBe(await first.text());
    expect(await idnAgain.text()).toBe(await idn.text());
  });
});

/** A POST as it goes on the wire: the path as given, the answer's headers in the order they were sent. */
function rawPost(path: string, body: string): Promise<{ status: number; headers: string[][]; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${h.server.url}${path}`, { method: 'POST', headers: { ...json, Origin: ORIGIN } });
    req.on('error', reject);
    req.end(body, () => undefined);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => {
        const headers: string[][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) headers.push(res.rawHeaders.slice(i, i + 2));
        resolve({ status: res.statusCode as number, headers, body: text });
      });
    });
  });
}

describe('public subscribe: its own lane before Express (docs/contributing.md#how-the-server-works)', () => {
  // Per answer, what differs from request to request by design.
  const varying = new Set(['Request-Id', 'Date']);
  const fixed = (headers: string[][]) => headers.filter(([name]) => !varying.has(name as string));

  it('answers the route as the service spells it and every other spelling (Express) with the same bytes', async () => {
    const path = `/v1/public/waitlists/${t.waitlistId}/subscribers`;
    const spellings = [path, `${path}/`, `${path}?via=express`, path.replace('/subscribers', '/SUBSCRIBERS')];
    const refused = await Promise.all(spellings.map((p) => rawPost(p, '{"email":"not an address"}')));
    const accepted = await Promise.all(
      spellings.map((p, i) => rawPost(p, JSON.stringify({ email: `lane-${i}@example.com` }))),
    );
    const [lane, ...express] = refused;
    expect(lane?.status).toBe(400);
    for (const other of express) {
      expect(other.body).toBe(lane?.body);
      expect(fixed(other.headers)).toEqual(fixed(lane?.headers ?? []));
    }
    // Fresh sign-ups differ in their tokens and positions only: the same headers, the same fields.
    const [first, ...rest] = accepted;
    expect(first?.status).toBe(202);
    for (const other of rest) {
      expect(other.status).toBe(202);
      expect(fixed(other.headers).map(([name]) => name)).toEqual(
        fixed(first?.headers ?? []).map(([name]) => name),
      );
      expect(Object.keys(JSON.parse(other.body))).toEqual(Object.keys(JSON.parse(first?.body ?? '{}')));
    }
    expect(first?.headers.map(([name]) => name)).toEqual([
      'Request-Id',
      'Access-Control-Allow-Origin',
      'Access-Control-Expose-Headers',
      'Vary',
      'Content-Type',
      'Content-Length',
      'Date',
      'Connection',
      'Keep-Alive',
    ]);
    const rows = await sql<{ n: number }>(
      h.db,
      "SELECT count(*) AS n FROM subscribers WHERE email LIKE 'lane-%@example.com'",
    );
    expect(Number(rows[0]?.n)).toBe(spellings.length);
  });
});

describe('public subscribe: 500', () => {
  it('answers 500 internal_error with CORS headers and no detail when storage fails under it', async () => {
    const broken = await harness();
    try {
      const x = await broken.tenant({
        waitlist: ['--origins', ORIGIN, '--challenge', 'on', '--challenge-min-age-ms', '0'],
      });
      const first = (await (
        await publicPost(broken.server, x.waitlistId, { email: 'a@example.com' })
      ).json()) as {
        challenge: { token: string };
      };
      // Another process drops a table the gate reads: the next request cannot be served.
      await sql(broken.db, 'DROP TABLE used_tokens');
      const res = await publicPost(broken.server, x.waitlistId, {
        email: 'a@example.com',
        challenge_token: first.challenge.token,
      });
      expect(res.status).toBe(500);
      expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      expect(await res.json()).toEqual({
        error: { code: 'internal_error', message: 'Something went wrong on our side; try again.' },
      });
      // SQLite's words, or PostgreSQL's.
      expect(broken.server.output()).toMatch(
        /no such table: used_tokens|relation \\"used_tokens\\" does not exist/,
      );
    } finally {
      await broken.close();
    }
  });
});
