import { POW_MAX_DIFFICULTY, TOKEN_TTL_MS, verifyPow } from '@waitlistkit/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { API_ACCESS_ORDER, API_CREATE_ORDER, checks, PUBLIC_ORDER } from '../src/domain/checks.js';
import { parseCountry } from '../src/domain/countries.js';
import { domainListed, geoAllows, mxAccepts } from '../src/domain/gates.js';
import { isOriginAllowed, parseOrigin } from '../src/domain/origins.js';
import {
  nonReferrerPosition,
  positionsBySorting,
  type Ranked,
  rankKey,
  referrerPosition,
} from '../src/domain/positions.js';
import { creditFor } from '../src/domain/referrals.js';
import { applySettings, DEFAULT_SETTINGS } from '../src/domain/settings.js';
import {
  type Bucket,
  type Rule,
  SLOTS,
  slidingWindow,
  tokenBucket,
  type WindowLog,
  windowCount,
} from '../src/domain/throttle.js';
import {
  checkChallengeToken,
  checkPowSolution,
  issueChallengeToken,
  issuePowNonce,
  POW_NONCE_LENGTH,
} from '../src/domain/tokens.js';

describe('positions', () => {
  /** The counts the store asks SQLite for, computed here by brute force. */
  function formulaPositions(subscribers: Ranked[], boost: number): Map<Ranked, number> {
    const rk = (s: Ranked) => rankKey(s.seq, s.referral_count, boost);
    const referrers = subscribers.filter((s) => s.referral_count > 0);
    const counts = {
      rankAtMost: (t: number) => referrers.filter((r) => rk(r) <= t).length,
      seqAtMost: (t: number) => referrers.filter((r) => r.seq <= t).length,
    };
    return new Map(
      subscribers.map((s) => {
        if (boost === 0) return [s, s.seq];
        if (s.referral_count === 0) return [s, nonReferrerPosition(s.seq, counts)];
        const ties = referrers.filter(
          (r) =>
            r !== s &&
            rk(r) === rk(s) &&
            (r.referral_count > s.referral_count || (r.referral_count === s.referral_count && r.seq < s.seq)),
        ).length;
        return [s, referrerPosition(rk(s), counts, ties)];
      }),
    );
  }

  it('computes from referrer counts exactly the positions that sorting everyone gives', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat({ max: 6 }), { minLength: 1, maxLength: 80 }).map((counts) =>
          // Mostly zero, like a real waitlist; referral counts skewed low.
          counts.map((c, i) => ({ seq: i + 1, referral_count: c > 3 ? c - 3 : 0 })),
        ),
        fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 100 })),
        (subscribers, boost) => {
          const sorted = positionsBySorting(subscribers, boost);
          const formula = formulaPositions(subscribers, boost);
          for (const s of subscribers) expect(formula.get(s)).toBe(sorted.get(s));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('moves a referrer up N places per referral, ties going to more referrals, then earlier joins', () => {
    const people = Array.from({ length: 10 }, (_, i) => ({ seq: i + 1, referral_count: 0 }));
    (people[7] as Ranked).referral_count = 1; // joined 8th, one referral, boost 3: key 5
    (people[9] as Ranked).referral_count = 1; // joined 10th, one referral: key 7
    const positions = positionsBySorting(people, 3);
    // Key 5 is shared by the 5th joiner and the 8th: the referrer goes first.
    expect([8, 5, 6, 10, 7, 9].map((seq) => positions.get(people[seq - 1] as Ranked))).toEqual([
      5, 6, 7, 8, 9, 10,
    ]);
  });
});

