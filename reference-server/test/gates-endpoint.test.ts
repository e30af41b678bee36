import {
  BODY_MAX_BYTES,
  type GatesResponse,
  GatesResponseSchema,
  leadingZeroBits,
  sha256,
  solvePow,
} from '@waitlistkit/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { powDifficulty } from '../src/domain/pow-difficulty.js';
import { isPostgres, sql } from './database.js';
import { errorOf, gate, type Harness, harness, ORIGIN, publicGates, publicPost } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  // Behind a proxy, so a test can ask from many addresses; without the header, the peer's.
  h = await harness({}, ['--trust-proxy']);
});
afterAll(() => h.close());

async function powOf(res: Response): Promise<{ nonce: string; difficulty: number }> {
  const answer = await gate(res);
  if (answer.gate !== 'pow') throw new Error('expected the pow gate');
  return answer.pow;
}

async function gatesOf(res: Response): Promise<GatesResponse> {
  expect(res.status).toBe(200);
  expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
  expect(res.headers.get('vary')).toBe('Origin');
  return GatesResponseSchema.parse(await res.json());
}

const CORS_HEADERS = ['access-control-allow-origin', 'access-control-expose-headers', 'vary'];

/** The public endpoints' headers of a request the proxy forwards for `ip`. */
const from = (ip: string) => ({ Origin: ORIGIN, 'Content-Type': 'application/json', 'X-Forwarded-For': ip });

/**
 * Signs `count` distinct emails up, the i-th from `ip(i)` (by default the peer's address), solving
 * each nonce; the difficulties offered.
 */
async function signUps(waitlistId: string, count: number, ip?: (i: number) => string): Promise<number[]> {
  const offered: number[] = [];
  for (let i = 1; i <= count; i++) {
    const email = `repeat-${i}@example.com`;
    const headers = ip ? from(ip(i)) : undefined;
    const pow = await powOf(await publicPost(h.server, waitlistId, { email }, headers));
    offered.push(pow.difficulty);
    const solution = solvePow(pow.nonce, pow.difficulty) as number;
    const ok = await publicPost(
      h.server,
      waitlistId,
      { email, pow: { nonce: pow.nonce, solution } },
      headers,
    );
    expect(ok.status).toBe(202);
  }
  return offered;
}

/** The difficulty of a nonce from `/gates`, asked for from `ip`. */
async function difficultyFor(waitlistId: string, ip: string): Promise<number> {
  const { pow } = await gatesOf(await publicGates(h.server, waitlistId, {}, from(ip)));
  if (!pow) throw new Error('expected the pow gate');
  return pow.difficulty;
}

const BASE = 8;
const powWaitlist = (...more: string[]) =>
  h.tenant({ waitlist: ['--origins', ORIGIN, '--pow', 'on', '--pow-difficulty', String(BASE), ...more] });

