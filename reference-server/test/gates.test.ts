import { solvePow, TOKEN_TTL_MS } from '@waitlistkit/protocol';
import type { Tenant } from '@waitlistkit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueChallengeToken, issuePowNonce } from '../src/domain/tokens.js';
import { gate, type Harness, harness, ORIGIN, publicPost, SECRET } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

const waitUntil = (at: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));

describe('Challenge gate', () => {
  let t: Tenant;
  beforeAll(async () => {
    t = await h.tenant({
      waitlist: ['--origins', ORIGIN, '--challenge', 'on', '--challenge-min-age-ms', '300'],
    });
  });

  it('asks for a challenge and refuses it early with a fresh one', async () => {
    // A min age far above any delay of a busy machine: the token is surely still too young.
    const slow = await h.tenant({
      waitlist: ['--origins', ORIGIN, '--challenge', 'on', '--challenge-min-age-ms', '60000'],
    });
    const first = await gate(await publicPost(h.server, slow.waitlistId, { email: 'c1@example.com' }));
    if (first.gate !== 'challenge') throw new Error('expected the challenge gate');
    expect(first.challenge.min_age_ms).toBe(60_000);
    const token = first.challenge.token;
    const early = await gate(
      await publicPost(h.server, slow.waitlistId, { email: 'c1@example.com', challenge_token: token }),
    );
    expect(early.gate).toBe('challenge');
    if (early.gate === 'challenge') expect(early.challenge.token).not.toBe(token);
  });

  it('accepts a challenge after min_age_ms, and only once', async () => {
    const first = await gate(await publicPost(h.server, t.waitlistId, { email: 'c1@example.com' }));
    if (first.gate !== 'challenge') throw new Error('expected the challenge gate');
    const received = Date.now();
    expect(first.challenge.min_age_ms).toBe(300);
    const token = first.challenge.token;
    // The protocol itself makes the client wait; this waits exactly as long as the server asked.
    await waitUntil(received + 300);
    const ok = await publicPost(h.server, t.waitlistId, { email: 'c1@example.com', challenge_token: token });
    expect(ok.status).toBe(202);
    const replay = await publicPost(h.server, t.waitlistId, {
      email: 'c2@example.com',
      challenge_token: token,
    });
    expect((await gate(replay)).gate).toBe('challenge');
  });

  it('answers forged, foreign, expired and garbage tokens with a fresh challenge', async () => {
    const other = await h.tenant({
      waitlist: ['--origins', ORIGIN, '--challenge', 'on', '--challenge-min-age-ms', '0'],
    });
    const foreign = issueChallengeToken(SECRET, other.waitlistId, Date.now() - 1000, 0);
    const forged = issueChallengeToken('another-secret-0123456789', t.waitlistId, Date.now() - 1000, 0);
    const expired = issueChallengeToken(SECRET, t.waitlistId, Date.now() - TOKEN_TTL_MS - 1000, 0);
    const valid = issueChallengeToken(SECRET, t.waitlistId, Date.now() - 1000, 0);
    const tampered = `${valid.slice(0, -1)}${valid.endsWith('A') ? 'B' : 'A'}`;
    for (const token of [foreign, forged, expired, tampered, 'garbage', '', 'c1.....', 'x'.repeat(256)]) {
      const answer = await gate(
        await publicPost(h.server, t.waitlistId, { email: 'c3@example.com', challenge_token: token }),
      );
      expect({ token, gate: answer.gate }).toEqual({ token, gate: 'challenge' });
    }
    expect(
      (await publicPost(h.server, t.waitlistId, { email: 'c3@example.com', challenge_token: valid })).status,
    ).toBe(202);
  });

  it('binds the min age into the token: a token minted for 0 ms is accepted at once', async () => {
    const token = issueChallengeToken(SECRET, t.waitlistId, Date.now(), 0);
    expect(
      (await publicPost(h.server, t.waitlistId, { email: 'c4@example.com', challenge_token: token })).status,
    ).toBe(202);
  });
});