describe('throttle: token bucket (per-key budget)', () => {
  const limit = { capacity: 3, windowMs: 60_000 };
  const take = tokenBucket.take;

  it('allows the capacity, refuses the next with the seconds until one token, refills over the window', () => {
    let bucket: Bucket | undefined;
    const answers = [0, 1, 2, 3].map(() => {
      const r = take(bucket, 1000, limit);
      bucket = r.state;
      return r;
    });
    expect(answers.map((a) => [a.allowed, a.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(answers[3]?.retryAfter).toBe(20);
    expect(answers[3]?.reset).toBe(60);
    expect(take(bucket, 1000 + 20_000, limit).allowed).toBe(true);
    expect(tokenBucket.isIdle(bucket as Bucket, 1000 + 60_000, limit)).toBe(true);
  });

  it('never goes above capacity or below zero, and retryAfter is at least 1 when refused', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 5000 }), { maxLength: 200 }), (gaps) => {
        let bucket: Bucket | undefined;
        let now = 0;
        for (const gap of gaps) {
          now += gap;
          const r = take(bucket, now, limit);
          bucket = r.state;
          expect(r.state.tokens).toBeGreaterThanOrEqual(0);
          expect(r.state.tokens).toBeLessThanOrEqual(limit.capacity);
          if (!r.allowed) expect(r.retryAfter).toBeGreaterThanOrEqual(1);
        }
      }),
    );
  });
});

describe('throttle: sliding window (per IP, per email)', () => {
  /** Runs requests at the given times; answers which were admitted. */
  function run(times: readonly number[], limit: { capacity: number; windowMs: number }) {
    let log: WindowLog | undefined;
    return times.map((now) => {
      const r = slidingWindow.take(log, now, limit);
      log = r.state;
      return { now, ...r };
    });
  }

  it('admits 60 in a minute and nothing more until the first of them has left the window', () => {
    const limit = { capacity: 60, windowMs: 60_000 };
    // 60 at once, then one request a second for two minutes: a token bucket would admit one
    // a second from the start, 119 in the first rolling minute.
    const times = [...Array(60).fill(0), ...Array.from({ length: 120 }, (_, i) => 1000 * (i + 1))];
    const answers = run(times, limit);
    const admitted = answers.filter((a) => a.allowed).map((a) => a.now);
    expect(admitted.filter((t) => t < 60_000)).toHaveLength(60);
    // The burst's slot leaves the window at 61 s (one slot, a sixtieth of it, late at most).
    expect(admitted.filter((t) => t > 0)[0]).toBe(61_000);
    const refused = answers.find((a) => !a.allowed && a.now === 1000);
    expect(refused?.retryAfter).toBe(60);
    expect(refused?.remaining).toBe(0);
  });

  it('admits at most 5 attempts in any hour, whatever the spacing', () => {
    const limit = { capacity: 5, windowMs: 3_600_000 };
    // Five at the end of one hour, then an attempt every ten minutes.
    const times = [3_599_000, 3_599_100, 3_599_200, 3_599_300, 3_599_400];
    for (let t = 3_600_000; t < 4 * 3_600_000; t += 600_000) times.push(t);
    const admitted = run(times, limit)
      .filter((a) => a.allowed)
      .map((a) => a.now);
    for (const t of admitted) {
      expect(admitted.filter((u) => u > t - limit.windowMs && u <= t).length).toBeLessThanOrEqual(5);
    }
    expect(admitted).toHaveLength(5 + 2 * 5);
  });

  it('never admits more than the capacity in any window, and refuses at most one slot early', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 60, max: 100_000 }),
        fc.array(fc.nat({ max: 4000 }), { maxLength: 300 }),
        (capacity, windowMs, gaps) => {
          const limit = { capacity, windowMs };
          const slot = Math.ceil(windowMs / SLOTS);
          let now = 0;
          const answers = run(
            gaps.map((g) => {
              now += g;
              return now;
            }),
            limit,
          );
          const admitted: number[] = [];
          for (const a of answers) {
            const inWindow = admitted.filter((t) => t > a.now - windowMs).length;
            // Safety: admitted only when fewer than the capacity in the rolling window.
            if (a.allowed) expect(inWindow).toBeLessThan(capacity);
            // Liveness: refused only when the window stretched by one slot is full.
            else {
              expect(admitted.filter((t) => t > a.now - windowMs - slot).length).toBeGreaterThanOrEqual(
                capacity,
              );
              expect(a.retryAfter).toBeGreaterThanOrEqual(1);
              // Waiting as told is enough.
              const later = slidingWindow.take(a.state, a.now + a.retryAfter * 1000, limit);
              expect(later.allowed).toBe(true);
            }
            if (a.allowed) admitted.push(a.now);
          }
        },
      ),
    );
  });

  it('forgets a log once every slot has left the window', () => {
    const limit = { capacity: 2, windowMs: 60_000 };
    const { state } = slidingWindow.take(undefined, 500, limit);
    expect(slidingWindow.isIdle(state, 60_999, limit)).toBe(false);
    expect(slidingWindow.isIdle(state, 61_000, limit)).toBe(true);
  });

  it('serves as a counter: unbounded, read without recording (adaptive Proof of Work)', () => {
    const limit = { capacity: Number.POSITIVE_INFINITY, windowMs: 60_000 };
    let log: WindowLog | undefined;
    for (let i = 0; i < 5; i++) {
      const taken = slidingWindow.take(log, i * 1000, limit);
      expect(taken.allowed).toBe(true);
      log = taken.state;
    }
    expect(windowCount(undefined, 0, limit)).toBe(0);
    expect(windowCount(log, 59_000, limit)).toBe(5);
    expect(windowCount(log, 59_000, limit)).toBe(5);
    // Slot 0 (0–999 ms) is counted until 61 s; slot 4 until 65 s.
    expect(windowCount(log, 61_000, limit)).toBe(4);
    expect(windowCount(log, 65_000, limit)).toBe(0);
  });
});