describe('POST /v1/public/waitlists/{id}/gates (docs/gates.md#gates-before-the-submit)', () => {
  it('answers {} for a waitlist without gates', async () => {
    const t = await h.tenant({ waitlist: ['--origins', ORIGIN] });
    const res = await publicGates(h.server, t.waitlistId);
    expect(await gatesOf(res)).toEqual({});
  });

  it('hands out both gates, and a sign-up carrying both is accepted on its first request', async () => {
    const t = await powWaitlist('--challenge', 'on', '--challenge-min-age-ms', '0');
    const { challenge, pow } = await gatesOf(await publicGates(h.server, t.waitlistId));
    if (!challenge || !pow) throw new Error('expected both gates');
    expect(challenge.min_age_ms).toBe(0);
    expect(pow.difficulty).toBe(BASE);
    expect(pow.nonce).toHaveLength(63);
    const body = {
      email: 'both@example.com',
      challenge_token: challenge.token,
      pow: { nonce: pow.nonce, solution: solvePow(pow.nonce, pow.difficulty) as number },
    };
    expect((await publicPost(h.server, t.waitlistId, body)).status).toBe(202);
    // Redeemed: the same tokens again start the 428 loop.
    expect(
      (await gate(await publicPost(h.server, t.waitlistId, { ...body, email: 'again@example.com' }))).gate,
    ).toBe('challenge');
  });

  it('counts the Challenge min age from the /gates answer', async () => {
    const t = await h.tenant({
      waitlist: ['--origins', ORIGIN, '--challenge', 'on', '--challenge-min-age-ms', '60000'],
    });
    const { challenge, pow } = await gatesOf(await publicGates(h.server, t.waitlistId));
    expect(pow).toBeUndefined();
    if (!challenge) throw new Error('expected the challenge gate');
    expect(challenge.min_age_ms).toBe(60_000);
    const early = await publicPost(h.server, t.waitlistId, {
      email: 'early@example.com',
      challenge_token: challenge.token,
    });
    expect((await gate(early)).gate).toBe('challenge');
  });

  it('answers a missing waitlist, a missing Origin and a refused one with 404 and no CORS headers', async () => {
    const t = await h.tenant({ waitlist: ['--origins', ORIGIN, '--pow', 'on'] });
    const answers = [
      await publicGates(h.server, 'wl_missing'),
      await publicGates(h.server, t.waitlistId, {}, { 'Content-Type': 'application/json' }),
      await publicGates(
        h.server,
        t.waitlistId,
        {},
        {
          Origin: 'https://evil.example',
          'Content-Type': 'application/json',
        },
      ),
    ];
    for (const res of answers) {
      expect(res.status).toBe(404);
      expect((await errorOf(res)).code).toBe('not_found');
      for (const name of CORS_HEADERS) expect(res.headers.get(name)).toBeNull();
    }
  });

  it('shares the per-IP budget with the subscribe endpoint', async () => {
    const t = await h.tenant({ waitlist: ['--origins', ORIGIN, '--ip-limit', '3'] });
    expect((await publicGates(h.server, t.waitlistId)).status).toBe(200);
    expect((await publicGates(h.server, t.waitlistId)).status).toBe(200);
    expect((await publicPost(h.server, t.waitlistId, { email: 'budget@example.com' })).status).toBe(202);
    for (const res of [
      await publicGates(h.server, t.waitlistId),
      await publicPost(h.server, t.waitlistId, { email: 'budget@example.com' }),
    ]) {
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('60');
      expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      expect((await errorOf(res)).code).toBe('rate_limit_exceeded');
    }
  });

  it('takes {} and nothing else: 400, 415 and 413 like the subscribe endpoint', async () => {
    const t = await h.tenant({ waitlist: ['--origins', ORIGIN, '--pow', 'on'] });
    const json = { Origin: ORIGIN, 'Content-Type': 'application/json' };
    const cases: [unknown, Record<string, string>, number, string][] = [
      [{ email: 'x@example.com' }, json, 400, 'invalid_request'],
      [[], json, 400, 'invalid_request'],
      ['"text"', json, 400, 'invalid_request'],
      ['null', json, 400, 'invalid_request'],
      ['{', json, 400, 'invalid_request'],
      ['', json, 400, 'invalid_request'],
      ['{}', { Origin: ORIGIN, 'Content-Type': 'text/plain' }, 415, 'unsupported_media_type'],
      [`{"pad":"${'x'.repeat(BODY_MAX_BYTES)}"}`, json, 413, 'payload_too_large'],
    ];
    for (const [body, headers, status, code] of cases) {
      const res = await publicGates(h.server, t.waitlistId, body, headers);
      expect({
        body: String(body).slice(0, 20),
        status: res.status,
        code: (await errorOf(res)).code,
      }).toEqual({
        body: String(body).slice(0, 20),
        status,
        code,
      });
      expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    }
    expect((await errorOf(await publicGates(h.server, t.waitlistId, { a: 1 }))).message).toBe(
      'The body must not have `a`.',
    );
  });

  it('answers the CORS preflight of /gates like that of /subscribers', async () => {
    const t = await h.tenant({ waitlist: ['--origins', ORIGIN] });
    const preflight = (waitlistId: string, origin: string) =>
      fetch(`${h.server.url}/v1/public/waitlists/${waitlistId}/gates`, {
        method: 'OPTIONS',
        headers: { Origin: origin, 'Access-Control-Request-Method': 'POST' },
      });
    const ok = await preflight(t.waitlistId, ORIGIN);
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(ok.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
    expect(ok.headers.get('access-control-allow-headers')).toBe('Content-Type');
    expect(ok.headers.get('access-control-max-age')).toBe('600');
    expect(ok.headers.get('vary')).toBe('Origin');
    for (const res of [
      await preflight(t.waitlistId, 'https://evil.example'),
      await preflight('wl_missing', ORIGIN),
    ]) {
      expect(res.status).toBe(404);
      for (const name of CORS_HEADERS) expect(res.headers.get(name)).toBeNull();
    }
  });
});

describe('adaptive Proof of Work over HTTP (docs/gates.md#adaptive-difficulty)', () => {
  it('prices repeated sign-ups from one address: base for the first three, then two bits per doubling', async () => {
    const t = await powWaitlist('--pow-adaptive', 'on');
    const offered = await signUps(t.waitlistId, 9);
    // The n-th sign-up sees a = n - 1 accepted before it.
    expect(offered).toEqual([0, 0, 0, 2, 2, 3, 4, 4, 4].map((repeat) => BASE + repeat));
    expect([offered[2], offered[4], offered[8]]).toEqual([BASE, BASE + 2, BASE + 4]);
  });

  it('prices an IPv6 client by its /64: sign-ups from four addresses of one /64 cost what four from one address do', async () => {
    const t = await powWaitlist('--pow-adaptive', 'on');
    const ofOne64 = ['2001:db8:a:1::1', '2001:db8:a:1::2', '2001:DB8:A:1:FFFF::9', '2001:db8:a:1:1:2:3:4'];
    expect(await signUps(t.waitlistId, 4, (i) => ofOne64[i - 1] as string)).toEqual([
      BASE,
      BASE,
      BASE,
      BASE + 2,
    ]);
    // Another address of that /64 pays the price of a = 4; another /64, and an IPv4 client, the base.
    expect(await difficultyFor(t.waitlistId, '2001:db8:a:1::abcd')).toBe(BASE + 2);
    expect(await difficultyFor(t.waitlistId, '2001:db8:a:2::1')).toBe(BASE);
    expect(await difficultyFor(t.waitlistId, '198.51.100.40')).toBe(BASE);
  });

  it('leaves the difficulty at the base when adaptive is off', async () => {
    const t = await powWaitlist();
    expect(await signUps(t.waitlistId, 9)).toEqual(Array(9).fill(BASE));
  });

  it('raises the difficulty for everyone under a surge of nonces, by at most four bits', async () => {
    const threshold = 5;
    const t = await powWaitlist(
      '--pow-adaptive',
      'on',
      '--pow-surge-threshold',
      String(threshold),
      '--ip-limit',
      '1000',
    );
    const started = Date.now();
    const offered: number[] = [];
    // 45 addresses asking twice each: every nonce counts (two a minute per client do).
    for (let i = 0; i < 90; i++)
      offered.push(await difficultyFor(t.waitlistId, `198.51.100.${(i >> 1) + 1}`));
    // Every nonce so far is in the surge window only if this took under a minute.
    expect(Date.now() - started).toBeLessThan(60_000);
    // The k-th nonce sees the k - 1 issued before it.
    const expected = offered.map(
      (_, k) => BASE + Math.min(4, Math.max(0, Math.ceil(Math.log2(k / threshold)))),
    );
    expect(offered).toEqual(expected);
    expect(offered.slice(0, 6)).toEqual(Array(6).fill(BASE));
    expect(offered[10]).toBe(BASE + 1);
    expect(offered.at(-1)).toBe(BASE + 4);
    expect(offered).toEqual(
      offered.map((_, k) =>
        powDifficulty(BASE, true, { issuedLastMinute: k, threshold, acceptedFromIpLastHour: 0 }),
      ),
    );
  });

  it('prices nonces fetched ahead again when they are redeemed: hoarding costs what signing up one at a time does', async () => {
    const t = await powWaitlist('--pow-adaptive', 'on');
    // Five nonces fetched at once, all priced at a = 0.
    const hoard: { nonce: string; difficulty: number }[] = [];
    for (let i = 0; i < 5; i++)
      hoard.push((await gatesOf(await publicGates(h.server, t.waitlistId))).pow as never);
    expect(hoard.map((p) => p.difficulty)).toEqual(Array(5).fill(BASE));
    const zeros = (nonce: string, solution: number) =>
      leadingZeroBits(sha256(new TextEncoder().encode(`${nonce}:${solution}`)));
    /** The first solution reaching `bits` but not `below` leading zero bits. */
    const solveBetween = (nonce: string, bits: number, below: number) => {
      for (let start = 0; ; ) {
        const solution = solvePow(nonce, bits, { start }) as number;
        if (zeros(nonce, solution) < below) return solution;
        start = solution + 1;
      }
    };
    const send = (i: number, solution: number) =>
      publicPost(h.server, t.waitlistId, {
        email: `hoarder-${i}@example.com`,
        pow: { nonce: hoard[i]?.nonce, solution },
      });
    // The first three spend theirs at the base price, as a person's would.
    for (let i = 0; i < 3; i++) {
      expect((await send(i, solveBetween(hoard[i]?.nonce as string, BASE, BASE + 1))).status).toBe(202);
    }
    // Now a = 3 and the price is BASE + 2: a solution short of it gets a fresh nonce at that price…
    const nonce3 = hoard[3]?.nonce as string;
    const short = await send(3, solveBetween(nonce3, BASE, BASE + 2));
    expect((await powOf(short)).difficulty).toBe(BASE + 2);
    // …and the same hoarded nonce solved to the current price is accepted.
    expect((await send(3, solvePow(nonce3, BASE + 2) as number)).status).toBe(202);
  });

  it('counts at most two nonces a minute of each /64 towards the surge: 32 of them asking in a loop raise nothing', async () => {
    const t = await powWaitlist('--pow-adaptive', 'on');
    // 32 /64s ask 8 times each (256 nonces, over twice the default threshold of 120), each
    // time from another address of its /64.
    const offered: number[] = [];
    for (let round = 0; round < 8; round++)
      offered.push(
        ...(await Promise.all(
          Array.from({ length: 32 }, (_, c) =>
            difficultyFor(
              t.waitlistId,
              `2001:db8:${(0x100 + c).toString(16)}:7::${(round + 1).toString(16)}`,
            ),
          ),
        )),
      );
    expect(offered).toHaveLength(256);
    expect(offered.filter((d) => d !== BASE)).toEqual([]);
    expect(await difficultyFor(t.waitlistId, '2001:db8:ffff:7::1')).toBe(BASE);
  });

  it("still surges for a real crowd: 200 addresses asking once or twice raise everyone's difficulty", async () => {
    const t = await powWaitlist('--pow-adaptive', 'on');
    // 300 nonces counted under the default threshold of 120: the last ones see more than 240.
    const asks = Array.from({ length: 200 }, (_, i) => `198.18.${i >> 7}.${(i & 127) + 1}`).flatMap(
      (ip, i) => (i % 2 === 0 ? [ip, ip] : [ip]),
    );
    const offered: number[] = [];
    for (let at = 0; at < asks.length; at += 20)
      offered.push(
        ...(await Promise.all(asks.slice(at, at + 20).map((ip) => difficultyFor(t.waitlistId, ip)))),
      );
    expect(offered.slice(0, 20)).toEqual(Array(20).fill(BASE));
    expect(Math.max(...offered)).toBe(BASE + 2);
    // The surge prices the moment for everyone, a newcomer included.
    expect(await difficultyFor(t.waitlistId, '2001:db8:beef::1')).toBe(BASE + 2);
  });

  it('counts nothing while adaptive is off: no surge state is stored, and switching it on starts at the base', async () => {
    const t = await powWaitlist('--pow-surge-threshold', '5');
    const offered = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        difficultyFor(t.waitlistId, `2001:db8:${(0x200 + i).toString(16)}::1`),
      ),
    );
    expect(offered).toEqual(Array(50).fill(BASE));
    if (isPostgres(h.db)) {
      // No row of the surge's counters for this waitlist: a nonce took no row lock.
      const rows = await sql<{ limiter: string; key: string }>(
        h.db,
        "SELECT limiter, key FROM throttles WHERE limiter IN ('pow_issued', 'pow_issued_client') AND key LIKE ?",
        [`${t.waitlistId}%`],
      );
      expect(rows).toEqual([]);
    }
    // Had the 50 nonces been counted, the surge would be 4 bits now (50 / 5 > 8).
    await h.cli(['waitlist', 'update', '--waitlist', t.waitlistId, '--pow-adaptive', 'on']);
    expect(await difficultyFor(t.waitlistId, '2001:db8:fff::1')).toBe(BASE);
    expect(await difficultyFor(t.waitlistId, '2001:db8:fff::1')).toBe(BASE);
  });
});