describe('Proof of Work gate', () => {
  let t: Tenant;
  beforeAll(async () => {
    t = await h.tenant({ waitlist: ['--origins', ORIGIN, '--pow', 'on', '--pow-difficulty', '10'] });
  });

  async function nonce(email: string) {
    const answer = await gate(await publicPost(h.server, t.waitlistId, { email }));
    if (answer.gate !== 'pow') throw new Error('expected the pow gate');
    return answer.pow;
  }

  it('issues 63-character nonces at the configured difficulty and accepts a solution once', async () => {
    const pow = await nonce('p1@example.com');
    expect(pow.difficulty).toBe(10);
    expect(pow.nonce).toHaveLength(63);
    const solution = solvePow(pow.nonce, pow.difficulty) as number;
    const ok = await publicPost(h.server, t.waitlistId, {
      email: 'p1@example.com',
      pow: { nonce: pow.nonce, solution },
    });
    expect(ok.status).toBe(202);
    const replay = await publicPost(h.server, t.waitlistId, {
      email: 'p2@example.com',
      pow: { nonce: pow.nonce, solution },
    });
    expect((await gate(replay)).gate).toBe('pow');
  });

  it('loops on wrong, foreign, forged and expired nonces', async () => {
    const pow = await nonce('p3@example.com');
    let wrong = 0;
    while (solvePow(pow.nonce, pow.difficulty, { start: wrong, attempts: 1 }) !== undefined) wrong++;
    const other = await h.tenant({ waitlist: ['--origins', ORIGIN, '--pow', 'on'] });
    const minted = (secret: string, waitlistId: string, at: number) => {
      const n = issuePowNonce(secret, waitlistId, at, 4);
      return { nonce: n, solution: solvePow(n, 4) as number };
    };
    const cases = [
      { nonce: pow.nonce, solution: wrong },
      minted(SECRET, other.waitlistId, Date.now()),
      minted('another-secret-0123456789', t.waitlistId, Date.now()),
      minted(SECRET, t.waitlistId, Date.now() - TOKEN_TTL_MS - 1000),
      { nonce: 'p1.zzzz.4.abc.def', solution: 1 },
    ];
    for (const attempt of cases) {
      const answer = await gate(
        await publicPost(h.server, t.waitlistId, { email: 'p3@example.com', pow: attempt }),
      );
      expect(answer.gate).toBe('pow');
    }
    // The nonce binds its own difficulty: one minted at 4 bits by this server is honoured.
    expect(
      (
        await publicPost(h.server, t.waitlistId, {
          email: 'p3@example.com',
          pow: minted(SECRET, t.waitlistId, Date.now()),
        })
      ).status,
    ).toBe(202);
  });
});

describe('Challenge and Proof of Work together', () => {
  it('asks for the challenge first, then the PoW, and accepts the request carrying both', async () => {
    const t = await h.tenant({
      waitlist: [
        '--origins',
        ORIGIN,
        '--challenge',
        'on',
        '--challenge-min-age-ms',
        '100',
        '--pow',
        'on',
        '--pow-difficulty',
        '8',
      ],
    });
    const body = { email: 'both@example.com' };
    const first = await gate(await publicPost(h.server, t.waitlistId, body));
    if (first.gate !== 'challenge') throw new Error('challenge comes first');
    const received = Date.now();
    await waitUntil(received + first.challenge.min_age_ms);
    const withToken = { ...body, challenge_token: first.challenge.token };
    const second = await gate(await publicPost(h.server, t.waitlistId, withToken));
    if (second.gate !== 'pow') throw new Error('then the pow');
    const solution = solvePow(second.pow.nonce, second.pow.difficulty) as number;
    const done = await publicPost(h.server, t.waitlistId, {
      ...withToken,
      pow: { nonce: second.pow.nonce, solution },
    });
    expect(done.status).toBe(202);
    // Both tokens are now spent.
    const again = await publicPost(h.server, t.waitlistId, {
      ...withToken,
      pow: { nonce: second.pow.nonce, solution },
    });
    expect((await gate(again)).gate).toBe('challenge');
  });

  it('redeems a token for one of many concurrent requests only', async () => {
    const t = await h.tenant({
      waitlist: ['--origins', ORIGIN, '--challenge', 'on', '--challenge-min-age-ms', '0'],
    });
    const token = issueChallengeToken(SECRET, t.waitlistId, Date.now(), 0);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        publicPost(h.server, t.waitlistId, { email: `race${i}@example.com`, challenge_token: token }),
      ),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 202)).toHaveLength(1);
    expect(statuses.filter((s) => s === 428)).toHaveLength(19);
  });

  it('checks the gates before the per-email throttle', async () => {
    const t = await h.tenant({
      waitlist: ['--origins', ORIGIN, '--challenge', 'on', '--email-throttle', 'on'],
    });
    for (let i = 0; i < 8; i++)
      expect((await publicPost(h.server, t.waitlistId, { email: 'same@example.com' })).status).toBe(428);
  });

  it('spends a passed token when a check after the gates refuses the sign-up', async () => {
    const t = await h.tenant({
      waitlist: [
        '--origins',
        ORIGIN,
        '--challenge',
        'on',
        '--challenge-min-age-ms',
        '0',
        '--block-disposable',
        'on',
      ],
    });
    const token = issueChallengeToken(SECRET, t.waitlistId, Date.now(), 0);
    const refused = await publicPost(h.server, t.waitlistId, {
      email: 'x@mailinator.com',
      challenge_token: token,
    });
    expect(refused.status).toBe(400);
    const reused = await publicPost(h.server, t.waitlistId, {
      email: 'real@example.com',
      challenge_token: token,
    });
    expect((await gate(reused)).gate).toBe('challenge');
  });
});