describe('throttle states, as a database keeps them', () => {
  const rules = [
    ['token bucket', tokenBucket],
    ['sliding window', slidingWindow],
  ] as const;
  const runs = fc.record({
    gaps: fc.array(fc.nat({ max: 20_000 }), { maxLength: 60 }),
    capacity: fc.integer({ min: 1, max: 10 }),
    windowMs: fc.constantFrom(1000, 60_000, 15 * 60_000, 3_600_000),
  });

  for (const [name, rule] of rules) {
    it(`${name}: a state read back from JSON gets the same answers, and is idle after its reset`, () => {
      fc.assert(
        fc.property(runs, ({ gaps, capacity, windowMs }) => {
          const limit = { capacity, windowMs };
          let kept: unknown;
          let stored: string | undefined;
          let now = 1_700_000_000_000;
          for (const gap of gaps) {
            now += gap;
            const direct = (rule as Rule<unknown>).take(kept, now, limit);
            kept = direct.state;
            const viaJson = (rule as Rule<unknown>).take(
              stored === undefined ? undefined : JSON.parse(stored),
              now,
              limit,
            );
            stored = JSON.stringify(viaJson.state);
            expect(viaJson).toEqual(direct);
            // What a database adapter may store as the time to sweep the state: never early (the
            // millisecond covers the bucket's float rounding, which can leave it an ulp short).
            expect((rule as Rule<unknown>).isIdle(direct.state, now + direct.reset * 1000 + 1, limit)).toBe(
              true,
            );
          }
        }),
      );
    });
  }
});

describe('gate tokens', () => {
  const secret = 'unit-test-secret-0123456789';

  it('accepts a challenge token only between its min age and its expiry, for its waitlist', () => {
    const token = issueChallengeToken(secret, 'wl_a', 10_000, 1500);
    expect(checkChallengeToken(secret, 'wl_a', token, 11_000)).toEqual({ ok: false, problem: 'early' });
    expect(checkChallengeToken(secret, 'wl_a', token, 11_500)).toMatchObject({
      ok: true,
      expiresAt: 10_000 + TOKEN_TTL_MS,
    });
    expect(checkChallengeToken(secret, 'wl_b', token, 11_500)).toEqual({ ok: false, problem: 'forged' });
    expect(checkChallengeToken('other-secret-0123456', 'wl_a', token, 11_500)).toEqual({
      ok: false,
      problem: 'forged',
    });
    expect(checkChallengeToken(secret, 'wl_a', token, 10_000 + TOKEN_TTL_MS + 1)).toEqual({
      ok: false,
      problem: 'expired',
    });
    const [v, issued, age, random, mac] = token.split('.');
    // Shortening the min age breaks the signature.
    expect(checkChallengeToken(secret, 'wl_a', [v, issued, '0', random, mac].join('.'), 10_001)).toEqual({
      ok: false,
      problem: 'forged',
    });
    expect(age).toBe((1500).toString(36));
  });

  it('issues 63-character PoW nonces at every difficulty, bound to waitlist and difficulty', () => {
    for (let d = 1; d <= POW_MAX_DIFFICULTY; d++)
      expect(issuePowNonce(secret, 'wl_a', Date.now(), d)).toHaveLength(POW_NONCE_LENGTH);
    const nonce = issuePowNonce(secret, 'wl_a', 0, 4);
    let solution = 0;
    while (!verifyPow(nonce, solution, 4)) solution++;
    expect(checkPowSolution(secret, 'wl_a', nonce, solution, 1000)).toMatchObject({
      ok: true,
      difficulty: 4,
    });
    expect(checkPowSolution(secret, 'wl_b', nonce, solution, 1000)).toEqual({ ok: false, problem: 'forged' });
    expect(checkPowSolution(secret, 'wl_a', nonce.replace('.4.', '.1.'), solution, 1000)).toEqual({
      ok: false,
      problem: 'forged',
    });
    expect(checkPowSolution(secret, 'wl_a', nonce, solution, TOKEN_TTL_MS + 1)).toEqual({
      ok: false,
      problem: 'expired',
    });
  });

  it('never throws on arbitrary tokens', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.integer(), (token, solution) => {
        expect(checkChallengeToken(secret, 'wl_a', token, Date.now()).ok).toBe(false);
        expect(checkPowSolution(secret, 'wl_a', token, solution, Date.now()).ok).toBe(false);
      }),
    );
  });
});

describe('order of checks', () => {
  it('runs the checks in the contract’s order and stops at the first refusal', async () => {
    const called: string[] = [];
    const check = (name: string) => () => {
      called.push(name);
      return name === 'pow' ? { stop: { status: 428, body: {} } } : undefined;
    };
    const walk = checks(PUBLIC_ORDER)
      .from<object>()
      .check('waitlist', check('waitlist'))
      .check('origin', check('origin'))
      .check('ip_throttle', check('ip_throttle'))
      .check('body', check('body'))
      .check('challenge', check('challenge'))
      .check('pow', check('pow'))
      .check('email_throttle', check('email_throttle'))
      .check('disposable', check('disposable'))
      .check('mx', check('mx'))
      .check('geo', check('geo'));
    const outcome = (await walk.run({})).stop;
    expect(outcome?.status).toBe(428);
    expect(called).toEqual(['waitlist', 'origin', 'ip_throttle', 'body', 'challenge', 'pow']);
    expect(API_CREATE_ORDER.indexOf('key_budget')).toBeLessThan(API_CREATE_ORDER.indexOf('plan'));
  });

  it('hands each check the facts established before it, and the caller all of them or those before the stop', async () => {
    const access = (grantee: string | undefined) =>
      checks(API_ACCESS_ORDER)
        .from<{ request: string }>()
        .check('auth', (s) => (s.request === 'key' ? { grant: { id: 'k1' } } : { stop: 'unauthorized' }))
        .check('key_budget', async (s) => ({ budget: `${s.grant.id}: 9 left` }))
        .check('plan', () => undefined)
        .check('scope', (s) => (grantee === s.grant.id ? undefined : { stop: `no scope, ${s.budget}` }))
        .check('waitlist', (s) => ({ waitlist: `${s.grant.id}'s list` }));
    const through = await access('k1').run({ request: 'key' });
    expect(through).toEqual({
      state: { request: 'key', grant: { id: 'k1' }, budget: 'k1: 9 left', waitlist: "k1's list" },
    });
    const stopped = await access('k2').run({ request: 'key' });
    expect(stopped).toEqual({
      stop: 'no scope, k1: 9 left',
      state: { request: 'key', grant: { id: 'k1' }, budget: 'k1: 9 left' },
    });
    expect((await access('k1').run({ request: 'nothing' })).stop).toBe('unauthorized');
  });

  it('refuses a check out of the order’s turn, and a walk run before its last check', () => {
    const start = checks(API_ACCESS_ORDER).from<object>();
    // @ts-expect-error the order names auth first
    expect(() => start.check('plan', () => undefined)).toThrow(/out of the order/);
    const partial = start.check('auth', () => undefined);
    // The compiler's part (`pnpm lint`): one check of five is not a walk yet.
    // @ts-expect-error run before the last check
    const early = () => partial.run({});
    expect(early).toBeTypeOf('function');
  });
});

describe('settings, origins, countries, gate decisions', () => {
  it('refuses geo allow and deny lists together, and lets an empty list clear one', () => {
    expect(() => applySettings(DEFAULT_SETTINGS, { geo_allow: ['US'], geo_deny: ['RU'] })).toThrow(
      /not both/,
    );
    const allow = applySettings(DEFAULT_SETTINGS, { geo_allow: ['US'] });
    expect(() => applySettings(allow, { geo_deny: ['RU'] })).toThrow(/already has a geo allow list/);
    expect(applySettings(allow, { geo_allow: [], geo_deny: ['RU'] })).toMatchObject({
      geo_allow: [],
      geo_deny: ['RU'],
    });
  });

  it('parses origins to their serialised form and compares them exactly', () => {
    expect(parseOrigin('HTTPS://Example.COM')).toBe('https://example.com');
    expect(parseOrigin('https://example.com:443/')).toBe('https://example.com');
    expect(parseOrigin('http://localhost:8787')).toBe('http://localhost:8787');
    for (const bad of [
      'example.com',
      'https://example.com/a',
      'https://u:p@example.com',
      'file:///x',
      'https://example.com?x',
    ]) {
      expect(() => parseOrigin(bad)).toThrow();
    }
    expect(isOriginAllowed('https://example.com', ['https://example.com'])).toBe(true);
    expect(isOriginAllowed('https://example.com.evil.example', ['https://example.com'])).toBe(false);
    expect(isOriginAllowed(undefined, ['https://example.com'])).toBe(false);
  });

  it('knows country codes', () => {
    expect(parseCountry(' de ')).toBe('DE');
    for (const bad of ['XX', 'ZZ', 'EU', 'USA', '1A', '']) expect(() => parseCountry(bad)).toThrow();
  });

  it('decides geo, disposable and MX', () => {
    expect(geoAllows({ geo_allow: ['US'], geo_deny: [] }, 'US')).toBe(true);
    expect(geoAllows({ geo_allow: ['US'], geo_deny: [] }, undefined)).toBe(false);
    expect(geoAllows({ geo_allow: [], geo_deny: ['RU'] }, undefined)).toBe(true);
    expect(geoAllows({ geo_allow: [], geo_deny: ['RU'] }, 'RU')).toBe(false);
    const list = new Set(['mailinator.com']);
    expect(domainListed('mailinator.com', [list])).toBe(true);
    expect(domainListed('x.mailinator.com', [list])).toBe(true);
    expect(domainListed('notmailinator.com', [list])).toBe(false);
    expect(domainListed('com', [new Set(['com'])])).toBe(false);
    expect(mxAccepts([{ exchange: '', priority: 0 }])).toBe(false);
    expect(mxAccepts([{ exchange: 'mx.example', priority: 10 }])).toBe(true);
    expect(mxAccepts([])).toBe(false);
  });
});

describe('referral credit', () => {
  const referrer = { id: 'sub_r', seq: 10, referral_count: 2 };
  it('credits a fresh sign-up with a found code while referrals are on, with the new rank key', () => {
    expect(creditFor({ referrals: true, referral_boost: 4 }, true, referrer)).toEqual({
      referrerId: 'sub_r',
      referralCount: 3,
      rankKey: 10 - 4 * 3,
    });
  });
  it('ignores the code when referrals are off, the sign-up is a re-sign-up, or no code matched', () => {
    expect(creditFor({ referrals: false, referral_boost: 4 }, true, referrer)).toBeUndefined();
    expect(creditFor({ referrals: true, referral_boost: 4 }, false, referrer)).toBeUndefined();
    expect(creditFor({ referrals: true, referral_boost: 4 }, true, undefined)).toBeUndefined();
  });
});
